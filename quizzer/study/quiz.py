"""A quiz session as a plain object: feed it a line, get back what happened.

The session never prints and never reads input. The command line (or a
test) calls :meth:`QuizSession.answer` with each line the learner typed and
renders the events it returns. Judging, the clock and saving attempts come
in as functions, so a whole session runs in a test without a terminal, a
database or SymPy.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Literal, Protocol

from quizzer.cards.model import Card
from quizzer.progress.store import Attempt

if TYPE_CHECKING:
    from quizzer.answers import Verdict

DEFAULT_TRIES = 3
HINT, REVEAL, SKIP, QUIT = "?", "!", "/skip", "/quit"
KEYS_HELP = "? hint (twice: stronger) · ! reveal · /skip · /quit or Ctrl-D to stop"


class Judge(Protocol):
    def __call__(self, card: Card, blank: str, text: str) -> Verdict: ...


Clock = Callable[[], datetime]
Recorder = Callable[[Attempt], None]
EndReason = Literal["finished", "quit", "end of input", "interrupted", "time"]


# -- results ----------------------------------------------------------------------


@dataclass
class BlankResult:
    """How one blank went."""

    name: str
    correct: bool = False
    tries: int = 0  # judged answers
    hints: int = 0
    revealed: bool = False

    @property
    def right_first_time(self) -> bool:
        return self.correct and self.tries == 1 and self.hints == 0


@dataclass
class CardResult:
    """How one card went."""

    card_id: str
    title: str
    blanks: list[BlankResult]
    ms: int = 0
    skipped: bool = False
    finished: bool = False

    @property
    def right_first_time(self) -> int:
        return sum(b.right_first_time for b in self.blanks)

    @property
    def tries(self) -> int:
        return sum(b.tries for b in self.blanks)

    @property
    def hints(self) -> int:
        return sum(b.hints for b in self.blanks)

    @property
    def all_correct(self) -> bool:
        return all(b.correct for b in self.blanks)

    @property
    def touched(self) -> bool:
        """Whether any blank was answered, hinted or revealed (a card left untouched
        is neither right nor missed)."""
        return any(b.tries or b.hints or b.revealed for b in self.blanks)


@dataclass
class SessionSummary:
    cards: list[CardResult]
    attempts: int
    correct: int
    ended_by: EndReason

    @property
    def accuracy(self) -> float:
        return self.correct / self.attempts if self.attempts else 0.0


# -- events -------------------------------------------------------------------------


@dataclass(frozen=True)
class CardStarted:
    card: Card
    number: int
    total: int


@dataclass(frozen=True)
class BlankAsked:
    card: Card
    blank: str
    number: int  # 1-based position of the blank in the card
    try_number: int
    tries_allowed: int


@dataclass(frozen=True)
class Judged:
    verdict: Verdict
    number: int
    counted: bool  # unreadable answers do not use up a try
    tries_left: int


@dataclass(frozen=True)
class HintShown:
    blank: str
    text: str
    level: int


@dataclass(frozen=True)
class Revealed:
    blank: str
    number: int
    answer: str
    because: Literal["asked", "out of tries"]
    #: Every accepted form, the answer first (word blanks list their phrasings).
    accepted: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class CardFinished:
    card: Card
    result: CardResult
    filled: dict[str, str]


@dataclass(frozen=True)
class Notice:
    text: str


@dataclass(frozen=True)
class SessionFinished:
    summary: SessionSummary


Event = (
    CardStarted
    | BlankAsked
    | Judged
    | HintShown
    | Revealed
    | CardFinished
    | Notice
    | SessionFinished
)


# -- hints --------------------------------------------------------------------------


def masked_answer(card: Card, blank: str) -> str:
    """The answer's shape with every symbol hidden: ``sqrt(d_k)`` gives ``sqrt(□)``."""
    answer = card.blanks[blank].answer.strip()
    names = sorted(
        {*card.symbols, *(a for s in card.symbols.values() for a in s.aliases)},
        key=len,
        reverse=True,
    )
    if names:
        pattern = r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, names)) + r")(?![A-Za-z0-9_])"
        masked = re.sub(pattern, "□", answer)
        if masked not in (answer, "□"):
            return masked
    if len(answer) == 1:
        return "a single symbol"
    # A lone symbol or a phrase: its first letter and its length.
    return answer[0] + "".join(" " if c == " " else "_" for c in answer[1:])


# -- the session ----------------------------------------------------------------------


@dataclass
class _Position:
    card_index: int = 0
    blank_index: int = 0
    asked_at: datetime | None = None
    card_started_at: datetime | None = None


