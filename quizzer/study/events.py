"""What a study session says and asks: one typed vocabulary for quiz, review and drill.

Sessions (:mod:`quizzer.study.quiz`, :mod:`quizzer.study.drill`) return
*events*; the study loop (:mod:`quizzer.study.loop`) adds its own (a card
scheduled, a recap) and asks for each line with a *prompt* that says what
the line is for. The presentation layer renders both; nothing here prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal

from quizzer.cards.model import Card, FollowUp
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

# Events with four fields or more are built by keyword (kw_only): a positional
# Judged(verdict, 1, True, 2) reads as nothing.

# -- what a session says ------------------------------------------------------------


@dataclass(frozen=True)
class CardStarted:
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
    verdict: Verdict
    number: int
    counted: bool  # unreadable answers do not use up a try
    tries_left: int


@dataclass(frozen=True)
class HintShown:
    blank: str
    text: str
    level: int


@dataclass(frozen=True, kw_only=True)
class Revealed:
    blank: str
    number: int
    answer: str
    because: Literal["asked", "out of tries"]


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
    card: Card
    result: CardResult
    filled: dict[str, str]


@dataclass(frozen=True)
class Notice:
    text: str


@dataclass(frozen=True)
class SessionFinished:
    summary: SessionSummary


@dataclass(frozen=True, kw_only=True)
class DrillCardStarted:
    card: Card
    number: int
    total: int
    remaining: timedelta
    target: timedelta


@dataclass(frozen=True)
class FollowUpAsked:
    """The drill's interviewer asks a follow-up (also the prompt of the answer line)."""

    card: Card
    item: FollowUpId
    follow_up: FollowUp


@dataclass(frozen=True)
class GradeAsked:
    """The drill waits for the candidate to grade their follow-up answer."""

    item: FollowUpId


@dataclass(frozen=True)
class ApproachShown:
    item: FollowUpId
    approach: str
    answered: str


@dataclass(frozen=True)
class FollowUpGraded:
    item: FollowUpId
    grade: Grade
    ms: int


@dataclass(frozen=True)
class RedFlagsShown:
    card: Card


@dataclass(frozen=True)
class DrillFinished:
    report: DrillReport


# -- what the loop adds ---------------------------------------------------------------


@dataclass(frozen=True)
class FollowUpsListed:
    """A finished card's follow-ups, questions with approaches (no terminal to wait on)."""

    card: Card


@dataclass(frozen=True)
class QuestionShown:
    """One follow-up question of a finished card, its approach held back."""

    card: Card
    item: FollowUpId
    follow_up: FollowUp


@dataclass(frozen=True)
class ApproachAsked:
    """Waiting for Enter before a follow-up's approach is shown."""

    item: FollowUpId


@dataclass(frozen=True)
class ClosingSections:
    """The sections after a finished card's follow-ups (the 60-second review)."""

    card: Card


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
)

#: What an input line answers: a blank, a drill follow-up or self-grade, Enter
#: before a quiz follow-up's approach, or the rating prompt.
Prompt = BlankAsked | FollowUpAsked | GradeAsked | ApproachAsked | RatingAsked


__all__ = [
    "GRADE_KEYS",
    "GRADE_KEYS_HELP",
    "EndReason",
    "FollowUpId",
    "Grade",
    "parse_grade",
]
