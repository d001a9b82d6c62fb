"""``quizzer stats``: the progress report and one card's history."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from quizzer.ui.console import Output
from quizzer.ui.widgets import counted, relative, report_table, titled_grid, visible, when

if TYPE_CHECKING:
    from quizzer.progress import stats


class StatsScreen(Output):
    """The screens of ``stats`` and ``stats CARD``."""

    def report(self, report: stats.Report, path: str, now: datetime) -> None:
        """Totals, accuracy by tag, the forecast and the weakest cards."""
        totals = Table(show_header=False, box=None, pad_edge=False)
        totals.add_column(style="bold")
        totals.add_column(justify="right")
        accuracy = f"{report.accuracy:.0%}" if report.attempts else "–"
        for label, value in (
            ("answers judged", str(report.attempts)),
            ("accuracy", accuracy),
            ("cards seen", str(report.cards_seen)),
            ("reviews", str(report.reviews)),
            ("sessions", str(report.sessions)),
            ("streak", counted(report.streak_days, "day")),
            ("due now", str(report.due_now)),
        ):
            totals.add_row(label, value)
        self.out.print(totals)
        if report.tags:
            table = report_table("By tag (weakest first)")
            table.add_column("tag", style="green")
            table.add_column("answers", justify="right")
            table.add_column("accuracy", justify="right")
            for tag in report.tags:
                table.add_row(tag.tag, str(tag.attempts), f"{tag.accuracy:.0%}")
            self.out.print()
            self.out.print(table)
        self.out.print()
        self.out.print(forecast_chart(report.forecast, now))
        if report.weakest:
            table = report_table("Weakest cards")
            table.add_column("card", style="cyan")
            table.add_column("lapses", justify="right")
            table.add_column("recall now", justify="right")
            for weak in report.weakest:
                recall = "–" if weak.retrievability is None else f"{weak.retrievability:.0%}"
                table.add_row(weak.card_id, str(weak.lapses), recall)
            self.out.print()
            self.out.print(table)
        self.note(f"progress in {path}")

    def history(self, history: stats.CardHistory, now: datetime) -> None:
        """When the card comes back, then every answer given to it."""
        self.out.print(Text(history.card_id, style="bold cyan"))
        if history.due is not None:
            recall = f"{history.retrievability:.0%}" if history.retrievability is not None else "–"
            self.out.print(
                f"next review {relative(history.due - now)} ({when(history.due)})"
                f" · recall now {recall} · lapses {history.lapses}"
            )
        else:
            self.out.print(Text("not scheduled yet", style="dim"))
        if not history.attempts:
            self.out.print(Text("no answers yet", style="dim"))
            return
        table = Table(show_edge=False, pad_edge=False, header_style="bold")
        table.add_column("when")
        table.add_column("blank")
        table.add_column("answer", overflow="fold")
        table.add_column("", justify="center")
        table.add_column("try", justify="right")
        for attempt in history.attempts:
            table.add_row(
                when(attempt.at),
                attempt.blank,
                visible(attempt.given),
                Text("✓", style="green") if attempt.correct else Text("✗", style="red"),
                str(attempt.try_number),
            )
        self.out.print(table)


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
