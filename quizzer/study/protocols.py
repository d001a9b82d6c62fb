"""What the study loop drives and where it saves: the session, the reader, the progress.

Kept apart from :mod:`quizzer.study.loop` so that the loop module holds the
loop alone; each protocol names what an implementation must do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from quizzer.cards.model import Card
from quizzer.progress.store import Attempt
from quizzer.study.events import EndReason, Event, Grade, Prompt
from quizzer.study.results import AnswerChange, CardResult


class Session(Protocol):
    """What the loop drives: a quiz or a drill."""

    finished: bool

    @property
    def between_cards(self) -> bool: ...

    def start(self) -> list[Event]:
        """Begin the session.

        Returns:
            The events of the first card; called once, before any other method.
        """

    def answer(self, line: str) -> list[Event]:
        """Take one line typed at the current prompt.

        Args:
            line: The text typed, without its newline (a key such as ``?`` or ``!`` included).

        Returns:
            What happened, in order.
        """

    def override(self) -> list[Event]:
        """Count the last rejected answer as right (``/override``).

        Returns:
            What happened: the overridden answer, then the card going on.
        """

    def come_back(self, card: Card, due: datetime) -> None:
        """Ask ``card`` again in this session once ``due`` (a card in its learning steps)."""

    def drop_coming_back(self, card_id: str) -> None:
        """Forget that ``card_id`` was to come back (its review was undone)."""

    def set_aside(self) -> list[Event]:
        """Leave the current card now, unrated (``/suspend``, ``/bury``).

        Returns:
            The card finishing (its result marked skipped), or nothing between cards.
        """

    def next_card(self) -> list[Event]:
        """Go on after a finished card (see :attr:`between_cards`).

        Returns:
            The next card's events, or the session's end after the last card.
        """

    def stop(self, reason: EndReason) -> list[Event]:
        """End the session now; a second call does nothing.

        Args:
            reason: Why it ended (``quit``, ``end of input``, ``interrupted``, ``time``).

        Returns:
            The closing events, the summary or report last.
        """

    def prompt(self) -> Prompt:
        """What the next line answers.

        Returns:
            The prompt event to draw before reading a line.
        """

    def remaining(self) -> timedelta | None:
        """The time left.

        Returns:
            The time left, or None for a session without a time limit.
        """


class Reader(Protocol):
    """The next line typed for ``prompt``, or None at the end of input.

    May raise KeyboardInterrupt (Ctrl-C); the loop handles it.
    """

    def __call__(self, prompt: Prompt, remaining: timedelta | None) -> str | None: ...


Show = Callable[[Event], None]
Fingerprints = Callable[[Card], Mapping[str, tuple[str, str]]]


class Progress(Protocol):
    """Where a session's attempts, reviews, overrides and flags are saved.

    :class:`~quizzer.study.recording.SessionProgress` is the package's implementation
    and documents each method's arguments.
    """

    def record_attempt(self, attempt: Attempt) -> None:
        """Save one judged (or revealed) answer, committed before this returns."""

    def in_learning(self, item: str) -> bool:
        """Whether the item's saved state is in its (re)learning steps."""

    def suspend(self, card_id: str, now: datetime) -> None:
        """Suspend a card: no session chooses it until it is unsuspended."""

    def bury(self, card_id: str, now: datetime) -> datetime:
        """Bury a card until tomorrow; returns when it comes back."""

    def undo_review(self, card_id: str, since: datetime) -> None:
        """Take back the card's last review in this session; its attempts stay, marked."""

    def save_review(self, result: CardResult, grade: Grade, now: datetime) -> datetime:
        """Schedule a finished card, save its review; returns when it is next due."""

    def save_rating(
        self, item: str, grade: Grade, now: datetime, duration_ms: int | None = None
    ) -> datetime:
        """Schedule any review item (a card or a follow-up), save it; returns its due time."""

    def replace_rating(
        self, item: str, grade: Grade, now: datetime, duration_ms: int | None = None
    ) -> datetime:
        """Regrade the item's review saved earlier in this session; returns its due time."""

    def record_override(self, card_id: str, blank: str, try_number: int) -> None:
        """Mark an attempt saved earlier as counted right by the learner."""

    def answer_changes(
        self, card: Card, fingerprints: Mapping[str, tuple[str, str]]
    ) -> list[AnswerChange]:
        """Blanks whose answer changed in substance since the card's last review."""

    def end(self, now: datetime) -> None:
        """Close the session's record at ``now``."""


@dataclass(frozen=True)
class StudyOptions:
    """How the loop behaves around a finished card."""

    interactive: bool = False  # a person at a terminal: wait for Enter, offer the rating
    follow_ups: bool = True  # show a finished card's follow-ups (quiz, without --brief)
    closing: bool = True  # close a finished card with the sections after its follow-ups
    rate_prompt: bool = True  # in a terminal, let one key change the grade a card earned
    #: In a terminal: the card back (intuition, explanation), then a menu, one key a section.
    card_back_menu: bool = False
