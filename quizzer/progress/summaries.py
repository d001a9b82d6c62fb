"""Totals kept beside the history: per card and per day, so reports never rescan it.

A heavy learner has a million attempts and a million reviews; counting them
again on every ``stats``, ``review`` or bare ``quizzer`` took seconds. Schema
step 6 -> 7 adds five summary tables, fills them from the rows already there
and keeps them right with triggers, so whatever writes the history (a live
answer, ``/override``, ``/undo``, a changed rating, ``progress import``, a
sync, a reset, a hand edit through SQLite) moves the totals in the same
transaction:

``answer_totals``   per card: valid attempts, correct ones, damaged rows
``answer_days``     per UTC day: valid attempts (the study days and the streak)
``review_totals``   per card: valid reviews, rated Again, damaged rows, the first one's id
``review_days``     per (UTC day, card): valid reviews, and the first of that day
                    (its id, time and rating): the calendar, true retention
``review_months``   per (month, card): days reviewed, and those whose first review
                    was not Again (kept from ``review_days`` by triggers of its own)

"Valid" is :data:`~quizzer.progress.stored.VALID_ATTEMPT_SQL` (and the review
one), the very test the streaming readers apply, so a damaged row is counted
as damaged here and skipped there, as before.

A trigger that deletes the first review of a card cannot cheaply find the
next one while a whole history is being deleted (``progress reset``), so it
leaves ``first_id`` NULL and the reader looks it up for that card alone.
A database whose history tables were rebuilt by another tool has lost the
triggers with them: :func:`repair` (run when the store opens) finds them
missing and rebuilds the totals from the rows.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from quizzer.progress.stored import VALID_ATTEMPT_SQL, VALID_REVIEW_SQL

_ATTEMPT_COLUMNS = ("card_id", "blank", "given", "correct", "try", "hints", "ms", "at")
_REVIEW_COLUMNS = ("card_id", "rating", "review_log", "at")


def _valid(test: str, columns: tuple[str, ...], row: str) -> str:
    """``test`` applied to the trigger's ``new`` or ``old`` row, as 0 or 1."""
    named = ", ".join(f"{row}.{column} AS {column}" for column in columns)
    return f"(SELECT {test} FROM (SELECT {named}))"


def _attempt_change(row: str, sign: str) -> str:
    """The statements adding (``+``) or taking away (``-``) one attempt row's counts."""
    valid = _valid(VALID_ATTEMPT_SQL, _ATTEMPT_COLUMNS, row)
    day = f"substr({row}.at, 1, 10)"
    # No upserts and no OR IGNORE: a trigger takes the conflict rule of the statement
    # that fired it (an INSERT OR REPLACE would turn an upsert into a replace).
    return f"""
    INSERT INTO answer_totals (card_id, attempts, correct, damaged)
        SELECT {row}.card_id, 0, 0, 0
        WHERE NOT EXISTS (SELECT 1 FROM answer_totals WHERE card_id IS {row}.card_id);
    UPDATE answer_totals SET
        attempts = attempts {sign} {valid},
        correct = correct {sign} ({valid} AND {row}.correct = 1),
        damaged = damaged {sign} (1 - {valid})
        WHERE card_id IS {row}.card_id;
    INSERT INTO answer_days (day, attempts) SELECT {day}, 0
        WHERE {valid} AND NOT EXISTS (SELECT 1 FROM answer_days WHERE day = {day});
    UPDATE answer_days SET attempts = attempts {sign} 1 WHERE {valid} AND day = {day};
    """


def _review_added(row: str) -> str:
    valid = _valid(VALID_REVIEW_SQL, _REVIEW_COLUMNS, row)
    day = f"substr({row}.at, 1, 10)"
    earlier = f"({row}.at, {row}.id) < (first_at, first_id)"
    return f"""
    INSERT INTO review_totals (card_id, reviews, again, damaged, first_id)
        SELECT {row}.card_id, 0, 0, 0, NULL
        WHERE NOT EXISTS (SELECT 1 FROM review_totals WHERE card_id IS {row}.card_id);
    UPDATE review_totals SET
        reviews = reviews + {valid},
        again = again + ({valid} AND {row}.rating = 1),
        damaged = damaged + (1 - {valid}),
        first_id = CASE WHEN {valid} AND reviews = 0 THEN {row}.id
            WHEN {valid} AND first_id > {row}.id THEN {row}.id ELSE first_id END
        WHERE card_id IS {row}.card_id;
    INSERT INTO review_days (day, card_id, reviews, first_id, first_at, first_rating)
        SELECT {day}, {row}.card_id, 0, {row}.id, {row}.at, {row}.rating
        WHERE {valid} AND NOT EXISTS
            (SELECT 1 FROM review_days WHERE day = {day} AND card_id = {row}.card_id);
    UPDATE review_days SET reviews = reviews + 1
        WHERE {valid} AND day = {day} AND card_id = {row}.card_id;
    UPDATE review_days SET first_rating = {row}.rating, first_id = {row}.id, first_at = {row}.at
        WHERE {valid} AND day = {day} AND card_id = {row}.card_id AND {earlier};
    """


