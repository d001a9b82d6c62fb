"""Stats over time, counted in SQLite: reviews per day, achieved retention by month and card.

Both read a range of the per-day totals (``review_days``, kept by triggers:
:mod:`quizzer.progress.summaries`), the last 26 weeks or 12 months, never the
history itself: a heavy learner has a million reviews.

True retention is Anki's: of the reviews of a card last reviewed on an earlier
day, the share not rated Again. A card's first review in the window has no
earlier review in it and is not counted.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Protocol

from quizzer.progress.stored import VALID_REVIEW_SQL, iso


class Store(Protocol):
    """What is read here: the store's connection (the store itself calls this module)."""

    connection: sqlite3.Connection


CALENDAR_WEEKS = 26
RETENTION_MONTHS = 12


def _by_time(store: Store, query: str, args: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """Run ``query`` on the reviews by time; ``{by_time}`` names the index.

    Without the name SQLite scans the card index instead (it has no statistics to
    tell it a few months are a small part); a read-only copy of an older file has
    no such index, and is read with a scan.
    """
    try:
        return store.connection.execute(
            query.format(by_time="INDEXED BY reviews_by_time"), args
        ).fetchall()
    except sqlite3.OperationalError as error:
        if "no such index" not in str(error):
            raise
        return store.connection.execute(query.format(by_time=""), args).fetchall()


def first_reviews_on(store: Store, day: str) -> int:
    """Cards first reviewed on the UTC date ``day``: reviewed that day, never before.

    The day's reviews by time, each card looked up in the card index: a handful of
    rows, where "each card's first review" was a pass over the whole history.
    """
    start = date.fromisoformat(day)
    rows = _by_time(
        store,
        "SELECT count(DISTINCT card_id) FROM reviews AS today {by_time}"
        f" WHERE at >= ? AND at < ? AND {VALID_REVIEW_SQL} AND NOT EXISTS ("
        " SELECT 1 FROM reviews AS earlier INDEXED BY reviews_by_card"
        f" WHERE earlier.card_id = today.card_id AND earlier.at < ? AND {VALID_REVIEW_SQL})",
        (start.isoformat(), (start + timedelta(days=1)).isoformat(), start.isoformat()),
    )
    return int(rows[0][0])


def calendar_start(now: datetime, weeks: int = CALENDAR_WEEKS) -> datetime:
    """Midnight UTC of the Monday ``weeks - 1`` weeks before this week's."""
    monday = now.replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=now.weekday())
    return monday - timedelta(weeks=weeks - 1)


def reviews_per_day(store: Store, now: datetime, weeks: int = CALENDAR_WEEKS) -> dict[str, int]:
    """Reviews on each UTC day (``YYYY-MM-DD``) of the last ``weeks`` calendar weeks.

    Days before today come from the per-day totals; today's reviews up to ``now``
    are counted from the rows (a few at most). Days without a review are absent.
    """
    today = now.date().isoformat()
    rows = store.connection.execute(
        "SELECT day, sum(reviews) FROM review_days WHERE day >= ? AND day < ?"
        " GROUP BY day ORDER BY day",
        (calendar_start(now, weeks).date().isoformat(), today),
    ).fetchall()
    counts = {str(day): int(n) for day, n in rows}
    (now_count,) = _by_time(
        store,
        "SELECT count(*) FROM reviews {by_time}"
        f" WHERE at >= ? AND at <= ? AND {VALID_REVIEW_SQL}",
        (today, iso(now)),
    )[0]
    if now_count:
        counts[today] = int(now_count)
    return counts


@dataclass(frozen=True)
class Retention:
    """Reviews of cards in review (``reviewed``) and how many were recalled."""

    reviewed: int
    recalled: int

    @property
    def rate(self) -> float | None:
        return self.recalled / self.reviewed if self.reviewed else None


def _month_start(now: datetime, months: int) -> datetime:
    year, month = now.year, now.month - (months - 1)
    while month < 1:
        year, month = year - 1, month + 12
    return now.replace(year=year, month=month, day=1, hour=0, minute=0, second=0, microsecond=0)


def retention_by_month_and_card(
    store: Store, now: datetime, months: int = RETENTION_MONTHS
) -> dict[tuple[str, str], Retention]:
    """True retention of each (month ``YYYY-MM``, card) over the last ``months`` months.

    A review counts when it is a card's first of its day and the card was reviewed
    on an earlier day of the window (from the month's start to ``now``). The
    monthly totals count every day's first review; taken from them are each
    card's first day in the window, and days whose first review is after ``now``.
    """
    start = _month_start(now, months).date().isoformat()
    figures = {
        (str(month), str(card)): [int(days), int(recalled)]
        for month, card, days, recalled in store.connection.execute(
            "SELECT month, card_id, days, recalled FROM review_months WHERE month >= ?",
            (start[:7],),
        )
    }
    outside = store.connection.execute(
        # Days from today on whose first review comes after now: a few rows at most.
        "SELECT day, card_id, first_rating FROM review_days WHERE day >= ? AND first_at > ?"
        " UNION ALL"
        # Each card's first day in the window (from its index: one step per card),
        # unless that day is after now, and so taken out above already.
        " SELECT d.day, d.card_id, d.first_rating FROM review_totals AS t"
        " CROSS JOIN review_days AS d ON d.card_id = t.card_id AND d.day = (SELECT min(day)"
        "  FROM review_days AS e INDEXED BY review_days_by_card"
        "  WHERE e.card_id = t.card_id AND e.day >= ?) WHERE d.first_at <= ?",
        (now.date().isoformat(), iso(now), start, iso(now)),
    )
    for day, card, rating in outside:
        figure = figures.get((str(day)[:7], str(card)))
        if figure is not None:
            figure[0] -= 1
            figure[1] -= rating > 1
    return {key: Retention(n, r) for key, (n, r) in figures.items() if n > 0}


def by_month(figures: Mapping[tuple[str, str], Retention]) -> dict[str, Retention]:
    """Retention by month over every card (follow-up questions included), oldest first."""
    months: dict[str, list[int]] = {}
    for (month, _), figure in figures.items():
        total = months.setdefault(month, [0, 0])
        total[0] += figure.reviewed
        total[1] += figure.recalled
    return {m: Retention(n, r) for m, (n, r) in sorted(months.items())}


def by_tag(
    figures: Mapping[tuple[str, str], Retention], tags_by_card: Mapping[str, Sequence[str]]
) -> dict[str, Retention]:
    """Retention by tag over the months counted (a follow-up counts with its card's tags)."""
    tags: dict[str, list[int]] = {}
    for (_, card_id), figure in figures.items():
        for tag in tags_by_card.get(card_id.split("#")[0], ()):
            total = tags.setdefault(tag, [0, 0])
            total[0] += figure.reviewed
            total[1] += figure.recalled
    return {t: Retention(n, r) for t, (n, r) in sorted(tags.items())}
