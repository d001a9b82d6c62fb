"""Spaced repetition with FSRS (the ``fsrs`` package): ratings, due order, forecasts.

quizzer does not schedule by itself. It turns how a card went into an FSRS
rating, hands the card's FSRS state to :class:`fsrs.Scheduler`, and keeps
the new state and the review log (the optimizer needs them). FSRS objects
carry no content: a quizzer card id maps to an FSRS card id, nothing more.
Time always comes in as an argument (a UTC datetime).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from fsrs import Card as FsrsCard
from fsrs import Rating, ReviewLog, Scheduler
from fsrs.card import CardDict

from quizzer.progress.stored import due_time

DEFAULT_NEW_PER_DAY = 10
FORECAST_DAYS = 14


def make_scheduler(*, fuzz: bool = True) -> Scheduler:
    """An FSRS scheduler with its default (FSRS-6) parameters.

    Args:
        fuzz: Spread due dates a little, so cards learnt together do not stay together.

    Returns:
        The scheduler every review and retrievability goes through.
    """
    return Scheduler(enable_fuzzing=fuzz)


def fsrs_id(card_id: str) -> int:
    """A stable FSRS card id for a quizzer card id (FSRS wants an integer).

    Args:
        card_id: A review item's id.

    Returns:
        Its CRC-32, the same on every run and machine.
    """
    return zlib.crc32(card_id.encode("utf-8"))


def fsrs_card(card_id: str, state: CardDict | None, now: datetime) -> FsrsCard:
    """The FSRS card of a review item.

    Args:
        card_id: The review item's id.
        state: Its stored FSRS state, or None if it was never reviewed.
        now: The current time (UTC): a new card is due now.

    Returns:
        The stored card, or a new one due now.
    """
    if state is None:
        return FsrsCard(card_id=fsrs_id(card_id), due=now)
    return FsrsCard.from_dict(state)


def review(
    scheduler: Scheduler,
    card_id: str,
    state: CardDict | None,
    rating: Rating,
    now: datetime,
    duration_ms: int | None = None,
) -> tuple[FsrsCard, ReviewLog]:
    """Review a card with FSRS.

    Args:
        scheduler: The FSRS scheduler.
        card_id: The review item's id.
        state: Its stored FSRS state, or None for a first review.
        rating: How the recall went.
        now: The time of the review (UTC).
        duration_ms: How long the answer took, if measured (kept in the log).

    Returns:
        The card's new FSRS state and the review log.
    """
    return scheduler.review_card(
        fsrs_card(card_id, state, now), rating, review_datetime=now, review_duration=duration_ms
    )


@dataclass(frozen=True)
class ReviewPlan:
    """What a review session asks: due cards (most overdue first), then new ones."""

    due: list[str]
    new: list[str]
    next_due: tuple[str, datetime] | None  # the soonest card not due yet

    @property
    def cards(self) -> list[str]:
        return [*self.due, *self.new]


def plan_review(
    card_ids: Sequence[str],
    states: Mapping[str, CardDict],
    now: datetime,
    *,
    limit: int | None = None,
    new_limit: int = DEFAULT_NEW_PER_DAY,
    new_seen_today: int = 0,
) -> ReviewPlan:
    """Choose the cards of a review session among ``card_ids`` (in deck order).

    Args:
        card_ids: The candidate cards, in deck order.
        states: Each reviewed card's stored FSRS state, by id.
        now: The current time (UTC).
        limit: At most this many cards, due ones first.
        new_limit: New cards a day; cards first reviewed earlier today count against it.
        new_seen_today: How many new cards were already reviewed today.

    Returns:
        The due cards (most overdue first), the new ones, and the soonest card not due yet.
    """
    scheduled = [c for c in card_ids if c in states]
    due = sorted(
        (c for c in scheduled if due_time(states[c]) <= now), key=lambda c: due_time(states[c])
    )
    later = sorted(
        (c for c in scheduled if due_time(states[c]) > now), key=lambda c: due_time(states[c])
    )
    room = max(0, new_limit - new_seen_today)
    new = [c for c in card_ids if c not in states][:room]
    if limit is not None:
        due = due[:limit]
        new = new[: max(0, limit - len(due))]
    next_due = (later[0], due_time(states[later[0]])) if later else None
    return ReviewPlan(due, new, next_due)


def forecast(states: Iterable[CardDict], now: datetime, days: int = FORECAST_DAYS) -> list[int]:
    """How many cards fall due on each of the next ``days`` calendar days (UTC).

    Args:
        states: Stored FSRS states.
        now: The current time (UTC).
        days: How many days to count.

    Returns:
        One count per day; day 0 is today and includes every card already overdue.
    """
    counts = [0] * days
    for state in states:
        offset = (due_time(state).date() - now.date()).days
        if offset < days:
            counts[max(0, offset)] += 1
    return counts


def retrievability(scheduler: Scheduler, card_id: str, state: CardDict, now: datetime) -> float:
    """The probability of recalling the card now, according to FSRS.

    Args:
        scheduler: The FSRS scheduler.
        card_id: The review item's id.
        state: Its stored FSRS state.
        now: The current time (UTC).

    Returns:
        A probability between 0 and 1.
    """
    return float(scheduler.get_card_retrievability(fsrs_card(card_id, state, now), now))
