"""An interview drill as a plain object: timed, no hints, one try, then a follow-up.

Each card runs as an interviewer would: the blanks with one try each and no
hints, then one follow-up question from the card. The candidate answers (out
loud or typed), sees the approach, and grades themself; follow-ups are review
items of their own (:class:`FollowUpId`, stored as ``attention#follow-1``), so
the weak ones come back. When time runs out, the current card finishes and
the drill ends.

Like :mod:`quizzer.study.quiz`, nothing here prints or reads input: feed it
lines, render the events it returns. The clock is passed in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from typing import Any

from quizzer.answers.formula import filled_prompt
from quizzer.cards.model import Card
from quizzer.cards.sections import Depth
from quizzer.export.markdown import sections_markdown
from quizzer.progress.stored import due_time
from quizzer.study import defaults
from quizzer.study.events import (
    ApproachShown,
    CardFinished,
    CardStarted,
    DrillCardStarted,
    DrillFinished,
    Event,
    FollowUpAsked,
    FollowUpGraded,
    GradeAsked,
    Notice,
    Prompt,
    RedFlagsShown,
    SessionFinished,
)
from quizzer.study.follow_ups import FollowUpChecks, proposed_grade
from quizzer.study.items import GRADE_KEYS_HELP, EndReason, FollowUpId, Grade, parse_grade
from quizzer.study.quiz import QUIT, Clock, Judge, QuizSession, Recorder
from quizzer.study.results import DrillCard, DrillReport

DEFAULT_MINUTES = defaults.DRILL_MINUTES
DEFAULT_CARDS = defaults.DRILL_CARDS


def follow_up_id(card: Card, index: int) -> FollowUpId:
    """The review item of one of the card's follow-up questions.

    Args:
        card: The card.
        index: The follow-up's position in ``card.follow_ups`` (0-based).

    Returns:
        Its id, stored as ``card#follow-N`` (1-based).
    """
    return FollowUpId(card.id, index)


def pick_follow_up(card: Card, states: Mapping[str, Mapping[str, Any]]) -> int | None:
    """The follow-up to ask: the first never asked, else the one due soonest.

    Args:
        card: The card just answered.
        states: Each review item's stored FSRS state, by id.

    Returns:
        The follow-up's index in ``card.follow_ups``, or None when it has none.
    """
    if not card.follow_ups:
        return None
    keys = [str(follow_up_id(card, i)) for i in range(len(card.follow_ups))]
    unseen = [i for i, key in enumerate(keys) if key not in states]
    if unseen:
        return unseen[0]
    return min(range(len(keys)), key=lambda i: due_time(states[keys[i]]))


def order_for_drill(
    cards: Sequence[Card],
    states: Mapping[str, Mapping[str, Any]],
    lapses: Mapping[str, int],
) -> list[Card]:
    """Order cards for a drill: weakest and most overdue first.

    Args:
        cards: The candidate cards, in the order new ones should keep.
        states: Each review item's stored FSRS state, by id.
        lapses: How often each card was forgotten, by id.

    Returns:
        Seen cards by most lapses, then earliest due; then the cards never seen.
    """
    seen = [c for c in cards if c.id in states]
    unseen = [c for c in cards if c.id not in states]
    seen.sort(key=lambda c: (-lapses.get(c.id, 0), due_time(states[c.id])))
    return [*seen, *unseen]


def cheat_sheet_markdown(report: DrillReport, when: datetime) -> str:
    """What to revise after a drill, as Markdown.

    Args:
        report: The drill's report.
        when: When the drill was taken (UTC), for the heading.

    Returns:
        The filled formula, review sections and failed follow-up of every missed card.
    """
    lines = [f"# Cheat sheet — drill of {when.strftime('%Y-%m-%d %H:%M UTC')}", ""]
    if not report.missed:
        lines += ["Nothing missed in this drill.", ""]
    for item in report.missed:
        card = item.card
        lines += [f"## {card.title}", "", f"`{filled_prompt(card)}`", ""]
        lines += sections_markdown(card, Depth.REVIEW)
        if item.follow_up is not None and item.follow_up_right is False:
            follow = card.follow_ups[item.follow_up.index]
            lines += [
                f"**Follow-up to practise:** {follow.question}",
                "",
                f"> {follow.approach}",
                "",
            ]
    return "\n".join(lines)


# -- the drill --------------------------------------------------------------------------


class Stage(Enum):
    """What the drill's next input line is for."""

    BLANKS = "blanks"
    FOLLOW_UP = "follow-up"
    GRADE = "grade"