class QuizSession:
    """Cards asked one blank at a time, with tries, hints, reveals and skips."""

    def __init__(
        self,
        cards: Sequence[Card],
        judge: Judge,
        clock: Clock,
        *,
        tries: int = DEFAULT_TRIES,
        record: Recorder | None = None,
        hints: bool = True,
    ) -> None:
        if not cards:
            raise ValueError("a session needs at least one card")
        if tries < 1:
            raise ValueError("tries must be at least 1")
        self.cards = list(cards)
        self.judge = judge
        self.clock = clock
        self.tries = tries
        self.record = record or (lambda attempt: None)
        self.hints = hints
        self.results: list[CardResult] = []
        self.attempts = 0
        self.correct = 0
        self.finished = False
        self._at = _Position()

    # -- state ------------------------------------------------------------------

    @property
    def card(self) -> Card:
        return self.cards[self._at.card_index]

    @property
    def blank(self) -> str:
        return list(self.card.blanks)[self._at.blank_index]

    @property
    def result(self) -> CardResult:
        return self.results[-1]

    @property
    def blank_result(self) -> BlankResult:
        return self.result.blanks[self._at.blank_index]

    def asking(self) -> BlankAsked:
        """The blank being asked now (for the input prompt)."""
        return BlankAsked(
            self.card,
            self.blank,
            self._at.blank_index + 1,
            self.blank_result.tries + 1,
            self.tries,
        )

    # -- driving ----------------------------------------------------------------

    def start(self) -> list[Event]:
        """Events for the first card: call once, before any :meth:`answer`."""
        return self._begin_card()

    def answer(self, line: str) -> list[Event]:
        """Handle one line typed by the learner."""
        if self.finished:
            return []
        text = line.strip()
        if text == QUIT:
            return self.stop("quit")
        if text == SKIP:
            self.result.skipped = True
            return self._finish_card(self.clock())
        if text == HINT:
            return self._hint()
        if text == REVEAL:
            return self._reveal("asked", self.clock())
        if not text:
            return [Notice(f"Type an answer. {KEYS_HELP}")]
        return self._judge(line)

    def stop(self, reason: EndReason) -> list[Event]:
        """End the session now (quit, end of input, Ctrl-C, time up)."""
        if self.finished:
            return []
        if self.results and not self.result.finished:
            self._close_card_result(self.clock())
        return self._finish(reason)

    # -- steps ------------------------------------------------------------------

    def _begin_card(self) -> list[Event]:
        now = self.clock()
        self._at.blank_index = 0
        self._at.card_started_at = now
        self._at.asked_at = now
        self.results.append(
            CardResult(self.card.id, self.card.title, [BlankResult(n) for n in self.card.blanks])
        )
        return [CardStarted(self.card, self._at.card_index + 1, len(self.cards)), self.asking()]

    def _judge(self, line: str) -> list[Event]:
        verdict = self.judge(self.card, self.blank, line)
        now = self.clock()
        number = self._at.blank_index + 1
        if verdict.status in ("unreadable", "too_large", "unanswered"):
            left = self.tries - self.blank_result.tries
            return [Judged(verdict, number, False, left), self.asking()]
        blank = self.blank_result
        blank.tries += 1
        self.attempts += 1
        self.correct += verdict.correct
        asked_at = self._at.asked_at or now
        self.record(
            Attempt(
                card_id=self.card.id,
                blank=self.blank,
                given=line.strip(),
                correct=verdict.correct,
                try_number=blank.tries,
                hints=blank.hints,
                ms=max(0, int((now - asked_at).total_seconds() * 1000)),
                at=now,
            )
        )
        self._at.asked_at = now
        events: list[Event] = [Judged(verdict, number, True, self.tries - blank.tries)]
        if verdict.correct:
            blank.correct = True
            return events + self._next_blank(now)
        if blank.tries >= self.tries:
            return events + self._reveal("out of tries", now)
        return [*events, self.asking()]

    def _hint(self) -> list[Event]:
        if not self.hints:
            return [Notice("No hints here: answer as you would in the interview.")]
        blank = self.blank_result
        spec = self.card.blanks[self.blank]
        if blank.hints == 0 and spec.hint:
            blank.hints += 1
            return [HintShown(self.blank, spec.hint, 1)]
        if blank.hints <= 1:
            blank.hints = 2
            return [
                HintShown(
                    self.blank, f"the answer looks like: {masked_answer(self.card, self.blank)}", 2
                )
            ]
        return [Notice("No more hints for this blank: ! reveals the answer.")]

    def _reveal(self, because: Literal["asked", "out of tries"], now: datetime) -> list[Event]:
        blank = self.blank_result
        blank.revealed = True
        spec = self.card.blanks[self.blank]
        revealed = Revealed(
            self.blank, self._at.blank_index + 1, spec.answer, because, tuple(spec.accepted_forms())
        )
        return [revealed, *self._next_blank(now)]

    def _next_blank(self, now: datetime) -> list[Event]:
        if self._at.blank_index + 1 < len(self.card.blanks):
            self._at.blank_index += 1
            self._at.asked_at = now
            return [self.asking()]
        return self._finish_card(now)

    def _close_card_result(self, now: datetime) -> None:
        started = self._at.card_started_at or now
        self.result.ms = max(0, int((now - started).total_seconds() * 1000))
        self.result.finished = True

    def _finish_card(self, now: datetime) -> list[Event]:
        self._close_card_result(now)
        filled = {name: spec.answer for name, spec in self.card.blanks.items()}
        events: list[Event] = [CardFinished(self.card, self.result, filled)]
        if self._at.card_index + 1 < len(self.cards):
            self._at.card_index += 1
            return events + self._begin_card()
        return events + self._finish("finished")

    def _finish(self, reason: EndReason) -> list[Event]:
        self.finished = True
        summary = SessionSummary(self.results, self.attempts, self.correct, reason)
        return [SessionFinished(summary)]


__all__ = [
    "KEYS_HELP",
    "BlankAsked",
    "BlankResult",
    "CardFinished",
    "CardResult",
    "CardStarted",
    "Event",
    "HintShown",
    "Judged",
    "Notice",
    "QuizSession",
    "Revealed",
    "SessionFinished",
    "SessionSummary",
    "masked_answer",
]
