"""What a study session says and asks: one typed vocabulary for quiz, review and drill.

Sessions (:mod:`quizzer.study.quiz`, :mod:`quizzer.study.drill`) return
*events*; the study loop (:mod:`quizzer.study.loop`) adds its own (a card
scheduled, a recap) and asks for each line with a *prompt* that says what
the line is for. The presentation layer renders both; nothing here prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal

from quizzer.cards.model import Card, FollowUp
from quizzer.progress.store import Attempt
from quizzer.study.items import (
    GRADE_KEYS,
    GRADE_KEYS_HELP,
    EndReason,
    FollowUpId,
    Grade,
    parse_grade,
)
from quizzer.study.results import AnswerChange, CardResult, DrillReport, SessionSummary

if TYPE_CHECKING:
    from quizzer.answers import Verdict
    from quizzer.answers.keypoints import FollowUpCheck

# Events with four fields or more are built by keyword (kw_only): a positional
# Judged(verdict, 1, True, 2) reads as nothing.
#
# Events that carry the same fields share a private base; each keeps its own
# class, and the views dispatch on that exact class (never on a base).


@dataclass(frozen=True)
class _OfCard:
    """A base: an event about one card."""

    card: Card


@dataclass(frozen=True)
class _OfItem:
    """A base: an event about one follow-up item."""

    item: FollowUpId


@dataclass(frozen=True)
class _OfFollowUp(_OfCard):
    """A base: an event about one follow-up question of a card."""

    item: FollowUpId
    follow_up: FollowUp


# -- what a session says ------------------------------------------------------------


@dataclass(frozen=True)
class CardStarted:
    """A card is on screen: the ``number``-th of ``total``."""

    card: Card
    number: int
    total: int


@dataclass(frozen=True, kw_only=True)
class BlankAsked:
    """A blank is waiting for an answer (also the prompt of that input line)."""

    card: Card
    blank: str
    number: int  # 1-based position of the blank in the card
    try_number: int
    tries_allowed: int


@dataclass(frozen=True, kw_only=True)
class Judged:
    """An answer was judged; ``tries_left`` after it."""

    verdict: Verdict
    number: int
    counted: bool  # unreadable answers do not use up a try
    tries_left: int
    #: The answer as saved (None when it did not count); the loop saves it.
    attempt: Attempt | None = field(default=None, compare=False)


@dataclass(frozen=True)
class HintShown:
    """The ``level``-th hint for a blank."""

    blank: str
    text: str
    level: int


@dataclass(frozen=True, kw_only=True)
class Revealed:
    blank: str
    number: int
    answer: str
    because: Literal["asked", "out of tries"]
    #: Every accepted form, the answer first (word blanks list their phrasings).
    accepted: tuple[str, ...] = field(default=(), compare=False)
    #: A reveal asked for (``!``) is saved as a wrong attempt; the loop saves it.
    attempt: Attempt | None = field(default=None, compare=False)


@dataclass(frozen=True, kw_only=True)
class Overridden:
    """The learner counted a rejected answer as right (``/override``)."""

    card_id: str
    blank: str
    number: int
    given: str
    try_number: int
    result: CardResult


@dataclass(frozen=True)
class CardFinished:
    """A card is done: how it went and the answers that filled its blanks."""

    card: Card
    result: CardResult
    filled: dict[str, str]


@dataclass(frozen=True)
class Notice:
    """A line to tell the learner (a key they cannot use here, a bad grade)."""

    text: str


@dataclass(frozen=True)
class SessionFinished:
    """The quiz or review ended; its summary."""

    summary: SessionSummary


@dataclass(frozen=True, kw_only=True)
class DrillCardStarted:
    """A drill card is on screen, with the time left and the pace to keep."""

    card: Card
    number: int
    total: int
    remaining: timedelta
    target: timedelta


class FollowUpAsked(_OfFollowUp):
    """The drill's interviewer asks a follow-up (also the prompt of the answer line)."""


