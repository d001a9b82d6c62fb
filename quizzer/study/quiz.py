"""A quiz session as a plain object: feed it a line, get back what happened.

The session never prints and never reads input. The command line (or a
test) calls :meth:`QuizSession.answer` with each line the learner typed and
renders the events it returns. Judging, the clock and saving attempts come
in as functions, so a whole session runs in a test without a terminal, a
database or SymPy.
"""

from __future__ import annotations

import re
from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal, Protocol

from quizzer.cards.model import Card
from quizzer.progress.store import Attempt
from quizzer.study import defaults
from quizzer.study.events import (
    BlankAsked,
    CardFinished,
    CardStarted,
    Event,
    HintShown,
    Judged,
    Notice,
    Overridden,
    Prompt,
    Revealed,
    SessionFinished,
)
from quizzer.study.items import EndReason
from quizzer.study.results import BlankResult, CardResult, SessionSummary

if TYPE_CHECKING:
    from quizzer.answers import Verdict

DEFAULT_TRIES = defaults.TRIES
#: When nothing else is left, a learning card due within this long is shown now (Anki's).
LEARN_AHEAD = timedelta(minutes=20)
HINT, REVEAL, SKIP, QUIT, OVERRIDE = "?", "!", "/skip", "/quit", "/override"
SUSPEND, BURY, UNDO = "/suspend", "/bury", "/undo"
KEYS_HELP = (
    "? hint · ! reveal · /skip card · /override after ✗ · /suspend · /bury · /undo"
    " · /quit or Ctrl-D to stop"
)
#: What an unknown ``/command`` is told to try instead.
COMMANDS_HELP = "? ! /skip /override /suspend /bury /undo /quit"


class Judge(Protocol):
    def __call__(self, card: Card, blank: str, text: str) -> Verdict: ...


Clock = Callable[[], datetime]
Recorder = Callable[[Attempt], None]


# -- hints --------------------------------------------------------------------------


def masked_answer(card: Card, blank: str) -> str:
    """The answer's shape with every symbol hidden, for the second hint.

    Args:
        card: The card.
        blank: The blank's name.

    Returns:
        ``sqrt(d_k)`` gives ``sqrt(□)``; a one-character answer gives "a single
        symbol", a longer one its first letter and its length (``V___``).
    """
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
    between_cards: bool = False  # a card is finished and the next not yet begun


@dataclass(frozen=True)
class _Rejected:
    """The last counted wrong answer, which ``/override`` may still count as right."""

    result: CardResult
    blank_index: int
    attempt: Attempt


