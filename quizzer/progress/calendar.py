"""Stats over time, counted in SQLite: reviews per day, achieved retention by month and card.

Both read a range of the ``reviews_by_time`` index (the last 26 weeks, the last
12 months), never the whole history: a heavy learner has a million reviews.

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

    Days without a review are absent.
    """
    rows = _by_time(
        store,
        "SELECT substr(at, 1, 10), count(*) FROM reviews {by_time}"
        f" WHERE at >= ? AND at <= ? AND {VALID_REVIEW_SQL} GROUP BY 1 ORDER BY 1",
        (iso(calendar_start(now, weeks)), iso(now)),
    )
    return {str(day): int(n) for day, n in rows}


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
    """True retention of each (month ``YYYY-MM``, card) over the last ``months`` months."""
    rows = _by_time(
        store,
        "SELECT month, card_id, count(*), sum(rating > 1) FROM ("
        " SELECT substr(at, 1, 7) AS month, card_id, rating, substr(at, 1, 10) AS day,"
        "  lag(substr(at, 1, 10)) OVER (PARTITION BY card_id ORDER BY at, id) AS before"
        " FROM reviews {by_time}"
        f" WHERE at >= ? AND at <= ? AND {VALID_REVIEW_SQL})"
        " WHERE before IS NOT NULL AND day > before GROUP BY month, card_id",
        (iso(_month_start(now, months)), iso(now)),
    )
    return {(str(m), str(c)): Retention(int(n), int(r)) for m, c, n, r in rows}


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
