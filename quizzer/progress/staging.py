"""Staging a backup beside the progress database, and merging it in one transaction.

A backup is checked and staged in temporary tables first (on disk, so a
million rows do not sit in memory), then merged: rows the store lacks are
added, all or nothing, and importing the same backup again adds nothing.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from quizzer.progress import summaries
from quizzer.progress.database import operational, transaction
from quizzer.progress.migrations import statements
from quizzer.progress.stored import iso

if TYPE_CHECKING:
    from fsrs.card import CardDict

    from quizzer.progress.parameters import SavedParameters
    from quizzer.progress.store import Store


@contextmanager
def staging(store: Store) -> Iterator[Staging]:
    """Temporary tables to stage a backup in, merged by :meth:`Staging.merge`.

    Staging touches only this connection's temporary database and takes no
    lock on the progress file: a backup is read and checked while other
    quizzer processes keep writing.
    """
    db = store.connection
    try:
        db.execute("PRAGMA temp_store = FILE")
        for statement in statements(_STAGING_TABLES):
            db.execute(statement)
    except sqlite3.Error as error:
        raise operational(store.path, error) from None
    try:
        yield Staging(store)
    finally:
        for table in ("import_attempts", "import_reviews", "import_schedule"):
            db.execute(f"DROP TABLE IF EXISTS temp.{table}")


#: The columns of the rows :meth:`Staging.add` takes: times as :func:`iso` writes them.
IMPORT_COLUMNS = {
    "attempts": ("card_id", "blank", "given", "correct", "try", "hints", "ms", "at", "overridden"),
    "reviews": ("card_id", "rating", "review_log", "at"),
}

_STAGING_TABLES = """
CREATE TEMP TABLE import_attempts (
    seq INTEGER PRIMARY KEY, card_id TEXT, blank TEXT, given TEXT, correct INTEGER,
    try INTEGER, hints INTEGER, ms INTEGER, at TEXT, overridden INTEGER
);
CREATE TEMP TABLE import_reviews (
    seq INTEGER PRIMARY KEY, card_id TEXT, rating INTEGER, review_log TEXT, at TEXT
);
CREATE TEMP TABLE import_schedule (card_id TEXT PRIMARY KEY, fsrs_card TEXT)
"""

# An imported row is new when the store holds fewer rows with its key than the backup
# has up to and including it, so genuine repeats within one backup are kept and a
# second import adds nothing. The keys are what the store keeps: times at its precision.
_MERGE_ATTEMPTS = """
INSERT INTO main.attempts
    (session_id, card_id, blank, given, correct, try, hints, ms, at, overridden)
SELECT :session, card_id, blank, given, correct, try, hints, ms, at, overridden FROM (
    SELECT *, row_number() OVER (PARTITION BY card_id, blank, given, at ORDER BY seq) AS nth
    FROM temp.import_attempts
) AS s
WHERE nth > (
    SELECT count(*) FROM main.attempts AS a
    WHERE a.card_id = s.card_id AND a.at = s.at AND a.blank = s.blank AND a.given = s.given
)
ORDER BY seq
"""
_MERGE_REVIEWS = """
INSERT INTO main.reviews (session_id, card_id, rating, review_log, at)
SELECT :session, card_id, rating, review_log, at FROM (
    SELECT *, row_number() OVER (PARTITION BY card_id, at ORDER BY seq) AS nth
    FROM temp.import_reviews
) AS s
WHERE nth > (SELECT count(*) FROM main.reviews AS r WHERE r.card_id = s.card_id AND r.at = s.at)
ORDER BY seq
"""
# A card's schedule comes from the backup only when the backup reviewed it more recently.
# FSRS writes last_review as ISO 8601 in UTC, so the strings compare as the times do.
_MERGE_SCHEDULE = """
INSERT INTO main.schedule (card_id, fsrs_card, updated_at)
SELECT card_id, fsrs_card, :now FROM temp.import_schedule WHERE true
ON CONFLICT (card_id) DO UPDATE SET
    fsrs_card = excluded.fsrs_card, updated_at = excluded.updated_at
WHERE coalesce(json_extract(excluded.fsrs_card, '$.last_review'), '')
    > coalesce(json_extract(schedule.fsrs_card, '$.last_review'), '')
"""


@dataclass(frozen=True)
class Merged:
    """What an import added to the store."""

    attempts: int
    reviews: int
    schedules: int


class Staging:
    """Rows of a backup waiting to be merged; see :meth:`Store.staging`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add(
        self,
        attempts: list[tuple[object, ...]],
        reviews: list[tuple[object, ...]],
        schedule: Sequence[tuple[str, CardDict]] = (),
    ) -> None:
        """Stage a batch of checked rows, in the columns of :data:`IMPORT_COLUMNS`.

        Rows rather than :class:`Attempt` objects: a million of them are staged
        in an import, and times arrive already in the store's text form.
        ``schedule`` holds (card id, FSRS state) pairs; a later state for the
        same card replaces an earlier one.
        """
        try:
            # One transaction per batch: in autocommit mode each row would be its own.
            # Only the temporary tables are written, so no lock on the store is taken.
            with transaction(self.store.connection, immediate=False) as db:
                self._insert(db, attempts, reviews, schedule)
        except sqlite3.Error as error:
            raise operational(self.store.path, error) from None

    @staticmethod
    def _insert(
        db: sqlite3.Connection,
        attempts: list[tuple[object, ...]],
        reviews: list[tuple[object, ...]],
        schedule: Sequence[tuple[str, CardDict]],
    ) -> None:
        db.executemany(
            "INSERT INTO temp.import_attempts"
            " (card_id, blank, given, correct, try, hints, ms, at, overridden)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            attempts,
        )
        db.executemany(
            "INSERT INTO temp.import_reviews (card_id, rating, review_log, at) VALUES (?, ?, ?, ?)",
            reviews,
        )
        db.executemany(
            "INSERT OR REPLACE INTO temp.import_schedule (card_id, fsrs_card) VALUES (?, ?)",
            [(card_id, json.dumps(state)) for card_id, state in schedule],
        )

    def merge(
        self,
        now: datetime,
        settings: Sequence[tuple[str, str]] = (),
        parameters: SavedParameters | None = None,
    ) -> Merged:
        """Add what the store lacks, in one transaction that also runs the duplicate check.

        Concurrent imports of one backup therefore add it once. New attempts and
        reviews belong to one "import" session, which exists only if they do.
        ``settings`` (checked name, text pairs) replace the saved ones, and
        ``parameters`` (``optimize``'s fit) the saved fit if fitted later, in the
        same transaction, so a failed import changes neither.
        """
        with self.store.writing() as db:
            if parameters is not None:
                from quizzer.progress.parameters import restore_parameters

                restore_parameters(db, parameters)
            db.executemany(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                settings,
            )
            session = db.execute(
                "INSERT INTO sessions (mode, started_at, ended_at) VALUES ('import', ?, ?)",
                (iso(now), iso(now)),
            ).lastrowid
            # The totals of what is merged are counted together, not row by row.
            before = summaries.pause(db)
            attempts = db.execute(_MERGE_ATTEMPTS, {"session": session}).rowcount
            reviews = db.execute(_MERGE_REVIEWS, {"session": session}).rowcount
            summaries.added_in_bulk(db, before)
            schedules = db.execute(_MERGE_SCHEDULE, {"now": iso(now)}).rowcount
            if not attempts and not reviews:
                db.execute("DELETE FROM sessions WHERE id = ?", (session,))
        return Merged(attempts, reviews, schedules)
