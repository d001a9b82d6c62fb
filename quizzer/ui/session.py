"""``quizzer quiz`` and ``quizzer review``: a session's events, its prompts and summary."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.padding import Padding
from rich.text import Text

from quizzer.cards.sections import BY_FIELD, Depth, sections_to
from quizzer.ui.card import section_style, section_view
from quizzer.ui.console import Output
from quizzer.ui.verdict import verdict_text
from quizzer.ui.widgets import (
    card_heading,
    duration,
    filled_line,
    markdown,
    relative,
    report_table,
    when,
)

if TYPE_CHECKING:
    from datetime import datetime

    from fsrs import Rating

    from quizzer.cards.model import Card
    from quizzer.study import quiz as flow
    from quizzer.study import recording

#: Asked before each follow-up's approach is shown; False when input has ended.
Wait = Callable[[str], bool]

# TODO(loop): rating keys are input parsing and belong in quizzer/study/ with drill.GRADES
# (one set of keys for quiz and drill); parse_rating below goes when the loop moves them.
_RATING_KEYS = {
    "1": 1, "2": 2, "3": 3, "4": 4,
    "again": 1, "hard": 2, "good": 3, "easy": 4,
    "a": 1, "h": 2, "g": 3, "e": 4,
}  # fmt: skip


class SessionScreen(Output):
    """The screens of ``quiz`` and ``review``."""

    def blank_prompt(self, asked: flow.BlankAsked) -> str:
        """The input prompt for a blank: its number, name and which try this is."""
        tries = (
            f" (try {asked.try_number} of {asked.tries_allowed})" if asked.try_number > 1 else ""
        )
        return f"[{asked.number}] {asked.blank}{tries} › "

    def session_event(
        self,
        event: flow.Event,
        *,
        interactive: bool,
        brief: bool = False,
        wait: Wait | None = None,
    ) -> None:
        """Show one thing that happened in a session."""
        from quizzer.study import quiz as flow

        if isinstance(event, flow.CardFinished):
            # The only event whose look depends on how the session runs.
            self.card_finished(event, brief=brief, wait=wait if interactive else None)
            return
        show = _session_views().get(type(event))
        if show is not None:
            show(self, event)

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

    def notice(self, event: flow.Notice) -> None:
        self.out.print(Text(event.text, style="dim"))

    def card_finished(self, event: flow.CardFinished, *, brief: bool, wait: Wait | None) -> None:
        """The filled formula, then what to read while it is fresh.

        ``brief`` keeps what fits on the way to an interview (red flags, bullets).
        """
        card = event.card
        self.out.print(filled_line(card, event.filled))
        if event.result.skipped:
            self.out.print(Text("skipped", style="dim"))
        for section in sections_to(Depth.REVIEW if brief else Depth.STUDY):
            if section.kind == "follow_ups" and wait is not None and card.follow_ups:
                self.follow_ups_one_by_one(card, wait)
                continue
            view = section_view(card, section)
            if view is not None:
                self.out.print(view)

    def follow_ups_one_by_one(self, card: Card, wait: Wait) -> None:
        """Each question first; Enter reveals its approach."""
        from rich.rule import Rule

        follow_ups = BY_FIELD["follow_ups"]
        self.out.print(Rule(follow_ups.title, style=section_style(follow_ups), align="left"))
        asking: Wait | None = wait
        for number, follow in enumerate(card.follow_ups, start=1):
            self.out.print(
                Text.assemble((f"Q{number}. ", "bold magenta"), (follow.question, "bold"))
            )
            if asking is not None and not asking("    try it first · Enter shows the approach "):
                asking = None  # input ended: show the rest without waiting
            self.out.print(Padding(markdown(follow.approach), (0, 0, 1, 4)))

    def session_summary(self, summary: flow.SessionSummary) -> None:
        """One row per card shown, then the accuracy and why the session ended."""
        table = report_table("Session summary")
        table.add_column("card", style="cyan", overflow="fold")
        table.add_column("right first time", justify="right")
        table.add_column("tries", justify="right")
        table.add_column("hints", justify="right")
        table.add_column("time", justify="right")
        for result in summary.cards:
            first = f"{result.right_first_time}/{len(result.blanks)}"
            style = "green" if result.right_first_time == len(result.blanks) else "yellow"
            note = " (skipped)" if result.skipped else ""
            if not result.skipped and not result.touched:
                # On screen when the session stopped, but never answered: not a miss.
                first, style, note = "–", "dim", " (not answered)"
            table.add_row(
                result.card_id + note,
                Text(first, style=style),
                str(result.tries),
                str(result.hints),
                duration(result.ms),
            )
        self.out.print()
        self.out.print(table)
        accuracy = f"{summary.accuracy:.0%}" if summary.attempts else "–"
        ended = "" if summary.ended_by == "finished" else f" · stopped: {summary.ended_by}"
        self.out.print(
            Text(
                f"accuracy {accuracy} ({summary.correct} of {summary.attempts} answers"
                f" right){ended}",
                style="bold",
            )
        )

    def session_finished(self, event: flow.SessionFinished) -> None:
        self.session_summary(event.summary)

    # -- scheduling ---------------------------------------------------------------

    def rating_prompt(self, rating: Rating, due: datetime, now: datetime) -> str:
        """The prompt that proposes a rating and lets the learner change it."""
        return (
            f"rated {rating.name} · next review {relative(due - now)}"
            " · 1 Again 2 Hard 3 Good 4 Easy to change, Enter keeps › "
        )

    def parse_rating(self, text: str) -> Rating | None:
        """The rating a key names (1-4 or its word), or None to keep the proposed one."""
        from fsrs import Rating

        value = _RATING_KEYS.get(text.strip().lower())
        return Rating(value) if value else None

    def scheduled(self, rating: Rating, due: datetime, now: datetime) -> None:
        """The rating saved and when the card comes back."""
        self.out.print(
            Text.assemble(
                ("scheduled ", "dim"),
                (rating.name, "bold"),
                (f" · next review {relative(due - now)} ({when(due)})", "dim"),
            )
        )

    def answer_changes(self, card_id: str, changes: Sequence[recording.AnswerChange]) -> None:
        """A note for each blank whose answer changed since the learner last saw it."""
        for change in changes:
            self.out.print(
                Text.assemble(
                    ("note: ", "bold yellow"),
                    f"the answer to {card_id} [{change.blank}] changed since your last review:"
                    f" it was {change.before}, it is now {change.now}. Your progress is kept.",
                )
            )

    def nothing_due(self, next_due: tuple[str, datetime] | None, now: datetime) -> None:
        """What ``review`` says when no card is due, and when the next one is."""
        if next_due is None:
            self.out.print(
                "Nothing to review: no card is scheduled and no new card is left for today."
            )
        else:
            card_id, due = next_due
            self.out.print(f"Nothing due. Next: {card_id}, {relative(due - now)} ({when(due)}).")
        self.out.print(Text("To practise anyway: quizzer quiz", style="dim"))

    def review_plan(self, due: int, new: int) -> None:
        """How many cards ``review`` is about to show."""
        self.out.print(Text(f"Review: {due} due, {new} new", style="bold"))


@functools.cache
def _session_views() -> dict[type, Callable[[SessionScreen, flow.Event], None]]:
    """Which method shows each kind of event (CardFinished takes options: see session_event)."""
    from quizzer.study import quiz as flow

    def ignore(screen: SessionScreen, event: flow.Event) -> None:
        """The input prompt asks; piped verdict lines name their blank."""

    views: dict[type, Callable[..., None]] = {
        flow.CardStarted: SessionScreen.card_started,
        flow.BlankAsked: ignore,
        flow.Judged: SessionScreen.judged,
        flow.HintShown: SessionScreen.hint_shown,
        flow.Revealed: SessionScreen.revealed,
        flow.Notice: SessionScreen.notice,
        flow.SessionFinished: SessionScreen.session_finished,
    }
    return views
