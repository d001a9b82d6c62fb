"""``quizzer stats``: the progress report and one card's history."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from quizzer.progress.calendar import CALENDAR_WEEKS, calendar_start
from quizzer.ui.charts import calendar_heatmap, forecast_bars, retention_by_month, workload
from quizzer.ui.view import View
from quizzer.ui.widgets import (
    Column,
    counted,
    line_table,
    percent,
    relative,
    report_table,
    titled_grid,
    visible,
    when,
)

if TYPE_CHECKING:
    from quizzer.progress import stats
    from quizzer.progress.store import Attempt


#: Answers ``stats CARD`` tables at most, the latest: a heavy learner's card has thousands,
#: and a Rich table of 5,000 rows took seconds to lay out.
HISTORY_ROWS = 100


HISTORY_COLUMNS = (
    Column("when", folds=True),
    Column("blank", folds=True),
    Column("answer", folds=True),
    Column("", justify="center", folds=True),
    Column("try", justify="right"),
)


class StatsView(View):
    """The screens of ``stats`` and ``stats CARD``."""

    def report(self, report: stats.Report, path: str, now: datetime) -> None:
        """Totals, accuracy by tag, the forecast and the weakest cards."""
        totals = Table(show_header=False, box=None, pad_edge=False)
        totals.add_column(style="bold")
        totals.add_column(justify="right")
        for label, value in (
            ("answers judged", str(report.attempts)),
            ("accuracy", percent(report.accuracy if report.attempts else None)),
            ("cards seen", str(report.cards_seen)),
            ("reviews", str(report.reviews)),
            ("sessions", str(report.sessions)),
            ("streak", counted(report.streak_days, "day")),
            ("due now", str(report.due_now)),
        ):
            totals.add_row(label, value)
        self.out.print(totals)
        if report.tags:
            rows = [(t.tag, str(t.attempts), percent(t.accuracy)) for t in report.tags]
            self._ranking("By tag (weakest first)", ("tag", "green"), ("answers", "accuracy"), rows)
        if report.retention_by_tag:
            worst = sorted(report.retention_by_tag.items(), key=lambda kv: kv[1].rate or 0)[:5]
            rows = [(tag, str(r.reviewed), percent(r.rate)) for tag, r in worst]
            # Achieved next to desired, as the months' chart marks it.
            recall = f"recall (desired {percent(report.desired_retention)})"
            self._ranking("Lowest recall by tag", ("tag", "green"), ("reviews", recall), rows)
        self.out.print()
        self.out.print(calendar_heatmap(report.calendar, calendar_start(now), CALENDAR_WEEKS))
        self.out.print()
        self.out.print(forecast_chart(report.forecast, now))
        if report.forecast_month:
            self.out.print()
            self.out.print(forecast_bars(report.forecast_month, now))
            self.out.print(workload(report.forecast_month, report.desired_retention))
        self.out.print()
        self.out.print(retention_by_month(report.retention, report.desired_retention))
        if report.weakest:
            rows = [(w.card_id, str(w.lapses), percent(w.retrievability)) for w in report.weakest]
            self._ranking("Weakest cards", ("card", "cyan"), ("lapses", "recall now"), rows)
        self.output.note(f"progress in {path}")

    def _ranking(
        self,
        title: str,
        name: tuple[str, str],
        figures: tuple[str, str],
        rows: Sequence[tuple[str, str, str]],
    ) -> None:
        """A titled table, after a blank line: a styled name column, then figures on the right.

        Args:
            title: The table's heading.
            name: The first column's header and style.
            figures: The headers of the right-aligned columns.
            rows: One row per entry, in the order given.
        """
        table = report_table(title)
        table.add_column(name[0], style=name[1])
        for header in figures:
            table.add_column(header, justify="right")
        for row in rows:
            table.add_row(*row)
        self.out.print()
        self.out.print(table)

    def history(self, history: stats.CardHistory, now: datetime) -> None:
        """When the card comes back, then every answer given to it."""
        self.out.print(Text(history.card_id, style="bold cyan"))
        if history.due is not None:
            recall = percent(history.retrievability)
            self.out.print(
                f"next review {relative(history.due - now)} ({when(history.due)})"
                f" · recall now {recall} · lapses {history.lapses}"
            )
        else:
            self.out.print(Text("not scheduled yet", style="dim"))
        if not history.attempts:
            self.out.print(Text("no answers yet", style="dim"))
            return
        shown = history.attempts[-HISTORY_ROWS:]
        total = max(history.attempt_count, len(history.attempts))
        if len(shown) < total:
            earlier = total - len(shown)
            self.out.print(
                Text(
                    f"the last {len(shown):,} answers; {earlier:,} earlier ones:"
                    f" quizzer stats {history.card_id} --json",
                    style="dim",
                )
            )
        rows = [(when(a.at), a.blank, visible(a.given), _mark(a), str(a.try_number)) for a in shown]
        self.out.print(line_table(HISTORY_COLUMNS, rows, self.out), soft_wrap=True)


def _mark(attempt: Attempt) -> Text:
    """✓ or ✗, and whether the learner overrode the judge or asked for the answer."""
    if attempt.overridden:
        return Text("✓ overridden", style="yellow")
    if attempt.correct:
        return Text("✓", style="green")
    return Text("✗ revealed" if attempt.revealed else "✗", style="red")


def forecast_chart(counts: Sequence[int], now: datetime, width: int = 40) -> Table:
    """Cards due on each of the next days, as a bar chart."""
    table = titled_grid("Due in the next 14 days")
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(justify="right")
    top = max(counts) if counts and max(counts) else 1
    for offset, count in enumerate(counts):
        day = (now + timedelta(days=offset)).strftime("%a %d %b")
        label = "today" if offset == 0 else day
        bar = "█" * max(1 if count else 0, round(width * count / top))
        table.add_row(label, Text(bar, style="cyan"), str(count))
    return table
