"""An interview drill as a plain object: timed, no hints, one try, then a follow-up.

Each card runs as an interviewer would: the blanks with one try each and no
hints, then one follow-up question from the card. The candidate answers (out
loud or typed), sees the approach, and grades themself; follow-ups are review
items of their own (``attention#follow-1``), so the weak ones come back.
When time runs out, the current card finishes and the drill ends.

Like :mod:`quizzer.study.quiz`, nothing here prints or reads input: feed it
lines, render the events it returns. The clock is passed in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from fsrs import Rating

from quizzer.cards.formula import filled_prompt
from quizzer.cards.model import Card, FollowUp
from quizzer.cards.sections import Depth
from quizzer.export.markdown import sections_markdown
from quizzer.progress.schedule import due_at
from quizzer.study.quiz import (
    QUIT,
    CardFinished,
    CardResult,
    CardStarted,
    Clock,
    Event,
    Judge,
    Notice,
    QuizSession,
    Recorder,
    SessionFinished,
)

DEFAULT_MINUTES = 20
DEFAULT_CARDS = 6

GRADES = {
    "y": Rating.Good, "yes": Rating.Good, "n": Rating.Again, "no": Rating.Again,
    "1": Rating.Again, "2": Rating.Hard, "3": Rating.Good, "4": Rating.Easy,
}  # fmt: skip


def follow_up_id(card: Card, index: int) -> str:
    return f"{card.id}#follow-{index + 1}"


def pick_follow_up(card: Card, states: Mapping[str, Mapping[str, Any]]) -> int | None:
    """The follow-up to ask: the first never asked, else the one due soonest."""
    if not card.follow_ups:
        return None
    unseen = [i for i in range(len(card.follow_ups)) if follow_up_id(card, i) not in states]
    if unseen:
        return unseen[0]
    return min(range(len(card.follow_ups)), key=lambda i: due_at(states[follow_up_id(card, i)]))


def order_for_drill(
    cards: Sequence[Card],
    states: Mapping[str, Mapping[str, Any]],
    lapses: Mapping[str, int],
) -> list[Card]:
    """Weakest and most overdue first; cards never seen keep their order after them."""
    seen = [c for c in cards if c.id in states]
    unseen = [c for c in cards if c.id not in states]
    seen.sort(key=lambda c: (-lapses.get(c.id, 0), due_at(states[c.id])))
    return [*seen, *unseen]


# -- events ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DrillCardStarted:
    card: Card
    number: int
    total: int
    remaining: timedelta
    target: timedelta


@dataclass(frozen=True)
class FollowUpAsked:
    card: Card
    item_id: str
    follow_up: FollowUp


@dataclass(frozen=True)
class ApproachShown:
    item_id: str
    approach: str
    answered: str


@dataclass(frozen=True)
class FollowUpGraded:
    item_id: str
    rating: Rating
    ms: int


@dataclass(frozen=True)
class RedFlagsShown:
    card: Card


@dataclass(frozen=True)
class DrillFinished:
    report: DrillReport


# -- the report -----------------------------------------------------------------------


@dataclass
class DrillCard:
    """How one card of the drill went."""

    card: Card
    result: CardResult | None = None
    follow_up: str | None = None
    grade: Rating | None = None
    ms: int = 0

    @property
    def blanks_right(self) -> int:
        return sum(b.correct for b in self.result.blanks) if self.result else 0

    @property
    def follow_up_right(self) -> bool | None:
        if self.grade is None:
            return None
        return self.grade in (Rating.Good, Rating.Easy)

    @property
    def missed(self) -> bool:
        blanks_missed = self.result is None or not self.result.all_correct
        return blanks_missed or self.follow_up_right is False


@dataclass
class DrillReport:
    cards: list[DrillCard]
    target_ms: int
    ended_by: str
    elapsed_ms: int

    @property
    def finished_cards(self) -> list[DrillCard]:
        return [c for c in self.cards if c.result is not None and c.result.finished]

    @property
    def cards_right(self) -> int:
        return sum(1 for c in self.finished_cards if c.result and c.result.all_correct)

    @property
    def follow_ups_right(self) -> tuple[int, int]:
        graded = [c for c in self.cards if c.grade is not None]
        return sum(1 for c in graded if c.follow_up_right), len(graded)

    @property
    def missed(self) -> list[DrillCard]:
        return [c for c in self.finished_cards if c.missed]

    def weakest_topics(self, top: int = 3) -> list[tuple[str, int]]:
        misses = Counter(tag for c in self.missed for tag in c.card.tags)
        return misses.most_common(top)


def cheat_sheet_markdown(report: DrillReport, when: datetime) -> str:
    """What to revise: formula, bullets and red flags of every missed card."""
    lines = [f"# Cheat sheet — drill of {when.strftime('%Y-%m-%d %H:%M UTC')}", ""]
    if not report.missed:
        lines += ["Nothing missed in this drill.", ""]
    for item in report.missed:
        card = item.card
        lines += [f"## {card.title}", "", f"`{filled_prompt(card)}`", ""]
        lines += sections_markdown(card, Depth.REVIEW)
        if item.follow_up is not None and item.follow_up_right is False:
            index = int(item.follow_up.rsplit("-", 1)[1]) - 1
            follow = card.follow_ups[index]
            lines += [
                f"**Follow-up to practise:** {follow.question}",
                "",
                f"> {follow.approach}",
                "",
            ]
    return "\n".join(lines)


# -- the drill --------------------------------------------------------------------------


@dataclass
class _Stage:
    name: str = "blanks"  # blanks, follow-up, grade, done
    follow_index: int | None = None
    asked_at: datetime | None = None
    answered: str = ""


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
        self.stage = _Stage()
        self.finished = False
        self.report: DrillReport | None = None
        self._card_started = self.started
        self._quiz = QuizSession(self.cards, judge, clock, tries=1, record=record, hints=False)

    @property
    def current(self) -> DrillCard:
        return self.items[self.index]

    def remaining(self, now: datetime | None = None) -> timedelta:
        return max(timedelta(0), self.deadline - (now or self.clock()))

    def prompt_state(self) -> tuple[str, Any]:
        """What the input line is for: ("blank", BlankAsked), ("follow-up", id) or ("grade", id)."""
        if self.stage.name == "blanks":
            return "blank", self._quiz.asking()
        item = self.current.follow_up or ""
        return ("follow-up" if self.stage.name == "follow-up" else "grade"), item

    def start(self) -> list[Any]:
        events = self._quiz.start()
        return self._translate(events)

    def answer(self, line: str) -> list[Any]:
        if self.finished:
            return []
        if line.strip() == QUIT:
            return self.stop("quit")
        if self.stage.name == "blanks":
            return self._translate(self._quiz.answer(line))
        if self.stage.name == "follow-up":
            return self._follow_up_answered(line)
        return self._graded(line)

    def stop(self, reason: str) -> list[Any]:
        if self.finished:
            return []
        if self.stage.name == "blanks":
            self._quiz.stop("quit")
        return self._finish(reason)

    # -- steps ----------------------------------------------------------------

    def _translate(self, events: list[Event]) -> list[Any]:
        """Pass the quiz's events on, stepping in at the end of each card."""
        out: list[Any] = []
        for event in events:
            if isinstance(event, CardFinished):
                self.current.result = event.result
                out.append(event)
                out.extend(self._after_blanks())
                return out  # the next card starts only after the follow-up
            if isinstance(event, SessionFinished):
                continue
            if isinstance(event, CardStarted):
                out.append(self._card_header())
                continue
            out.append(event)
        return out

    def _card_header(self) -> DrillCardStarted:
        now = self.clock()
        self._card_started = now
        return DrillCardStarted(
            self.current.card, self.index + 1, len(self.cards), self.remaining(now), self.target
        )

    def _after_blanks(self) -> list[Any]:
        card = self.current.card
        index = pick_follow_up(card, self.states)
        if index is None or (self.current.result is not None and self.current.result.skipped):
            return self._card_done()
        item_id = follow_up_id(card, index)
        self.current.follow_up = item_id
        self.stage = _Stage("follow-up", index, self.clock())
        return [FollowUpAsked(card, item_id, card.follow_ups[index])]

    def _follow_up_answered(self, line: str) -> list[Any]:
        card = self.current.card
        assert self.stage.follow_index is not None
        follow = card.follow_ups[self.stage.follow_index]
        self.stage.name = "grade"
        self.stage.answered = line.strip()
        return [ApproachShown(self.current.follow_up or "", follow.approach, line.strip())]

    def _graded(self, line: str) -> list[Any]:
        rating = GRADES.get(line.strip().lower())
        if rating is None:
            return [Notice("Grade yourself: y or n, or 1 Again, 2 Hard, 3 Good, 4 Easy.")]
        now = self.clock()
        started = self.stage.asked_at or now
        self.current.grade = rating
        ms = max(0, int((now - started).total_seconds() * 1000))
        events: list[Any] = [FollowUpGraded(self.current.follow_up or "", rating, ms)]
        return events + self._card_done()

    def _card_done(self) -> list[Any]:
        now = self.clock()
        self.current.ms = max(0, int((now - self._card_started).total_seconds() * 1000))
        card = self.current.card
        events: list[Any] = [RedFlagsShown(card)] if card.red_flags else []
        self.stage = _Stage()
        if now >= self.deadline:
            return events + self._finish("time")
        if self.index + 1 >= len(self.cards):
            return events + self._finish("finished")
        self.index += 1
        # The quiz already moved on to the next card; show its start now.
        return [*events, self._card_header(), self._quiz.asking()]

    def _finish(self, reason: str) -> list[Any]:
        self.finished = True
        reached = self.index + 1
        if self.stage.name == "blanks" and self.current.result is None:
            partial = self._quiz.results[-1] if self._quiz.results else None
            if partial is None or not partial.touched:
                reached -= 1  # stopped before a word of it: neither right nor missed
            self.current.result = partial
        elapsed = int((self.clock() - self.started).total_seconds() * 1000)
        self.report = DrillReport(
            self.items[:reached], int(self.target.total_seconds() * 1000), reason, elapsed
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
    "RedFlagsShown",
    "cheat_sheet_markdown",
    "follow_up_id",
    "order_for_drill",
    "pick_follow_up",
]