@dataclass
class _Step:
    name: Stage = Stage.BLANKS
    follow_up: FollowUpId | None = None
    asked_at: datetime | None = None
    proposed: Grade | None = None  # what the answer's key points earned (Enter takes it)


class DrillSession:
    """A timed mock interview over some cards."""

    def __init__(
        self,
        cards: Sequence[Card],
        judge: Judge,
        clock: Clock,
        *,
        minutes: float = DEFAULT_MINUTES,
        follow_up_states: Mapping[str, Mapping[str, Any]] | None = None,
        record: Recorder | None = None,
    ) -> None:
        if not cards:
            raise ValueError("a drill needs at least one card")
        self.cards = list(cards)
        self.clock = clock
        self.started = clock()
        self.deadline = self.started + timedelta(minutes=minutes)
        self.target = timedelta(minutes=minutes) / len(self.cards)
        self.states = dict(follow_up_states or {})
        self.items = [DrillCard(card) for card in self.cards]
        self.index = 0
        self._step = _Step()
        self.finished = False
        self.report: DrillReport | None = None
        self._card_started = self.started
        self._checks = FollowUpChecks()
        self._quiz = QuizSession(self.cards, judge, clock, tries=1, record=record, hints=False)

    @property
    def current(self) -> DrillCard:
        return self.items[self.index]

    @property
    def stage(self) -> Stage:
        """What the next input line is for."""
        return self._step.name

    @property
    def between_cards(self) -> bool:
        """Never: the drill moves to the next card itself, after the follow-up."""
        return False

    def remaining(self, now: datetime | None = None) -> timedelta:
        """The time left in the drill.

        Args:
            now: The time to measure at (default: the session's clock).

        Returns:
            The time left, never negative.
        """
        return max(timedelta(0), self.deadline - (now or self.clock()))

    def prompt(self) -> Prompt:
        """What the next line answers.

        Returns:
            The blank asked, the follow-up question, or the self-grade.
        """
        if self._step.name is Stage.BLANKS or self._step.follow_up is None:
            return self._quiz.asking()
        if self._step.name is Stage.FOLLOW_UP:
            follow = self.current.card.follow_ups[self._step.follow_up.index]
            item = self._step.follow_up
            return FollowUpAsked(card=self.current.card, item=item, follow_up=follow)
        return GradeAsked(self._step.follow_up, proposed=self._step.proposed)

    def start(self) -> list[Event]:
        """Begin the drill.

        Returns:
            The events of the first card; called once, before any :meth:`answer`.
        """
        return self._translate(self._quiz.start())

    def answer(self, line: str) -> list[Event]:
        """Take one line: an answer to a blank, the follow-up answer, or a grade.

        Args:
            line: The text typed; ``/quit`` ends the drill.

        Returns:
            What happened, in order (nothing once the drill is over).
        """
        if self.finished:
            return []
        if line.strip() == QUIT:
            return self.stop("quit")
        if self._step.name is Stage.BLANKS:
            return self._translate(self._quiz.answer(line))
        if self._step.name is Stage.FOLLOW_UP:
            return self._follow_up_answered(line)
        return self._graded(line)

    def override(self) -> list[Event]:
        """Count the last rejected blank as right (before the next card begins).

        Returns:
            What happened (nothing once the drill is over).
        """
        if self.finished:
            return []
        return self._translate(self._quiz.override())

    def come_back(self, card: Card, due: datetime) -> None:
        """Nothing: a drill is a timed interview, its cards asked once each."""

    def drop_coming_back(self, card_id: str) -> None:
        """Nothing: no drill card comes back (see :meth:`come_back`)."""

    def set_aside(self) -> list[Event]:
        """Nothing: the drill goes on, and the loop flags the card (``/suspend``, ``/bury``).

        Returns:
            No events.
        """
        return []

    def next_card(self) -> list[Event]:
        """Nothing: the drill moves on by itself (see :attr:`between_cards`).

        Returns:
            No events.
        """
        return []

    def stop(self, reason: EndReason) -> list[Event]:
        """End the drill now (quit, end of input, Ctrl-C) with its report.

        Args:
            reason: Why it ended.

        Returns:
            The closing events, the report last (nothing if already over).
        """
        if self.finished:
            return []
        return self._finish(reason)

    # -- steps ----------------------------------------------------------------

    def _translate(self, events: list[Event]) -> list[Event]:
        """Pass the quiz's events on, stepping in at the end of each card."""
        out: list[Event] = []
        for event in events:
            if isinstance(event, CardFinished):
                self.current.result = event.result
                out.append(event)
                out.extend(self._after_blanks())
            elif isinstance(event, CardStarted):
                out.append(self._card_header())
            elif not isinstance(event, SessionFinished):
                out.append(event)
        return out

    def _card_header(self) -> DrillCardStarted:
        now = self.clock()
        self._card_started = now
        return DrillCardStarted(
            card=self.current.card,
            number=self.index + 1,
            total=len(self.cards),
            remaining=self.remaining(now),
            target=self.target,
        )

    def _after_blanks(self) -> list[Event]:
        card = self.current.card
        index = pick_follow_up(card, self.states)
        if index is None or (self.current.result is not None and self.current.result.skipped):
            return self._card_done()
        item = follow_up_id(card, index)
        self.current.follow_up = item
        self._step = _Step(Stage.FOLLOW_UP, item, self.clock())
        return [FollowUpAsked(card=card, item=item, follow_up=card.follow_ups[index])]

    def _follow_up_answered(self, line: str) -> list[Event]:
        item = self._step.follow_up
        assert item is not None  # the follow-up stage always names its item
        self._step.name = Stage.GRADE
        card = self.current.card
        check = self._checks.check(card, item.index, line)
        self._step.proposed = proposed_grade(check) if check is not None else None
        approach = card.follow_ups[item.index].approach
        return [ApproachShown(item=item, approach=approach, answered=line.strip(), check=check)]

    def _graded(self, line: str) -> list[Event]:
        grade = parse_grade(line)
        if grade is None and not line.strip():
            grade = self._step.proposed  # Enter takes the grade the key points earned
        item = self._step.follow_up
        assert item is not None  # the grade stage always names its item
        if grade is None:
            return [Notice(f"Grade yourself: {GRADE_KEYS_HELP}.")]
        now = self.clock()
        started = self._step.asked_at or now
        self.current.grade = grade
        ms = max(0, int((now - started).total_seconds() * 1000))
        return [FollowUpGraded(item=item, grade=grade, ms=ms), *self._card_done()]

    def _card_done(self) -> list[Event]:
        now = self.clock()
        self.current.ms = max(0, int((now - self._card_started).total_seconds() * 1000))
        card = self.current.card
        events: list[Event] = [RedFlagsShown(card)] if card.red_flags else []
        self._step = _Step()
        if now >= self.deadline:
            return events + self._finish("time")
        if self.index + 1 >= len(self.cards):
            return events + self._finish("finished")
        self.index += 1
        return events + self._translate(self._quiz.next_card())

    def _finish(self, reason: EndReason) -> list[Event]:
        self._quiz.stop(reason)
        self.finished = True
        reached = self.index + 1
        if self._step.name is Stage.BLANKS and self.current.result is None:
            partial = self._quiz.results[-1] if self._quiz.results else None
            if partial is None or partial.card_id != self.current.card.id or not partial.touched:
                reached -= 1  # stopped before a word of it: neither right nor missed
                partial = None
            self.current.result = partial
        now = self.clock()
        if reached > self.index and not self.current.ms:
            # Stopped inside a card that is reported (at a blank, a follow-up or the
            # grade): charge it the time it took so far, not the 0 it would show.
            self.current.ms = max(0, int((now - self._card_started).total_seconds() * 1000))
        elapsed = int((now - self.started).total_seconds() * 1000)
        self.report = DrillReport(
            cards=self.items[:reached],
            target_ms=int(self.target.total_seconds() * 1000),
            ended_by=reason,
            elapsed_ms=elapsed,
        )
        return [DrillFinished(self.report)]


__all__ = [
    "DEFAULT_CARDS",
    "DEFAULT_MINUTES",
    "ApproachShown",
    "DrillCard",
    "DrillCardStarted",
    "DrillFinished",
    "DrillReport",
    "DrillSession",
    "FollowUpAsked",
    "FollowUpGraded",
    "FollowUpId",
    "RedFlagsShown",
    "Stage",
    "cheat_sheet_markdown",
    "follow_up_id",
    "order_for_drill",
    "pick_follow_up",
]