def _review_removed(row: str) -> str:
    valid = _valid(VALID_REVIEW_SQL, _REVIEW_COLUMNS, row)
    day = f"substr({row}.at, 1, 10)"
    # The day's next first review: a range of one card's one day in reviews_by_card.
    following = (
        "(SELECT {what} FROM reviews INDEXED BY reviews_by_card"
        f" WHERE card_id = {row}.card_id AND at >= {day} AND at < date({day}, '+1 day')"
        f" AND {VALID_REVIEW_SQL} ORDER BY at, id LIMIT 1)"
    )
    return f"""
    UPDATE review_totals SET
        reviews = reviews - {valid},
        again = again - ({valid} AND {row}.rating = 1),
        damaged = damaged - (1 - {valid}),
        first_id = CASE WHEN first_id = {row}.id THEN NULL ELSE first_id END
        WHERE card_id IS {row}.card_id;
    DELETE FROM review_days
        WHERE {valid} AND day = {day} AND card_id = {row}.card_id AND reviews = 1;
    UPDATE review_days SET reviews = reviews - 1
        WHERE {valid} AND day = {day} AND card_id = {row}.card_id;
    UPDATE review_days SET
        first_rating = {following.format(what="rating")},
        first_at = {following.format(what="at")},
        first_id = {following.format(what="id")}
        WHERE {valid} AND day = {day} AND card_id = {row}.card_id AND first_id = {row}.id;
    """


def _day_change(row: str, sign: str) -> str:
    """A card's day counted in (``+``) or out of (``-``) its month's retention figures."""
    month = f"substr({row}.day, 1, 7)"
    key = f"month = {month} AND card_id = {row}.card_id"
    recalled = f"({row}.first_rating > 1)"
    return f"""
    INSERT INTO review_months (month, card_id, days, recalled) SELECT {month}, {row}.card_id, 0, 0
        WHERE NOT EXISTS (SELECT 1 FROM review_months WHERE {key});
    UPDATE review_months SET days = days {sign} 1, recalled = recalled {sign} {recalled}
        WHERE {key};
    """


def _trigger(name: str, event: str, table: str, body: str) -> str:
    return f"CREATE TRIGGER {name} AFTER {event} ON {table} BEGIN {body} END;\n"


#: Every trigger of the summaries, by name: :func:`repair` checks they are all there.
TRIGGERS = {
    "summary_attempt_added": _trigger(
        "summary_attempt_added", "INSERT", "attempts", _attempt_change("new", "+")
    ),
    "summary_attempt_removed": _trigger(
        "summary_attempt_removed", "DELETE", "attempts", _attempt_change("old", "-")
    ),
    "summary_attempt_changed": _trigger(
        "summary_attempt_changed",
        "UPDATE OF card_id, blank, given, correct, try, hints, ms, at",
        "attempts",
        _attempt_change("old", "-") + _attempt_change("new", "+"),
    ),
    "summary_review_added": _trigger(
        "summary_review_added", "INSERT", "reviews", _review_added("new")
    ),
    "summary_review_removed": _trigger(
        "summary_review_removed", "DELETE", "reviews", _review_removed("old")
    ),
    # Of a row's columns only these count here: the session or the undone mark does not.
    "summary_review_changed": _trigger(
        "summary_review_changed",
        "UPDATE OF id, card_id, rating, review_log, at",
        "reviews",
        _review_removed("old") + _review_added("new"),
    ),
    # The months follow the days: a day's first review is what true retention counts.
    "summary_day_added": _trigger(
        "summary_day_added", "INSERT", "review_days", _day_change("new", "+")
    ),
    "summary_day_removed": _trigger(
        "summary_day_removed", "DELETE", "review_days", _day_change("old", "-")
    ),
    "summary_day_changed": _trigger(
        "summary_day_changed",
        "UPDATE OF day, card_id, first_rating",
        "review_days",
        _day_change("old", "-") + _day_change("new", "+"),
    ),
}

