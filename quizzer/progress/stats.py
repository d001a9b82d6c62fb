"""The stats report: accuracy, streak, topics, forecast, weakest cards, one card's history.

Everything here reads a :class:`~quizzer.progress.store.Store` and takes the time as an
argument; nothing prints.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from fsrs import Rating, Scheduler

from quizzer.progress import calendar, schedule
from quizzer.progress.calendar import Retention
from quizzer.progress.selection import streak
from quizzer.progress.store import Attempt, Review, Store
from quizzer.progress.stored import due_time

FORECAST_MONTH = 30

# -- the stats report ---------------------------------------------------------------------


@dataclass(frozen=True)
class TagAccuracy:
    tag: str
    attempts: int
    correct: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.attempts if self.attempts else 0.0


@dataclass(frozen=True)
class Topic:
    """A tag with its number of cards and the learner's answers on them."""

    tag: str
    cards: int
    attempts: int
    correct: int

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.attempts if self.attempts else None


def topics_from_totals(
    tags_by_card: Mapping[str, Sequence[str]], answers: Mapping[str, tuple[int, int]]
) -> list[Topic]:
    """Every tag of the deck, with card counts and accuracy, from each card's totals.

    Args:
        tags_by_card: Each card's tags, by card id.
        answers: Each card's (attempts, correct), as :meth:`Store.answers_by_card` counts them.

    Returns:
        One topic per tag, alphabetically.
    """
    cards = Counter(tag for tags in tags_by_card.values() for tag in tags)
    answered: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for card_id, (n, correct) in answers.items():
        for tag in tags_by_card.get(card_id, ()):
            answered[tag] += n
            right[tag] += correct
    return [Topic(tag, cards[tag], answered[tag], right[tag]) for tag in sorted(cards)]


def topics(tags_by_card: Mapping[str, Sequence[str]], attempts: Sequence[Attempt]) -> list[Topic]:
    """Every tag of the deck, with card counts and the learner's accuracy.

    Args:
        tags_by_card: Each card's tags, by card id.
        attempts: Stored attempts.

    Returns:
        One topic per tag, alphabetically.
    """
    cards = Counter(tag for tags in tags_by_card.values() for tag in tags)
    answered: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for attempt in attempts:
        for tag in tags_by_card.get(attempt.card_id, ()):
            answered[tag] += 1
            right[tag] += attempt.correct
    return [Topic(tag, cards[tag], answered[tag], right[tag]) for tag in sorted(cards)]


@dataclass(frozen=True)
class WeakCard:
    card_id: str
    lapses: int
    retrievability: float | None


