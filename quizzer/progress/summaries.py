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


def _attempt_change(row: str, sign: str, valid: str) -> str:
    """The statements adding (``+``) or taking away (``-``) one attempt row's counts.

    ``valid`` is whether the row is sound: ``1`` or ``0`` in a trigger whose WHEN
    has tested it already, else the test itself (see :func:`_split`).
    """
    day = f"substr({row}.at, 1, 10)"
    # No upserts and no OR IGNORE: a trigger takes the conflict rule of the statement
    # that fired it (an INSERT OR REPLACE would turn an upsert into a replace).
    return f"""
    INSERT INTO answer_totals (card_id, attempts, correct, damaged)
        SELECT {row}.card_id, 0, 0, 0
        WHERE NOT EXISTS (SELECT 1 FROM answer_totals WHERE card_id = {row}.card_id);
    UPDATE answer_totals SET
        attempts = attempts {sign} {valid},
        correct = correct {sign} ({valid} AND {row}.correct = 1),
        damaged = damaged {sign} (1 - {valid})
        WHERE card_id = {row}.card_id;
    INSERT INTO answer_days (day, attempts) SELECT {day}, 0
        WHERE {valid} AND NOT EXISTS (SELECT 1 FROM answer_days WHERE day = {day});
    UPDATE answer_days SET attempts = attempts {sign} 1 WHERE {valid} AND day = {day};
    """


def _review_added(row: str, valid: str) -> str:
    day = f"substr({row}.at, 1, 10)"
    earlier = f"({row}.at, {row}.id) < (first_at, first_id)"
    return f"""
    INSERT INTO review_totals (card_id, reviews, again, damaged, first_id)
        SELECT {row}.card_id, 0, 0, 0, NULL
        WHERE NOT EXISTS (SELECT 1 FROM review_totals WHERE card_id = {row}.card_id);
    UPDATE review_totals SET
        reviews = reviews + {valid},
        again = again + ({valid} AND {row}.rating = 1),
        damaged = damaged + (1 - {valid}),
        first_id = CASE WHEN {valid} AND reviews = 0 THEN {row}.id
            WHEN {valid} AND first_id > {row}.id THEN {row}.id ELSE first_id END
        WHERE card_id = {row}.card_id;
    INSERT INTO review_days (day, card_id, reviews, first_id, first_at, first_rating)
        SELECT {day}, {row}.card_id, 0, {row}.id, {row}.at, {row}.rating
        WHERE {valid} AND NOT EXISTS
            (SELECT 1 FROM review_days WHERE day = {day} AND card_id = {row}.card_id);
    UPDATE review_days SET reviews = reviews + 1
        WHERE {valid} AND day = {day} AND card_id = {row}.card_id;
    UPDATE review_days SET first_rating = {row}.rating, first_id = {row}.id, first_at = {row}.at
        WHERE {valid} AND day = {day} AND card_id = {row}.card_id AND {earlier};
    """


def _review_removed(row: str, valid: str) -> str:
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
        WHERE card_id = {row}.card_id;
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


def _trigger(name: str, event: str, table: str, body: str, when: str = "") -> str:
    # Every trigger stands aside while a bulk merge counts its rows itself (see added_in_bulk).
    condition = "NOT EXISTS (SELECT 1 FROM summary_pause)" + (f" AND {when}" if when else "")
    return f"CREATE TRIGGER {name} AFTER {event} ON {table} WHEN {condition} BEGIN {body} END;\n"


def _split(
    name: str, event: str, table: str, body: Callable[[str], str], test: str
) -> dict[str, str]:
    """Two triggers for one event, one for sound rows and one for damaged ones.

    The row is tested once, in each trigger's WHEN, and each body sees a constant:
    testing it in every statement made an insert six times slower.
    """
    return {
        name: _trigger(name, event, table, body("1"), test),
        f"{name}_damaged": _trigger(f"{name}_damaged", event, table, body("0"), f"NOT {test}"),
    }


_NEW_ATTEMPT = _valid(VALID_ATTEMPT_SQL, _ATTEMPT_COLUMNS, "new")
_OLD_ATTEMPT = _valid(VALID_ATTEMPT_SQL, _ATTEMPT_COLUMNS, "old")
_NEW_REVIEW = _valid(VALID_REVIEW_SQL, _REVIEW_COLUMNS, "new")
_OLD_REVIEW = _valid(VALID_REVIEW_SQL, _REVIEW_COLUMNS, "old")