_TABLES = """
CREATE TABLE answer_totals (
    card_id PRIMARY KEY,
    attempts INTEGER NOT NULL,
    correct INTEGER NOT NULL,
    damaged INTEGER NOT NULL
);
CREATE TABLE answer_days (day TEXT PRIMARY KEY, attempts INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE review_totals (
    card_id PRIMARY KEY,
    reviews INTEGER NOT NULL,
    again INTEGER NOT NULL,
    damaged INTEGER NOT NULL,
    first_id INTEGER
);
CREATE TABLE review_days (
    day TEXT NOT NULL,
    card_id TEXT NOT NULL,
    reviews INTEGER NOT NULL,
    first_id INTEGER NOT NULL,
    first_at TEXT NOT NULL,
    first_rating INTEGER NOT NULL,
    PRIMARY KEY (day, card_id)
) WITHOUT ROWID;
CREATE INDEX review_days_by_card ON review_days(card_id, day);
CREATE TABLE review_months (
    month TEXT NOT NULL,
    card_id TEXT NOT NULL,
    days INTEGER NOT NULL,
    recalled INTEGER NOT NULL,
    PRIMARY KEY (month, card_id)
) WITHOUT ROWID;
"""

#: Fill the (empty) tables from the rows there: the migration's backfill and the repair.
FILL = f"""
INSERT INTO answer_totals (card_id, attempts, correct, damaged)
    SELECT card_id, sum(valid), sum(valid AND correct = 1), count(*) - sum(valid)
    FROM (SELECT card_id, correct, {VALID_ATTEMPT_SQL} AS valid FROM attempts NOT INDEXED)
    GROUP BY card_id;
INSERT INTO answer_days (day, attempts)
    SELECT substr(at, 1, 10), count(*) FROM attempts NOT INDEXED WHERE {VALID_ATTEMPT_SQL}
    GROUP BY 1;
INSERT INTO review_totals (card_id, reviews, again, damaged, first_id)
    SELECT card_id, sum(valid), sum(valid AND rating = 1), count(*) - sum(valid),
        min(CASE WHEN valid THEN id END)
    FROM (SELECT id, card_id, rating, {VALID_REVIEW_SQL} AS valid FROM reviews NOT INDEXED)
    GROUP BY card_id;
INSERT INTO review_days (day, card_id, reviews, first_id, first_at, first_rating)
    SELECT day, card_id, n, id, at, rating FROM (
        SELECT substr(at, 1, 10) AS day, card_id, id, at, rating,
            count(*) OVER (PARTITION BY card_id, substr(at, 1, 10)) AS n,
            row_number() OVER (PARTITION BY card_id, substr(at, 1, 10) ORDER BY at, id) AS nth
        FROM reviews NOT INDEXED WHERE {VALID_REVIEW_SQL}
    ) WHERE nth = 1;
INSERT INTO review_months (month, card_id, days, recalled)
    SELECT substr(day, 1, 7), card_id, count(*), sum(first_rating > 1) FROM review_days
    GROUP BY 1, 2;
"""

#: Schema step 6 -> 7 (the triggers last, as in :func:`repair`).
SUMMARY_SCHEMA = _TABLES + FILL + "".join(TRIGGERS.values())


def missing_triggers(db: sqlite3.Connection) -> bool:
    """Whether any summary trigger is gone (the history tables were rebuilt elsewhere)."""
    found = db.execute(
        "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"
        f" AND name IN ({', '.join('?' * len(TRIGGERS))})",
        tuple(TRIGGERS),
    ).fetchone()[0]
    return bool(found != len(TRIGGERS))


def repair(db: sqlite3.Connection, run: Callable[[str], Any]) -> None:
    """Recreate the triggers and refill the totals, inside the caller's transaction.

    ``run`` executes a script one statement at a time (the migrations' splitter).
    """
    for name in TRIGGERS:
        db.execute(f"DROP TRIGGER IF EXISTS {name}")
    for table in ("answer_totals", "answer_days", "review_totals", "review_days", "review_months"):
        db.execute(f"DELETE FROM {table}")
    # Filled before the triggers exist: the months' triggers would count the days twice.
    run(FILL + "".join(TRIGGERS.values()))


def shadow(run: Callable[[str], Any]) -> None:
    """The totals as temporary tables over a read-only file whose triggers are gone.

    Temporary tables come first in SQLite's name lookup, so every reader finds
    these in place of the stale ones, and the file is never written.
    """
    script = _TABLES.replace("CREATE TABLE ", "CREATE TEMP TABLE ").replace(
        "CREATE INDEX ", "CREATE INDEX temp."
    )
    run(script + FILL)
