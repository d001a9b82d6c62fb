"""The one reader of every value the progress database stores, and what it accepts.

A stored FSRS state, due time, attempt number or time may be damaged: written
by an older or foreign tool, edited by hand, or imported before imports were
checked this strictly. Every such value is read here, with one behaviour: a
damaged row yields None and a :class:`Damage` naming its card, and the caller
treats the card as new (or skips the row) and goes on. The same rules check a
backup before it is imported (:func:`check_state`, :func:`check_review_log`),
so nothing an import accepts can later fail in the scheduler.

This module needs neither SQLite nor the FSRS package: ``list`` reads states
through it and must stay fast.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from fsrs.card import CardDict
    from fsrs.review_log import ReviewLogDict

#: py-fsrs's card states (``fsrs.State``): Learning, Review, Relearning.
LEARNING, REVIEW, RELEARNING = 1, 2, 3
#: py-fsrs clamps difficulty to this range (``MIN_DIFFICULTY``, ``MAX_DIFFICULTY``).
DIFFICULTY_RANGE = (1.0, 10.0)
#: Far more steps than any scheduler has; FSRS moves a card on past its last step.
MAX_STEP = 1000
#: The ratings FSRS knows (``fsrs.Rating``: Again, Hard, Good, Easy).
RATINGS = range(1, 5)

#: An attempt row as the store writes it, in SQL: any other row is damaged. Used both
#: to stream attempts and in aggregates, so the two never disagree on what counts.
VALID_ATTEMPT_SQL = (
    "(typeof(card_id) = 'text' AND typeof(blank) = 'text' AND typeof(given) = 'text'"
    " AND correct IN (0, 1) AND typeof(correct) = 'integer'"
    " AND typeof(try) = 'integer' AND try >= 1"
    " AND typeof(hints) = 'integer' AND hints >= 0 AND typeof(ms) = 'integer' AND ms >= 0"
    " AND typeof(at) = 'text' AND at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*'"
    " AND julianday(at) IS NOT NULL)"
)
#: A review row as the store writes it, in SQL (its log is checked in Python).
VALID_REVIEW_SQL = (
    "(typeof(card_id) = 'text' AND typeof(rating) = 'integer' AND rating BETWEEN 1 AND 4"
    " AND typeof(review_log) = 'text' AND typeof(at) = 'text'"
    " AND at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*' AND julianday(at) IS NOT NULL)"
)


@dataclass(frozen=True)
class Attempt:
    """One judged answer to one blank."""

    card_id: str
    blank: str
    given: str
    correct: bool
    try_number: int
    hints: int
    ms: int
    at: datetime
    #: Judged wrong, counted as right by the learner (``correct`` is then True).
    overridden: bool = False
    #: The answer was shown (``!``) instead of typed: a wrong attempt that says so.
    revealed: bool = False

    def to_row(self) -> tuple[object, ...]:
        """The attempt in the columns of the attempts table, after ``session_id``.

        ``revealed`` is not among them: backups and imports carry attempts without it.
        """
        return (
            self.card_id,
            self.blank,
            self.given,
            int(self.correct),
            self.try_number,
            self.hints,
            self.ms,
            iso(self.at),
            int(self.overridden),
        )


@dataclass(frozen=True)
class Review:
    """One scheduling review: the rating given and FSRS's log of it."""

    card_id: str
    rating: int
    review_log: dict[str, Any]
    at: datetime
    session_id: int | None = None


@dataclass(frozen=True)
class Totals:
    attempts: int
    correct: int
    cards_seen: int
    sessions: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.attempts if self.attempts else 0.0


@dataclass(frozen=True)
class Damage:
    """A stored row that cannot be used; :attr:`message` is what the learner is told."""

    card_id: str
    what: str  # "schedule" or "history"

    @property
    def message(self) -> str:
        card = self.card_id
        return (
            f"card {card}: its stored {self.what} is damaged;"
            f" `quizzer progress reset {card} --yes` clears it"
        )


def utc_time(value: object) -> datetime:
    """An ISO 8601 time that carries its zone, in UTC.

    Raises:
        ValueError: ``value`` is not such a time (the message says why).
    """
    if not isinstance(value, str):
        raise ValueError("a time must be an ISO 8601 string")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"not an ISO 8601 time: {value[:40]!r}") from None
    if moment.tzinfo is timezone.utc:
        return moment  # the store's own form (``+00:00``) and ``Z``: already UTC
    offset = moment.utcoffset()
    if offset is None:
        raise ValueError(f"time without a zone: {value[:40]!r} (add Z or +00:00)")
    if offset:
        try:
            moment = moment.astimezone(timezone.utc)
        except OverflowError:
            raise ValueError(f"time out of range: {value[:40]!r}") from None
    return moment.replace(tzinfo=timezone.utc)