@dataclass(frozen=True)
class GradeAsked(_OfItem):
    """Waiting for the learner to grade their follow-up answer.

    ``proposed``: the grade its key points earned (Enter takes it), or None
    when nothing was checked and the learner grades themself.
    """

    proposed: Grade | None = field(default=None, compare=False)


@dataclass(frozen=True)
class ApproachShown(_OfItem):
    """A follow-up's strong approach, beside what the candidate answered."""

    approach: str
    answered: str
    #: The answer's key points covered and missed (None: nothing typed, or no key points).
    check: FollowUpCheck | None = field(default=None, compare=False)


@dataclass(frozen=True)
class FollowUpGraded(_OfItem):
    """The candidate graded their follow-up answer; ``ms`` it took."""

    grade: Grade
    ms: int


class RedFlagsShown(_OfCard):
    """A drill card is done: its red flags, the phrases that signal junior thinking."""


@dataclass(frozen=True)
class DrillFinished:
    """The drill ended; its report."""

    report: DrillReport


# -- what the loop adds ---------------------------------------------------------------


class FollowUpsListed(_OfCard):
    """A finished card's follow-ups, questions with approaches (no terminal to wait on)."""


class QuestionShown(_OfFollowUp):
    """One follow-up question of a finished card, its approach held back."""


class ApproachAsked(_OfItem):
    """Waiting for Enter before a follow-up's approach is shown."""


class ClosingSections(_OfCard):
    """The sections after a finished card's follow-ups (the 60-second review)."""


@dataclass(frozen=True)
class CardBack:
    """In a terminal, a finished card's back: its verdict's formula, intuition, explanation.

    The other sections come one key each (:class:`SectionAsked`).
    """

    card: Card
    result: CardResult
    filled: dict[str, str]


@dataclass(frozen=True)
class SectionShown:
    """One teaching section of a finished card, asked for at the card back's menu."""

    card: Card
    field: str  # the section's card field (``worked_example``, ``code`` ...)


@dataclass(frozen=True)
class SectionAsked:
    """The card back's one-line menu: which sections are left, Enter shows the first."""

    card: Card
    left: tuple[str, ...]  # section fields not shown yet, in reading order


@dataclass(frozen=True, kw_only=True)
class Scheduled:
    """A review item was saved with ``grade`` and comes back at ``due``."""

    item: str | FollowUpId
    grade: Grade
    due: datetime
    now: datetime
    replaced: bool = False  # the learner changed the grade first given


@dataclass(frozen=True, kw_only=True)
class Recap:
    """One line that keeps a finished card's verdict in view above a later prompt."""

    card: Card
    result: CardResult
    filled: dict[str, str]
    grade: Grade | None
    due: datetime | None
    now: datetime


@dataclass(frozen=True, kw_only=True)
class RatingAsked:
    """The grade a card earned, its next review, and a key to change it."""

    card_id: str
    grade: Grade
    due: datetime
    now: datetime


@dataclass(frozen=True)
class AnswersChanged:
    """Blanks whose answer changed in substance since the card was last reviewed."""

    card_id: str
    changes: tuple[AnswerChange, ...]


Event = (
    CardStarted
    | BlankAsked
    | Judged
    | HintShown
    | Revealed
    | Overridden
    | CardFinished
    | Notice
    | SessionFinished
    | DrillCardStarted
    | FollowUpAsked
    | ApproachShown
    | FollowUpGraded
    | RedFlagsShown
    | DrillFinished
    | FollowUpsListed
    | QuestionShown
    | ClosingSections
    | Scheduled
    | Recap
    | AnswersChanged
    | CardBack
    | SectionShown
)

#: What an input line answers: a blank, a drill follow-up or self-grade, Enter
#: before a quiz follow-up's approach, or the rating prompt.
Prompt = BlankAsked | FollowUpAsked | GradeAsked | ApproachAsked | RatingAsked | SectionAsked


__all__ = [
    "GRADE_KEYS",
    "GRADE_KEYS_HELP",
    "EndReason",
    "FollowUpId",
    "Grade",
    "parse_grade",
]
