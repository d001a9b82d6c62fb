"""Schema step 3 -> 4: what sync (:mod:`quizzer.progress.sync`) keeps in the progress database.

``sync_meta`` holds this device's id. ``sync_seen`` holds every entry's
content id this database has sent or received, with the row it became
(``tab``, ``row``; both NULL once that row is gone, or for an entry that is
no row: an override, a retraction). ``sync_outbox`` holds the content ids (and cards)
of rows that were sent and then changed or deleted (a changed rating,
``/undo``, ``progress reset``): the next sync retracts them.

``sync_dirty`` names every card whose schedule was written outside a
sync (a live review's fuzz, ``/undo`` restoring a state): the next sync
replays it, so its schedule is the one every device computes.

A trigger takes the conflict rule of the statement that fired it, so
these insert only what is absent rather than rely on OR IGNORE.

The triggers capture every such change whatever code makes it, so no
writer of the store has to remember sync.
"""

_FORGET = """
CREATE TRIGGER sync_forget_{name}_{event} AFTER {event_sql} ON {table} BEGIN
    INSERT INTO sync_outbox (id, card)
        SELECT id, {card} FROM sync_seen WHERE tab = '{table}' AND row = old.id
        AND id NOT IN (SELECT id FROM sync_outbox);
    UPDATE sync_seen SET tab = NULL, row = NULL WHERE tab = '{table}' AND row = old.id;
END;
"""

SYNC_SCHEMA = (
    """
CREATE TABLE sync_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sync_seen (id TEXT PRIMARY KEY, tab TEXT, row INTEGER);
CREATE INDEX sync_seen_by_row ON sync_seen(tab, row);
CREATE TABLE sync_outbox (id TEXT PRIMARY KEY, card TEXT);
CREATE TABLE sync_dirty (card TEXT PRIMARY KEY);
CREATE TRIGGER sync_dirty_added AFTER INSERT ON schedule BEGIN
    INSERT INTO sync_dirty (card) SELECT new.card_id
        WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE card = new.card_id);
END;
CREATE TRIGGER sync_dirty_changed AFTER UPDATE ON schedule BEGIN
    INSERT INTO sync_dirty (card) SELECT new.card_id
        WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE card = new.card_id);
END;
CREATE TRIGGER sync_dirty_deleted AFTER DELETE ON schedule BEGIN
    INSERT INTO sync_dirty (card) SELECT old.card_id
        WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE card = old.card_id);
END;
"""
    + _FORGET.format(
        name="attempt", event="deleted", event_sql="DELETE", table="attempts", card="old.card_id"
    )
    + _FORGET.format(
        name="review", event="deleted", event_sql="DELETE", table="reviews", card="old.card_id"
    )
    + _FORGET.format(
        name="review",
        event="changed",
        event_sql="UPDATE OF card_id, rating, review_log, at",
        table="reviews",
        card="old.card_id",
    )
    + _FORGET.format(
        name="session", event="deleted", event_sql="DELETE", table="sessions", card="NULL"
    )
)
