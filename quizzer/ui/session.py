"""``quizzer quiz`` and ``quizzer review``: a card's blanks, verdicts, rating and summary."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from quizzer.ui.verdict import verdict_text
from quizzer.ui.view import View
from quizzer.ui.widgets import (
    card_heading,
    duration,
    percent,
    prompt_text,
    relative,
    report_table,
    visible,
    when,
)

if TYPE_CHECKING:
    from quizzer.study import events as flow
    from quizzer.study import quiz


class SessionView(View):
    """A quiz's or review's card from its heading to its rating, and the session's summary."""

    def card_started(self, event: flow.CardStarted) -> None:
        """A rule with the card's place in the session, then its heading."""
        from rich.rule import Rule

        self.out.print()
        self.out.print(Rule(f"card {event.number} of {event.total}", style="dim", align="right"))
        self.out.print(card_heading(event.card))

    def judged(self, event: flow.Judged) -> None:
        """The verdict, and what the learner can do next."""
        self.out.print(verdict_text(event.verdict, event.number))
        if not event.counted:
            self.out.print(Text("    no try used; type it again", style="dim"))
        elif not event.verdict.correct and event.tries_left > 0:
            left = event.tries_left
            self.out.print(
                Text(
                    f"    {left} {'try' if left == 1 else 'tries'} left · ? for a hint", style="dim"
                )
            )

    def hint_shown(self, event: flow.HintShown) -> None:
        label = "hint" if event.level == 1 else "stronger hint"
        self.out.print(Text.assemble((f"{label}: ", "bold magenta"), event.text))

    def revealed(self, event: flow.Revealed) -> None:
        lead = "out of tries — " if event.because == "out of tries" else ""
        self.out.print(
            Text.assemble(
                (f"{lead}answer [{event.number}] {event.blank}: ", "bold"),
                (event.answer, "bold green"),
            )
        )
        if len(event.accepted) > 1:
            also = ", ".join(event.accepted[1:])
            self.out.print(Text(f"also accepted: {also}", style="green"), soft_wrap=True)

    def notice(self, event: flow.Notice) -> None:
        self.out.print(Text(event.text, style="dim"))

    def overridden(self, event: flow.Overridden) -> None:
        self.out.print(
            Text.assemble(
                ("counted as right ", "bold yellow"),
                f"[{event.number}] {event.blank}: {visible(event.given)}",
                (" (overridden: quizzer overrides lists it)", "dim"),
            )
        )

    def recap(self, event: flow.Recap) -> None:
        """One line that keeps the card's verdict in view: result, rating, formula."""
        self.out.print(recap_line(event), no_wrap=True, overflow="ellipsis", crop=True)

    def session_summary(self, summary: quiz.SessionSummary) -> None:
        """One row per card shown, then the accuracy and why the session ended."""
        table = report_table("Session summary")
        table.add_column("card", style="cyan", overflow="fold")
        table.add_column("right first time", justify="right")
        table.add_column("tries", justify="right")
        table.add_column("hints", justify="right")
        table.add_column("time", justify="right")
        for total in summary.per_card():
            result = total.first
            first = f"{result.right_first_time}/{len(result.blanks)}"
            style = "green" if result.right_first_time == len(result.blanks) else "yellow"
            note = " (skipped)" if result.skipped else ""
            if any(r.overridden for r in total.showings):
                note += " (overridden)"
            if total.later:
                note += f" (shown {len(total.showings)}×)"
            if not result.skipped and not result.touched and not total.later:
                # On screen when the session stopped, but never answered: not a miss.
                first, style, note = "–", "dim", " (not answered)"
            table.add_row(
                result.card_id + note,
                Text(first, style=style),
                str(total.tries),
                str(total.hints),
                duration(total.ms),
            )
        self.out.print()
        self.out.print(table)
        accuracy = percent(summary.accuracy if summary.attempts else None)
        ended = "" if summary.ended_by == "finished" else f" · stopped: {summary.ended_by}"
        self.out.print(
            Text(
                f"accuracy {accuracy} ({summary.correct} of {summary.attempts} answers"
                f" right){ended}",
                style="bold",
            )
        )

    def scheduled(self, event: flow.Scheduled) -> None:
        """The rating saved and when the card comes back."""
        self.out.print(
            Text.assemble(
                ("rescheduled " if event.replaced else "scheduled ", "dim"),
                (event.grade.label, "bold"),
                (f" · next review {relative(event.due - event.now)} ({when(event.due)})", "dim"),
            )
        )

    def answers_changed(self, event: flow.AnswersChanged) -> None:
        """A note for each blank whose answer changed since the learner last saw it."""
        for change in event.changes:
            self.out.print(
                Text.assemble(
                    ("note: ", "bold yellow"),
                    f"the answer to {event.card_id} [{change.blank}] changed since your last"
                    f" review: it was {change.before}, it is now {change.now}. Your progress"
                    " is kept.",
                )
            )


def recap_line(recap: flow.Recap) -> Text:
    """``✔ 2/2 right · Good · next review in 5 days · <the filled formula>``."""
    result = recap.result
    right = sum(b.correct for b in result.blanks)
    mark = ("✔ ", "bold green") if result.all_correct else ("✗ ", "bold red")
    line = Text.assemble(mark, (f"{right}/{len(result.blanks)} right", "bold"))
    if result.overridden:
        line.append(" (overridden)", style="yellow")
    if recap.grade is not None:
        line.append(" · ")
        line.append(recap.grade.label, style="bold")
    if recap.due is not None:
        line.append(f" · next review {relative(recap.due - recap.now)}", style="dim")
    line.append(" · ")
    line.append_text(prompt_text(recap.card.prompt_parts(), recap.filled))
    return line