@dataclass
class Report:
    """Every figure of ``quizzer stats``."""

    attempts: int
    correct: int
    cards_seen: int
    sessions: int
    reviews: int
    streak_days: int
    study_days: int
    due_now: int
    forecast: list[int]
    tags: list[TagAccuracy] = field(default_factory=list)
    weakest: list[WeakCard] = field(default_factory=list)
    #: Reviews per UTC day of the last 26 weeks (days without any absent).
    calendar: dict[str, int] = field(default_factory=dict)
    #: Achieved (true) retention by month and by tag, the last 12 months.
    retention: dict[str, Retention] = field(default_factory=dict)
    retention_by_tag: dict[str, Retention] = field(default_factory=dict)
    desired_retention: float = 0.9
    #: Cards due on each of the next 30 days (the chart; ``forecast`` is the JSON's 14).
    forecast_month: list[int] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return self.correct / self.attempts if self.attempts else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The report as ``stats --json`` prints it.

        Returns:
            A JSON-ready dict: totals, accuracy, streak, forecast, by tag, weakest cards.
        """
        return {
            "attempts": self.attempts,
            "correct": self.correct,
            "accuracy": self.accuracy,
            "cards_seen": self.cards_seen,
            "sessions": self.sessions,
            "reviews": self.reviews,
            "streak_days": self.streak_days,
            "study_days": self.study_days,
            "due_now": self.due_now,
            "forecast": self.forecast,
            "tags": [
                {"tag": t.tag, "attempts": t.attempts, "correct": t.correct, "accuracy": t.accuracy}
                for t in self.tags
            ],
            "weakest": [
                {"card": w.card_id, "lapses": w.lapses, "retrievability": w.retrievability}
                for w in self.weakest
            ],
            "calendar": self.calendar,
            "retention": {month: r.rate for month, r in self.retention.items()},
            "retention_by_tag": {tag: r.rate for tag, r in self.retention_by_tag.items()},
            "desired_retention": self.desired_retention,
        }


def lapses(reviews: Sequence[Review]) -> int:
    """Times a card was forgotten after it had first been reviewed.

    Args:
        reviews: The card's reviews, in any order (merged by ``quizzer sync``, rows
            arrive out of time order).

    Returns:
        How many reviews after the earliest (the lowest rating first at one time)
        were rated Again, as :meth:`Store.reviews_by_card` counts them.
    """
    ordered = sorted(reviews, key=lambda item: (item.at, item.rating))
    return sum(1 for item in ordered[1:] if item.rating == int(Rating.Again))


def report(
    store: Store,
    tags_by_card: Mapping[str, Sequence[str]],
    scheduler: Scheduler,
    now: datetime,
    *,
    weakest: int = 5,
    desired_retention: float = 0.9,
) -> Report:
    """The progress report: totals, streak, per-tag accuracy, forecast, weakest cards.

    Args:
        store: The progress store.
        tags_by_card: Each card's tags, by card id.
        scheduler: The FSRS scheduler (for retrievability).
        now: The current time (UTC).
        weakest: How many weakest cards to list.
        desired_retention: The retention the learner asked for, shown beside the achieved.

    Returns:
        Every figure of ``quizzer stats``; follow-up questions are left out.
    """
    # Everything is counted in SQLite: a heavy history (a million reviews and a
    # million attempts) took 1.2 GB and minutes when read into Python objects.
    answers = store.answers_by_card()
    by_tag: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for card_id, (n, right) in answers.items():
        for tag in tags_by_card.get(card_id, ()):
            by_tag[tag][0] += n
            by_tag[tag][1] += right
    days = {date.fromisoformat(day) for day in store.study_days()}
    # Follow-up questions (``card#follow-1``) are review items too, but the report is about cards.
    states = {k: v for k, v in store.fsrs_cards().items() if "#" not in k}
    reviewed = store.reviews_by_card()
    weak = [
        WeakCard(
            card_id,
            reviewed.get(card_id, (0, 0))[1],
            schedule.retrievability(scheduler, card_id, state, now),
        )
        for card_id, state in states.items()
    ]
    retained = calendar.retention_by_month_and_card(store, now)
    weak.sort(key=lambda w: (-w.lapses, w.retrievability if w.retrievability is not None else 1))
    return Report(
        attempts=sum(n for n, _ in answers.values()),
        correct=sum(right for _, right in answers.values()),
        cards_seen=len(answers),
        sessions=store.session_count(),
        reviews=sum(n for card_id, (n, _) in reviewed.items() if "#" not in card_id),
        streak_days=streak(days, now.date()),
        study_days=len(days),
        due_now=sum(1 for s in states.values() if due_time(s) <= now),
        forecast=schedule.forecast(states.values(), now),
        tags=sorted(
            (TagAccuracy(tag, n, right) for tag, (n, right) in by_tag.items()),
            key=lambda t: (t.accuracy, -t.attempts),
        ),
        weakest=weak[:weakest],
        calendar=calendar.reviews_per_day(store, now),
        retention=calendar.by_month(retained),
        retention_by_tag=calendar.by_tag(retained, tags_by_card),
        desired_retention=desired_retention,
        forecast_month=schedule.forecast(states.values(), now, FORECAST_MONTH),
    )


@dataclass(frozen=True)
class CardHistory:
    """One card's record (:func:`card_history`).

    Attributes:
        attempts: Its answers in time order: all, or the last few asked for.
        reviews: Its reviews in time order; empty when only the last answers were read.
        attempt_count: How many answers it has in all (``len(attempts)`` when all were read).
        review_count: How many reviews it has in all.
    """

    card_id: str
    attempts: list[Attempt]
    reviews: list[Review]
    due: datetime | None
    retrievability: float | None
    lapses: int
    attempt_count: int = 0
    review_count: int = 0


def card_history(
    store: Store, card_id: str, scheduler: Scheduler, now: datetime, *, last: int | None = None
) -> CardHistory:
    """One card's record: when it comes back, and every answer given to it.

    Args:
        store: The progress store.
        card_id: The card.
        scheduler: The FSRS scheduler (for retrievability).
        now: The current time (UTC).
        last: Read only the last this many answers, and count the reviews and
            lapses in SQL without reading them (the screen's ``stats CARD``: a
            heavy history has 4,800 answers and reviews a card, 0.4 s to read).

    Returns:
        Its attempts, reviews, due time, recall now and lapses (None where never reviewed).
    """
    state = store.fsrs_card(card_id)
    due = due_time(state) if state else None
    recall = schedule.retrievability(scheduler, card_id, state, now) if state else None
    if last is not None:
        attempts, attempt_count = last_attempts(store, card_id, last)
        review_count, lapse_count = store.reviews_by_card(card_id).get(card_id, (0, 0))
        return CardHistory(
            card_id, attempts, [], due, recall, lapse_count, attempt_count, review_count
        )
    # In time order, not row order: `quizzer sync` merges other devices' rows late, and
    # every device shows the same history (ties: by what was answered).
    reviews = sorted(store.reviews(card_id), key=lambda r: (r.at, r.rating))
    attempts = sorted(store.attempts(card_id), key=_attempt_order)
    return CardHistory(
        card_id=card_id,
        attempts=attempts,
        reviews=reviews,
        due=due,
        retrievability=recall,
        lapses=lapses(reviews),
        attempt_count=len(attempts),
        review_count=len(reviews),
    )


def _attempt_order(attempt: Attempt) -> tuple[datetime, str, int, str, bool]:
    return (attempt.at, attempt.blank, attempt.try_number, attempt.given, attempt.correct)


def last_attempts(store: Store, card_id: str, count: int) -> tuple[list[Attempt], int]:
    """The last ``count`` answers to ``card_id`` in time order (as :func:`card_history`
    sorts them all), and how many it has; only those rows become attempts.

    Every row at the cut-off time is read too, so answers sharing a moment are
    ordered by what was answered, as in the full history. Damaged rows are read
    as well, for the store to report them as any read does.
    """
    from quizzer.progress.stored import stored_time

    timed, damaged = [], []
    for row, text, sound in store.attempt_times(card_id):
        at = stored_time(text) if sound else None
        if at is None:
            damaged.append(row)
        else:
            timed.append((at, row))
    timed.sort()
    cut = timed[-min(count, len(timed))][0] if count > 0 and timed else None
    recent = [row for at, row in timed if cut is not None and at >= cut]
    read = sorted(store.each_attempt(card_id, rows=recent + damaged), key=_attempt_order)
    return (read[-count:] if count > 0 else []), len(timed)
