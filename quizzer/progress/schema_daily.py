"""Schema step 3 -> 4, the daily loop: revealed and undone attempts, card flags, settings.

Kept apart from :mod:`quizzer.progress.store` so that the store's own code
stays as it was; the store lists this step in its migrations.
"""

SCHEMA_DAILY_LOOP = """
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
"""
