"""The progress database's schema, as the steps that take any older file forward.

The schema version lives in ``PRAGMA user_version``. To change the schema,
append one step to :data:`MIGRATIONS` (never edit a step that has shipped):
a new file runs them all, an older file the ones it lacks, in one transaction.
"""

from __future__ import annotations

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
]
SCHEMA_VERSION = len(MIGRATIONS)


def statements(script: str) -> list[str]:
    """The statements of a migration step (or any script without ``;`` in literals)."""
    return [part.strip() for part in script.split(";") if part.strip()]