def iso(moment: datetime) -> str:
    """A time as the store writes it: UTC, to the millisecond."""
    if moment.tzinfo is None or moment.utcoffset() != timedelta(0):
        raise ValueError("times in the store are UTC datetimes")
    return moment.isoformat(timespec="milliseconds")


def stored_time(value: object) -> datetime | None:
    """A stored time (an attempt's, a review's, a due time), or None when damaged."""
    try:
        return utc_time(value)
    except ValueError:
        return None


def _number(value: object, name: str) -> float:
    # bool is an int in Python; JSON's true is no stability.
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite")
    return number


def _integer(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer")
    return value


def check_state(value: object) -> CardDict:
    """An FSRS state as py-fsrs's scheduler accepts it (``fsrs.Card.to_dict()``).

    Positive finite stability, difficulty within :data:`DIFFICULTY_RANGE`, a
    step for a learning or relearning card (none for a review card), stability
    and difficulty known once a card has left learning, times with their zone.

    Raises:
        ValueError: the state would fail in, or mislead, the scheduler.
    """
    if not isinstance(value, dict):
        raise ValueError("an FSRS state must be an object")
    expected = {"card_id", "state", "step", "stability", "difficulty", "due", "last_review"}
    if set(value) != expected:
        missing, extra = expected - set(value), set(value) - expected
        raise ValueError(
            f"an FSRS state has the fields {', '.join(sorted(expected))}"
            + (f"; missing {', '.join(sorted(missing))}" if missing else "")
            + (f"; unknown {', '.join(sorted(map(str, extra)))}" if extra else "")
        )
    card_id = _integer(value["card_id"], "card_id")
    if not 0 <= card_id < 2**63:
        raise ValueError("card_id is out of range")
    state = _integer(value["state"], "state")
    if state not in (LEARNING, REVIEW, RELEARNING):
        raise ValueError("state must be 1 (learning), 2 (review) or 3 (relearning)")
    step = value["step"]
    if state == REVIEW:
        if step is not None:
            raise ValueError("a review card has no step (step must be null)")
    elif not 0 <= _integer(step, "step") <= MAX_STEP:
        raise ValueError(f"step must be between 0 and {MAX_STEP}")
    stability, difficulty = value["stability"], value["difficulty"]
    if state != LEARNING and (stability is None or difficulty is None):
        raise ValueError("a reviewed card needs a stability and a difficulty")
    if stability is not None and _number(stability, "stability") <= 0:
        raise ValueError("stability must be positive")
    low, high = DIFFICULTY_RANGE
    if difficulty is not None and not low <= _number(difficulty, "difficulty") <= high:
        raise ValueError(f"difficulty must be between {low:g} and {high:g}")
    due = utc_time(value["due"]).isoformat()
    last = value["last_review"]
    last_review = utc_time(last).isoformat() if last is not None else None
    if state != LEARNING and last_review is None:
        raise ValueError("a reviewed card needs its last_review time")
    return cast(
        "CardDict",
        {
            "card_id": card_id,
            "state": state,
            "step": step,
            "stability": stability,
            "difficulty": difficulty,
            "due": due,
            "last_review": last_review,
        },
    )


def check_review_log(value: object) -> ReviewLogDict:
    """A review log as ``fsrs.ReviewLog.to_dict()`` writes it, each field it has checked.

    Logs feed only the optimiser, never the scheduler, and backups written by
    hand or by older tools hold partial ones; a field that is there must be right.

    Raises:
        ValueError: a field holds what FSRS could not read.
    """
    if not isinstance(value, dict):
        raise ValueError("a review log must be an object")
    if "card_id" in value:
        _integer(value["card_id"], "card_id")
    if "rating" in value and _integer(value["rating"], "rating") not in RATINGS:
        raise ValueError("rating must be between 1 and 4")
    if "review_datetime" in value:
        utc_time(value["review_datetime"])
    duration = value.get("review_duration")
    if duration is not None and _integer(duration, "review_duration") < 0:
        raise ValueError("review_duration must not be negative")
    return cast("ReviewLogDict", value)


def read_state(text: object) -> CardDict | None:
    """A stored FSRS state (JSON text), or None when it is damaged in any way."""
    if not isinstance(text, str):
        return None
    try:
        return check_state(json.loads(text))
    except (ValueError, RecursionError):
        return None


def read_review_log(text: object) -> ReviewLogDict | None:
    """A stored review log (JSON text), or None when it is damaged in any way."""
    if not isinstance(text, str):
        return None
    try:
        return check_review_log(json.loads(text))
    except (ValueError, RecursionError):
        return None


def due_time(state: Mapping[str, Any]) -> datetime:
    """When a state read by :func:`read_state` or :func:`check_state` is next due (UTC)."""
    return datetime.fromisoformat(str(state["due"]))