class QuizSession:
    """Cards asked one blank at a time, with tries, hints, reveals, skips and overrides.

    After a card's last blank the session waits between cards (the caller
    shows the card's teaching sections and saves its review) until
    :meth:`next_card`; a session stopped there never charges the next card.
    """

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
        # A copy of its own (it inserts cards coming back); a slice of the deck's
        # CardsOnDemand stays lazy, so no card is built before it is reached.
        self.cards: MutableSequence[Card] = (
            cards[:] if isinstance(cards, MutableSequence) else list(cards)
        )
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
        self._rejected: _Rejected | None = None
        #: Cards in their learning steps, to come back in this session: (due, order, card).
        self._learning: list[tuple[datetime, int, Card]] = []

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

    @property
    def between_cards(self) -> bool:
        """A card is finished and :meth:`next_card` has not been called yet."""
        return self._at.between_cards and not self.finished

    def asking(self) -> BlankAsked:
        """The blank being asked now.

        Returns:
            The prompt of the input line: the card, the blank, and which try it is.
        """
        return BlankAsked(
            card=self.card,
            blank=self.blank,
            number=self._at.blank_index + 1,
            try_number=self.blank_result.tries + 1,
            tries_allowed=self.tries,
        )

    def prompt(self) -> Prompt:
        """What the next line answers.

        Returns:
            The blank being asked (a quiz asks nothing else).
        """
        return self.asking()

    def remaining(self) -> timedelta | None:
        """The time left.

        Returns:
            None: a quiz has no time limit.
        """
        return None

    # -- driving ----------------------------------------------------------------

    def start(self) -> list[Event]:
        """Begin the session.

        Returns:
            The events of the first card; called once, before any :meth:`answer`.
        """
        return self._begin_card()

    def answer(self, line: str) -> list[Event]:
        """Take one line typed by the learner.

        Args:
            line: An answer, or a key: ``?`` hint, ``!`` reveal, ``/skip``,
                ``/override``, ``/quit``.

        Returns:
            What happened, in order (nothing between cards or once the session is over).
        """
        if self.finished or self._at.between_cards:
            return []
        text = line.strip()
        if text == QUIT:
            return self.stop("quit")
        if text == OVERRIDE:
            return self.override()
        if text == SKIP:
            return self.set_aside()
        if text == HINT:
            return self._hint()
        if text == REVEAL:
            return self._reveal("asked", self.clock())
        if not text:
            return [Notice(f"Type an answer. {KEYS_HELP}")]
        return self._judge(line)

    def next_card(self) -> list[Event]:
        """Begin the card after a finished one, or end the session after the last.

        Returns:
            The next card's events, or the summary (nothing unless a card is finished).
        """
        if self.finished or not self._at.between_cards:
            return []
        self._at.between_cards = False
        self._rejected = None
        coming_back = self._learning_card(self.clock())
        if coming_back is not None:
            self.cards.insert(self._at.card_index + 1, coming_back)
        if self._at.card_index + 1 < len(self.cards):
            self._at.card_index += 1
            return self._begin_card()
        return self._finish("finished")

    def set_aside(self) -> list[Event]:
        """Leave the current card now, unfinished blanks unanswered (``/skip``, ``/suspend``).

        Returns:
            The card finishing, its result marked skipped (nothing between cards).
        """
        if self.finished or self._at.between_cards or not self.results:
            return []
        self.result.skipped = True
        self._rejected = None
        return self._finish_card(self.clock())

    def drop_coming_back(self, card_id: str) -> None:
        """Forget that ``card_id`` was to come back (its review was taken back).

        Args:
            card_id: The card.
        """
        self._learning = [entry for entry in self._learning if entry[2].id != card_id]

    def come_back(self, card: Card, due: datetime) -> None:
        """Ask ``card`` again in this session once ``due`` (it is in its learning steps).

        Args:
            card: A card just finished, scheduled within its learning steps.
            due: When its step is over.
        """
        self._learning.append((due, len(self._learning), card))
        self._learning.sort(key=lambda entry: entry[:2])

    def _learning_card(self, now: datetime) -> Card | None:
        """The learning card to ask next, if any: one whose step is over, or, when no
        other card is left, one due within :data:`LEARN_AHEAD`."""
        if not self._learning:
            return None
        due, _, card = self._learning[0]
        fresh_left = self._at.card_index + 1 < len(self.cards)
        if due <= now or (not fresh_left and due <= now + LEARN_AHEAD):
            self._learning.pop(0)
            return card
        return None

    def override(self) -> list[Event]:
        """Count the last rejected answer as right; the card goes on from there.

        Allowed until another answer is judged or the next card begins, so a
        wrong last try (answer revealed, card finished) can still be overruled.

        Returns:
            The override and what follows it, or a notice when there is nothing to override.
        """
        rejected = self._rejected
        if self.finished or rejected is None:
            return [Notice("/override counts an answer the judge rejected (✗) as right.")]
        self._rejected = None
        blank = rejected.result.blanks[rejected.blank_index]
        blank.correct, blank.revealed, blank.overridden = True, False, True
        self.correct += 1
        events: list[Event] = [
            Overridden(
                card_id=rejected.result.card_id,
                blank=blank.name,
                number=rejected.blank_index + 1,
                given=rejected.attempt.given,
                try_number=rejected.attempt.try_number,
                result=rejected.result,
            )
        ]
        still_asking = (
            rejected.result is self.result
            and not self.result.finished
            and rejected.blank_index == self._at.blank_index
        )
        if still_asking:
            return events + self._next_blank(self.clock())
        return events

    def stop(self, reason: EndReason) -> list[Event]:
        """End the session now (quit, end of input, Ctrl-C, time up).

        Args:
            reason: Why it ended.

        Returns:
            The summary event (nothing if the session is already over).
        """
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
            CardResult(
                card_id=self.card.id,
                title=self.card.title,
                blanks=[BlankResult(name) for name in self.card.blanks],
            )
        )
        total = len(self.cards) + len(self._learning)
        started = CardStarted(card=self.card, number=self._at.card_index + 1, total=total)
        return [started, self.asking()]

    def _judge(self, line: str) -> list[Event]:
        verdict = self.judge(self.card, self.blank, line)
        now = self.clock()
        number = self._at.blank_index + 1
        if verdict.status in ("unreadable", "too_large", "unanswered"):
            left = self.tries - self.blank_result.tries
            judged = Judged(verdict=verdict, number=number, counted=False, tries_left=left)
            return [judged, self.asking()]
        blank = self.blank_result
        blank.tries += 1
        self.attempts += 1
        self.correct += verdict.correct
        asked_at = self._at.asked_at or now
        attempt = Attempt(
            card_id=self.card.id,
            blank=self.blank,
            given=line.strip(),
            correct=verdict.correct,
            try_number=blank.tries,
            hints=blank.hints,
            ms=max(0, int((now - asked_at).total_seconds() * 1000)),
            at=now,
        )
        self.record(attempt)
        self._at.asked_at = now
        self._rejected = (
            None if verdict.correct else _Rejected(self.result, self._at.blank_index, attempt)
        )
        left = self.tries - blank.tries
        events: list[Event] = [
            Judged(verdict=verdict, number=number, counted=True, tries_left=left, attempt=attempt)
        ]
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
            return [HintShown(blank=self.blank, text=spec.hint, level=1)]
        if blank.hints <= 1:
            blank.hints = 2
            shape = masked_answer(self.card, self.blank)
            return [HintShown(blank=self.blank, text=f"the answer looks like: {shape}", level=2)]
        return [Notice("No more hints for this blank: ! reveals the answer.")]

    def _reveal(self, because: Literal["asked", "out of tries"], now: datetime) -> list[Event]:
        blank = self.blank_result
        blank.revealed = True
        attempt = None
        if because == "asked":
            self._rejected = None  # asking for the answer concedes the last one
            attempt = self._revealed_attempt(now)
        spec = self.card.blanks[self.blank]
        number = self._at.blank_index + 1
        revealed = Revealed(
            blank=self.blank,
            number=number,
            answer=spec.answer,
            because=because,
            accepted=tuple(spec.accepted_forms()),
            attempt=attempt,
        )
        return [revealed, *self._next_blank(now)]

    def _revealed_attempt(self, now: datetime) -> Attempt:
        """A blank shown with ``!``: saved as a wrong attempt that says so.

        Not saving it let accuracy hide every answer the learner gave up on.
        """
        blank = self.blank_result
        blank.tries += 1
        self.attempts += 1
        asked_at = self._at.asked_at or now
        attempt = Attempt(
            card_id=self.card.id,
            blank=self.blank,
            given="!",
            correct=False,
            try_number=blank.tries,
            hints=blank.hints,
            ms=max(0, int((now - asked_at).total_seconds() * 1000)),
            at=now,
            revealed=True,
        )
        self.record(attempt)
        return attempt

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
        self._at.between_cards = True
        filled = {name: spec.answer for name, spec in self.card.blanks.items()}
        return [CardFinished(card=self.card, result=self.result, filled=filled)]

    def _finish(self, reason: EndReason) -> list[Event]:
        self.finished = True
        summary = SessionSummary(
            cards=self.results, attempts=self.attempts, correct=self.correct, ended_by=reason
        )
        return [SessionFinished(summary)]


__all__ = [
    "KEYS_HELP",
    "BlankAsked",
    "BlankResult",
    "CardFinished",
    "CardResult",
    "CardStarted",
    "EndReason",
    "Event",
    "HintShown",
    "Judged",
    "Notice",
    "Overridden",
    "QuizSession",
    "Revealed",
    "SessionFinished",
    "SessionSummary",
    "masked_answer",
]
