"""The progress database's schema, as the steps that take any older file forward.

The schema version lives in ``PRAGMA user_version``. To change the schema,
append one step to :data:`MIGRATIONS` (never edit a step that has shipped):
a new file runs them all, an older file the ones it lacks, in one transaction.
"""

from __future__ import annotations

import sqlite3

from quizzer.progress.summaries import SUMMARY_SCHEMA
from quizzer.progress.sync_schema import SYNC_SCHEMA

#: Each entry takes the schema from version ``index`` to ``index + 1``.
MIGRATIONS: list[str] = [
    # 0 -> 1: sessions and attempts
    """
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY,
        mode TEXT NOT NULL,
        started_at TEXT NOT NULL,
        ended_at TEXT
    );
    CREATE TABLE attempts (
        id INTEGER PRIMARY KEY,
        session_id INTEGER REFERENCES sessions(id),
        card_id TEXT NOT NULL,
        blank TEXT NOT NULL,
        given TEXT NOT NULL,
        correct INTEGER NOT NULL,
        try INTEGER NOT NULL,
        hints INTEGER NOT NULL,
        ms INTEGER NOT NULL,
        at TEXT NOT NULL
    );
    CREATE INDEX attempts_by_card ON attempts(card_id, at);
    """,
    # 1 -> 2: spaced repetition. One FSRS card per quizzer card (its to_dict() JSON),
    # every review log, and the answers each card had when it was last reviewed.
    """
    CREATE TABLE schedule (
        card_id TEXT PRIMARY KEY,
        fsrs_card TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE reviews (
        id INTEGER PRIMARY KEY,
        session_id INTEGER REFERENCES sessions(id),
        card_id TEXT NOT NULL,
        rating INTEGER NOT NULL,
        review_log TEXT NOT NULL,
        at TEXT NOT NULL
    );
    CREATE INDEX reviews_by_card ON reviews(card_id, at);
    CREATE TABLE answer_fingerprints (
        card_id TEXT NOT NULL,
        blank TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        answer TEXT NOT NULL,
        PRIMARY KEY (card_id, blank)
    );
    """,
    # 2 -> 3: an answer the judge rejected but the learner counted as right (`/override`)
    # keeps correct = 1 and says so, so stats and `overrides` can tell the two apart.
    """
    ALTER TABLE attempts ADD COLUMN overridden INTEGER NOT NULL DEFAULT 0
        CHECK (overridden IN (0, 1));
    """,
    # 3 -> 4: the daily loop. An answer shown with `!` is a wrong attempt that says so;
    # `/undo` marks the attempts of a taken-back review; cards set aside
    # (quizzer.progress.flags); the learner's settings (quizzer.progress.settings).
    """
    ALTER TABLE attempts ADD COLUMN revealed INTEGER NOT NULL DEFAULT 0
        CHECK (revealed IN (0, 1));
    ALTER TABLE attempts ADD COLUMN undone INTEGER NOT NULL DEFAULT 0
        CHECK (undone IN (0, 1));
    CREATE TABLE card_flags (
        card_id TEXT PRIMARY KEY,
        suspended INTEGER NOT NULL DEFAULT 0 CHECK (suspended IN (0, 1)),
        buried_until TEXT
    );
    CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 4 -> 5: the FSRS parameters `quizzer optimize` fitted to this learner (one row; none:
    # FSRS's defaults; kept apart from the settings: they are fitted, not chosen), and
    # reviews by time: stats' calendar and retention by month read a few months of
    # reviews as a range of that index, not a pass over the whole history.
    """
    CREATE TABLE fsrs_parameters (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        parameters TEXT NOT NULL,
        fitted_at TEXT NOT NULL,
        reviews INTEGER NOT NULL,
        tag TEXT
    );
    CREATE INDEX reviews_by_time ON reviews(at);
    """,
    # 5 -> 6: sync (quizzer.progress.sync).
    SYNC_SCHEMA,
    # 6 -> 7: totals per card and per day, kept by triggers and filled from the rows
    # already there (quizzer.progress.summaries): stats over a million reviews read a
    # few thousand summary rows instead.
    SUMMARY_SCHEMA,
]
SCHEMA_VERSION = len(MIGRATIONS)
#: The version from which the summaries and their triggers exist.
SUMMARIES_VERSION = MIGRATIONS.index(SUMMARY_SCHEMA) + 1


def statements(script: str) -> list[str]:
    """The statements of a migration step (or any script without ``;`` in literals).

    A trigger's body holds ``;`` of its own: pieces are joined until SQLite
    calls the statement complete.
    """
    found: list[str] = []
    pending = ""
    for part in script.split(";"):
        pending += part + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                found.append(pending.strip().removesuffix(";").strip())
            pending = ""
    if pending.strip(" \n;"):
        found.append(pending.strip().removesuffix(";").strip())
    return found