#: Every trigger of the summaries, by name: :func:`repair` checks they are all there.
TRIGGERS = {
    **_split(
        "summary_attempt_added",
        "INSERT",
        "attempts",
        lambda valid: _attempt_change("new", "+", valid),
        _NEW_ATTEMPT,
    ),
    **_split(
        "summary_attempt_removed",
        "DELETE",
        "attempts",
        lambda valid: _attempt_change("old", "-", valid),
        _OLD_ATTEMPT,
    ),
    # A changed row (rare: /override, /undo's mark, a hand edit) tests both rows inline.
    "summary_attempt_changed": _trigger(
        "summary_attempt_changed",
        "UPDATE OF card_id, blank, given, correct, try, hints, ms, at",
        "attempts",
        _attempt_change("old", "-", _OLD_ATTEMPT) + _attempt_change("new", "+", _NEW_ATTEMPT),
    ),
    **_split(
        "summary_review_added",
        "INSERT",
        "reviews",
        lambda v: _review_added("new", v),
        _NEW_REVIEW,
    ),
    **_split(
        "summary_review_removed",
        "DELETE",
        "reviews",
        lambda v: _review_removed("old", v),
        _OLD_REVIEW,
    ),
    # Of a row's columns only these count here: the session or the undone mark does not.
    "summary_review_changed": _trigger(
        "summary_review_changed",
        "UPDATE OF id, card_id, rating, review_log, at",
        "reviews",
        _review_removed("old", _OLD_REVIEW) + _review_added("new", _NEW_REVIEW),
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
CREATE TABLE summary_pause (paused INTEGER);
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


_BULK = f"""
INSERT INTO answer_totals (card_id, attempts, correct, damaged)
    SELECT * FROM (
        SELECT card_id, sum(valid), sum(valid AND correct = 1), count(*) - sum(valid) FROM (
            SELECT card_id, correct, {VALID_ATTEMPT_SQL} AS valid FROM attempts WHERE id > :attempts
        ) GROUP BY card_id
    ) WHERE true
    ON CONFLICT (card_id) DO UPDATE SET attempts = attempts + excluded.attempts,
        correct = correct + excluded.correct, damaged = damaged + excluded.damaged;
INSERT INTO answer_days (day, attempts)
    SELECT * FROM (
        SELECT substr(at, 1, 10), count(*) FROM attempts
        WHERE id > :attempts AND {VALID_ATTEMPT_SQL} GROUP BY 1
    ) WHERE true
    ON CONFLICT (day) DO UPDATE SET attempts = attempts + excluded.attempts;
INSERT INTO review_totals (card_id, reviews, again, damaged, first_id)
    SELECT * FROM (
        SELECT card_id, sum(valid), sum(valid AND rating = 1), count(*) - sum(valid),
            min(CASE WHEN valid THEN id END) FROM (
            SELECT id, card_id, rating, {VALID_REVIEW_SQL} AS valid FROM reviews WHERE id > :reviews
        ) GROUP BY card_id
    ) WHERE true
    ON CONFLICT (card_id) DO UPDATE SET reviews = reviews + excluded.reviews,
        again = again + excluded.again, damaged = damaged + excluded.damaged,
        first_id = CASE WHEN reviews = 0 THEN excluded.first_id ELSE first_id END;
CREATE TEMP TABLE summary_added_days AS
    SELECT day, card_id, n, id, at, rating FROM (
        SELECT substr(at, 1, 10) AS day, card_id, id, at, rating,
            count(*) OVER (PARTITION BY card_id, substr(at, 1, 10)) AS n,
            row_number() OVER (PARTITION BY card_id, substr(at, 1, 10) ORDER BY at, id) AS nth
        FROM reviews WHERE id > :reviews AND {VALID_REVIEW_SQL}
    ) WHERE nth = 1;
INSERT INTO review_days (day, card_id, reviews, first_id, first_at, first_rating)
    SELECT day, card_id, n, id, at, rating FROM temp.summary_added_days WHERE true
    ON CONFLICT (day, card_id) DO UPDATE SET reviews = reviews + excluded.reviews,
        first_rating = CASE WHEN (excluded.first_at, excluded.first_id) < (first_at, first_id)
            THEN excluded.first_rating ELSE first_rating END,
        first_id = CASE WHEN (excluded.first_at, excluded.first_id) < (first_at, first_id)
            THEN excluded.first_id ELSE first_id END,
        first_at = CASE WHEN (excluded.first_at, excluded.first_id) < (first_at, first_id)
            THEN excluded.first_at ELSE first_at END;
CREATE TEMP TABLE summary_added_months AS
    SELECT DISTINCT substr(day, 1, 7) AS month, card_id FROM temp.summary_added_days;
DELETE FROM review_months
    WHERE (month, card_id) IN (SELECT month, card_id FROM temp.summary_added_months);
INSERT INTO review_months (month, card_id, days, recalled)
    SELECT m.month, m.card_id, count(*), sum(d.first_rating > 1)
    FROM temp.summary_added_months AS m
    JOIN review_days AS d INDEXED BY review_days_by_card
        ON d.card_id = m.card_id AND d.day >= m.month AND d.day < m.month || '-99'
    GROUP BY 1, 2;
DROP TABLE temp.summary_added_days;
DROP TABLE temp.summary_added_months;
DELETE FROM summary_pause;
"""


def pause(db: sqlite3.Connection) -> tuple[int, int]:
    """Stand the triggers aside for a bulk insert, in the caller's transaction.

    Returns the highest attempt and review ids before it, for :func:`added_in_bulk`.
    A million rows cost a trigger's work each (40 µs a review on a loaded machine);
    counted together after the insert they cost a few GROUP BYs.
    """
    db.execute("INSERT INTO summary_pause (paused) VALUES (1)")
    attempts = db.execute("SELECT coalesce(max(id), 0) FROM attempts").fetchone()[0]
    reviews = db.execute("SELECT coalesce(max(id), 0) FROM reviews").fetchone()[0]
    return int(attempts), int(reviews)


def added_in_bulk(db: sqlite3.Connection, before: tuple[int, int]) -> None:
    """Count the rows inserted since :func:`pause` into the totals; the triggers resume.

    Only inserts may happen in between (an import's merge): each new row has an id
    above ``before``, so the totals grow by what those rows hold, and each day or
    month they touch is counted again from its rows.
    """
    for statement in _BULK_STATEMENTS:
        db.execute(statement, {"attempts": before[0], "reviews": before[1]})


# No trigger and no literal ";" in it: the script splits at each ";".
_BULK_STATEMENTS = [part.strip() for part in _BULK.split(";") if part.strip()]
