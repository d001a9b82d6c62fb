"""Schema step 3 -> 4: what sync (:mod:`quizzer.progress.sync`) keeps in the progress database.

``sync_meta`` holds this device's id. ``sync_seen`` holds every entry's
content id this database has sent or received, with the row it became
(``tab``, ``row``; both NULL once that row is gone, or for an entry that is
no row: an override, a retraction). ``sync_outbox`` holds the content ids (and cards)
of rows that were sent and then changed or deleted (a changed rating,
``/undo``, ``progress reset``): the next sync retracts them.

The triggers capture every such change whatever code makes it, so no
writer of the store has to remember sync.
"""

_FORGET = """
CREATE TRIGGER sync_forget_{name}_{event} AFTER {event_sql} ON {table} BEGIN
    INSERT OR IGNORE INTO sync_outbox (id, card)
        SELECT id, {card} FROM sync_seen WHERE tab = '{table}' AND row = old.id;
    UPDATE sync_seen SET tab = NULL, row = NULL WHERE tab = '{table}' AND row = old.id;
END;
"""

SYNC_SCHEMA = (
    """
CREATE TABLE sync_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sync_seen (id TEXT PRIMARY KEY, tab TEXT, row INTEGER);
CREATE INDEX sync_seen_by_row ON sync_seen(tab, row);
CREATE TABLE sync_outbox (id TEXT PRIMARY KEY, card TEXT);
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
