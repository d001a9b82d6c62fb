"""Sync through a shared folder: one append-only JSONL file per device, merged by content id.

Each device appends what it recorded since its last sync to its own file in
the folder (``<device>.jsonl``; one writer per file, each sync one write,
never rewritten), then reads every ``*.jsonl`` there, its own and conflicted
copies included, and adds what it has not seen. Every entry carries a
content id (a hash of what it says), so merging is idempotent and
order-free: an entry seen twice, in any file, in any order, counts once.

Entries: ``session``, ``attempt`` and ``review`` (the fields of a progress
backup, :mod:`quizzer.progress.backup`, and an attempt's ``revealed``),
``override`` (an attempt counted right), ``undone`` (an attempt whose
review ``/undo`` took back), ``retract`` (a sent row changed or deleted
since: a changed rating, ``/undo``, ``progress reset``; see
:mod:`.sync_schema`) and ``set`` (a setting, a suspension or burial, the
fitted parameters: the newest change wins, see :mod:`.sync_registers`). A
retracted id is remembered, so the entry it names is never added again.

A card's schedule is not copied: after a sync, every card whose reviews
changed is replayed, its reviews in time order through FSRS with the
learner's settings and fitted parameters as merged, with fuzz drawn from a
seed made of the review itself, so every device that holds the same
reviews and settings computes the same due date. When the merged settings
or parameters change, every card is replayed.

A line without its newline is a file still arriving (Syncthing and Dropbox
deliver files in pieces): it is left for the next sync. A file from a newer
quizzer (a higher format version) is refused with a message; the others are
merged.
"""

from __future__ import annotations

import json
import random
import secrets
import sqlite3
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quizzer.progress.stored import VALID_ATTEMPT_SQL, VALID_REVIEW_SQL, read_review_log, utc_time
from quizzer.progress.sync_files import SyncError, append, own_file, read_file, sync_files
from quizzer.progress.sync_ids import (
    attempt_id,
    override_id,
    retract_id,
    review_id,
    session_id,
    undone_id,
)
from quizzer.progress.sync_registers import changes, merge_sets, scheduler_fingerprint

if TYPE_CHECKING:
    from fsrs import Scheduler

    from quizzer.progress.store import Store


# -- this device ---------------------------------------------------------------------------


def device_id(store: Store) -> str:
    """This database's device id, made once (random, 16 hex digits) and kept in it."""
    db = store.connection
    row = db.execute("SELECT value FROM sync_meta WHERE key = 'device'").fetchone()
    if row:
        return str(row[0])
    with store.writing() as db:
        db.execute(
            "INSERT OR IGNORE INTO sync_meta (key, value) VALUES ('device', ?)",
            (secrets.token_hex(8),),
        )
        return str(db.execute("SELECT value FROM sync_meta WHERE key = 'device'").fetchone()[0])


# -- what this device sends ----------------------------------------------------------------


def _seen(db: sqlite3.Connection, entry_id: str) -> bool:
    return db.execute("SELECT 1 FROM sync_seen WHERE id = ?", (entry_id,)).fetchone() is not None


def _unsent(db: sqlite3.Connection, table: str, columns: str, valid: str) -> Iterator[Any]:
    return iter(
        db.execute(
            f"SELECT id, {columns} FROM {table} AS t WHERE {valid} AND NOT EXISTS"
            f" (SELECT 1 FROM sync_seen WHERE tab = '{table}' AND row = t.id) ORDER BY id"
        )
    )


def _session_ids(db: sqlite3.Connection) -> dict[int, str]:
    rows = db.execute("SELECT row, id FROM sync_seen WHERE tab = 'sessions'")
    return {int(row): str(entry) for row, entry in rows}


#: How many rows before this one say all the same (see :func:`.sync_ids._copy`); the
#: by-card indexes find them.
_ATTEMPT_COPY = (
    "(SELECT count(*) FROM attempts AS o WHERE o.card_id = t.card_id AND o.at = t.at"
    " AND o.blank = t.blank AND o.given = t.given AND o.try = t.try AND o.hints = t.hints"
    " AND o.ms = t.ms AND o.id < t.id)"
)
_REVIEW_COPY = (
    "(SELECT count(*) FROM reviews AS o WHERE o.card_id = t.card_id AND o.at = t.at"
    " AND o.rating = t.rating AND o.review_log = t.review_log AND o.id < t.id)"
)


@dataclass
class Outgoing:
    """Entries to append, and the rows they came from (recorded as seen once written)."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    rows: list[tuple[str, str | None, int | None]] = field(default_factory=list)
    cards: set[str] = field(default_factory=set)

    def add(self, entry: dict[str, Any], table: str | None, row: int | None) -> None:
        self.entries.append(entry)
        self.rows.append((entry["id"], table, row))


def outgoing(db: sqlite3.Connection, device: str, now: datetime) -> Outgoing:
    """Everything recorded here that no sync has sent yet, in the order it happened.

    ``now``: the time of a setting or flag found changed (their tables keep no time).
    """
    out = Outgoing()
    fresh: set[str] = set()

    def add(entry: dict[str, Any], table: str | None, row: int | None) -> None:
        if entry["id"] in fresh or _seen(db, entry["id"]):
            return  # the same content recorded twice (a backup imported twice) goes once
        fresh.add(entry["id"])
        out.add(entry, table, row)

    for target, card in list(db.execute("SELECT id, card FROM sync_outbox ORDER BY rowid")):
        if card is not None:
            out.cards.add(str(card))  # its schedule is replayed without the retracted row
        add({"id": retract_id(target), "kind": "retract", "target": target}, None, None)
    sessions = _session_ids(db)
    for row, mode, started, ended in _unsent(
        db, "sessions", "mode, started_at, ended_at", "typeof(started_at) = 'text'"
    ):
        entry = {
            "kind": "session",
            "device": device,
            "number": row,
            "mode": mode,
            "started_at": started,
            "ended_at": ended,
        }
        entry["id"] = session_id(entry)
        sessions[row] = entry["id"]
        add(entry, "sessions", row)
    undone_now: list[str] = []
    for found in _unsent(
        db,
        "attempts",
        "session_id, card_id, blank, given, correct, try, hints, ms, at, overridden,"
        f" revealed, undone, {_ATTEMPT_COPY}",
        VALID_ATTEMPT_SQL,
    ):
        row, session, card, blank, given, correct, try_, hints, ms, at, overridden = found[:11]
        revealed, undone, copy = found[11:]
        entry = {
            "kind": "attempt",
            "session": sessions.get(session),
            "card": card,
            "blank": blank,
            "given": given,
            "correct": bool(correct),
            "try": try_,
            "hints": hints,
            "ms": ms,
            "at": at,
            "overridden": bool(overridden),
            "revealed": bool(revealed),
        }
        if copy:
            entry["copy"] = copy
        entry["id"] = attempt_id(entry)
        add(entry, "attempts", row)
        if undone:
            undone_now.append(entry["id"])
    for row, session, card, rating, log_text, at, copy in _unsent(
        db,
        "reviews",
        f"session_id, card_id, rating, review_log, at, {_REVIEW_COPY}",
        VALID_REVIEW_SQL,
    ):
        log = read_review_log(log_text)
        if log is None:
            continue  # damaged: the store reports it; it never leaves this device
        entry = {
            "kind": "review",
            "session": sessions.get(session),
            "card": card,
            "rating": rating,
            "review_log": dict(log),
            "at": at,
        }
        if copy:
            entry["copy"] = copy
        entry["id"] = review_id(entry)
        out.cards.add(card)
        add(entry, "reviews", row)
    for (attempt,) in db.execute(
        "SELECT s.id FROM attempts AS a JOIN sync_seen AS s ON s.tab = 'attempts' AND s.row = a.id"
        " WHERE a.overridden = 1"
    ):
        add({"id": override_id(attempt), "kind": "override", "attempt": attempt}, None, None)
    for entry in list(out.entries):
        if entry["kind"] == "attempt" and entry["overridden"]:
            add(
                {"id": override_id(entry["id"]), "kind": "override", "attempt": entry["id"]},
                None,
                None,
            )
    for (attempt,) in db.execute(
        "SELECT s.id FROM attempts AS a JOIN sync_seen AS s ON s.tab = 'attempts' AND s.row = a.id"
        " WHERE a.undone = 1"
    ):
        undone_now.append(attempt)
    for attempt in undone_now:
        add({"id": undone_id(attempt), "kind": "undone", "attempt": attempt}, None, None)
    for entry in changes(db, device, now):
        add(entry, None, None)
    return out


# -- merging -------------------------------------------------------------------------------


def merge(db: sqlite3.Connection, entries: Sequence[dict[str, Any]]) -> tuple[int, set[str]]:
    """Add every entry this database has not seen; returns how many, and the cards touched.

    Retractions go first, so an entry and its retraction give the same result
    in any order; an override or undone mark waits (as seen) for the attempt
    it names; of the ``set`` entries, the newest per key wins.
    """
    kinds = ("retract", "session", "attempt", "review", "override", "undone", "set")
    order = {kind: rank for rank, kind in enumerate(kinds)}
    sets: list[dict[str, Any]] = []
    received, cards = 0, set()
    unique = {e["id"]: e for e in entries}
    sessions = _session_ids(db)
    session_rows = {entry: row for row, entry in sessions.items()}
    retracted_sessions: list[int] = []
    for entry in sorted(unique.values(), key=lambda e: order[e["kind"]]):
        if _seen(db, entry["id"]):
            continue
        received += 1
        kind = entry["kind"]
        table, row = None, None
        if kind == "retract":
            cards |= _retract(db, entry["target"], retracted_sessions)
        elif kind == "session":
            table = "sessions"
            row = db.execute(
                "INSERT INTO sessions (mode, started_at, ended_at) VALUES (?, ?, ?)",
                (entry["mode"], entry["started_at"], entry.get("ended_at")),
            ).lastrowid
            session_rows[entry["id"]] = int(row or 0)
        elif kind == "attempt":
            table = "attempts"
            overridden = entry["overridden"] or _seen(db, override_id(entry["id"]))
            row = db.execute(
                "INSERT INTO attempts (session_id, card_id, blank, given, correct, try, hints,"
                " ms, at, overridden, revealed, undone)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    session_rows.get(entry["session"]),
                    entry["card"],
                    entry["blank"],
                    entry["given"],
                    int(entry["correct"] or overridden),
                    entry["try"],
                    entry["hints"],
                    entry["ms"],
                    entry["at"],
                    int(overridden),
                    int(entry.get("revealed", False)),
                    int(_seen(db, undone_id(entry["id"]))),
                ),
            ).lastrowid
        elif kind == "review":
            table = "reviews"
            row = db.execute(
                "INSERT INTO reviews (session_id, card_id, rating, review_log, at)"
                " VALUES (?, ?, ?, ?, ?)",
                (
                    session_rows.get(entry["session"]),
                    entry["card"],
                    entry["rating"],
                    json.dumps(entry["review_log"]),
                    entry["at"],
                ),
            ).lastrowid
            cards.add(entry["card"])
        elif kind == "override":
            db.execute(
                "UPDATE attempts SET correct = 1, overridden = 1 WHERE id = (SELECT row FROM"
                " sync_seen WHERE id = ? AND tab = 'attempts')",
                (entry["attempt"],),
            )
        elif kind == "undone":
            db.execute(
                "UPDATE attempts SET undone = 1 WHERE id = (SELECT row FROM"
                " sync_seen WHERE id = ? AND tab = 'attempts')",
                (entry["attempt"],),
            )
        elif kind == "set":
            sets.append(entry)
        db.execute(
            "INSERT OR REPLACE INTO sync_seen (id, tab, row) VALUES (?, ?, ?)",
            (entry["id"], table, row),
        )
    for session in retracted_sessions:
        for table in ("attempts", "reviews"):
            db.execute(f"UPDATE {table} SET session_id = NULL WHERE session_id = ?", (session,))
        db.execute("DELETE FROM sessions WHERE id = ?", (session,))
    merge_sets(db, sets)
    return received, cards


def _retract(db: sqlite3.Connection, target: str, sessions: list[int]) -> set[str]:
    """Delete the row an entry became (if it is here); remember the id so it never comes back."""
    found = db.execute("SELECT tab, row FROM sync_seen WHERE id = ?", (target,)).fetchone()
    cards: set[str] = set()
    if found is None:
        db.execute("INSERT INTO sync_seen (id, tab, row) VALUES (?, NULL, NULL)", (target,))
        return cards
    table, row = found
    if table == "sessions":
        sessions.append(int(row))  # deleted last, once no attempt of this sync points at it
    elif table in ("attempts", "reviews"):
        if table == "reviews":
            card = db.execute("SELECT card_id FROM reviews WHERE id = ?", (row,)).fetchone()
            if card:
                cards.add(str(card[0]))
        db.execute(f"DELETE FROM {table} WHERE id = ?", (row,))
    # The delete trigger queued a retraction of its own; this one is already known.
    db.execute("DELETE FROM sync_outbox WHERE id = ?", (target,))
    db.execute("UPDATE sync_seen SET tab = NULL, row = NULL WHERE id = ?", (target,))
    return cards


# -- the schedule, replayed ----------------------------------------------------------------


@contextmanager
def _seeded_fuzz(seed: int) -> Iterator[None]:
    """FSRS's fuzz drawn from ``seed``: py-fsrs calls its module's ``random()`` for it.

    Scheduling runs on one thread in quizzer, so swapping the name for the
    length of one review is safe; the original is always put back.
    """
    import fsrs.scheduler as module

    names = vars(module)  # ``random`` is imported there, not exported (mypy --strict)
    original = names["random"]
    names["random"] = random.Random(seed).random
    try:
        yield
    finally:
        names["random"] = original


def replay(db: sqlite3.Connection, scheduler: Scheduler, cards: set[str]) -> None:
    """Each card's schedule from its reviews, in time order, through FSRS (deterministically)."""
    from fsrs import Card as FsrsCard
    from fsrs import Rating

    from quizzer.progress.schedule import fsrs_id

    for card in sorted(cards):
        rows = db.execute(
            f"SELECT rating, review_log, at FROM reviews WHERE card_id = ? AND {VALID_REVIEW_SQL}",
            (card,),
        ).fetchall()
        reviews = sorted((utc_time(at), int(rating), str(log)) for rating, log, at in rows)
        if not reviews:
            db.execute("DELETE FROM schedule WHERE card_id = ?", (card,))
            continue
        state = FsrsCard(card_id=fsrs_id(card), due=reviews[0][0])
        last = reviews[0][0]
        for at, rating, log_text in reviews:
            log: dict[str, Any] = dict(read_review_log(log_text) or {})
            duration = log.get("review_duration")
            seed = zlib.crc32(f"{card}|{at.isoformat()}|{rating}".encode("utf-8", "surrogatepass"))
            with _seeded_fuzz(seed):
                state, _ = scheduler.review_card(
                    state, Rating(rating), review_datetime=at, review_duration=duration
                )
            last = at
        db.execute(
            "INSERT INTO schedule (card_id, fsrs_card, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT(card_id) DO UPDATE SET fsrs_card = excluded.fsrs_card,"
            " updated_at = excluded.updated_at",
            (card, json.dumps(state.to_dict()), last.isoformat(timespec="milliseconds")),
        )


def _learner_scheduler(store: Store) -> tuple[Scheduler, str]:
    """The scheduler of the settings and parameters as merged (read inside the merge)."""
    from quizzer.progress.parameters import saved_parameters
    from quizzer.progress.schedule import make_scheduler
    from quizzer.progress.settings import read_settings

    settings = read_settings(store)
    saved = saved_parameters(store)
    parameters = saved.parameters if saved else None
    scheduler = make_scheduler(settings=settings, parameters=parameters)
    return scheduler, scheduler_fingerprint(settings, parameters)


def _replayed_with(db: sqlite3.Connection) -> str | None:
    row = db.execute("SELECT value FROM sync_meta WHERE key = 'replayed_with'").fetchone()
    return str(row[0]) if row else None


def _read_so_far(db: sqlite3.Connection) -> dict[str, tuple[str, int]]:
    """How far each file was merged: its header's hash and the end of its last whole line."""
    found: dict[str, tuple[str, int]] = {}
    for key, value in db.execute("SELECT key, value FROM sync_meta WHERE key LIKE 'read:%'"):
        try:
            head, end = json.loads(value)
        except (ValueError, TypeError):
            continue
        if isinstance(head, str) and type(end) is int:
            found[str(key).removeprefix("read:")] = (head, end)
    return found


# -- one sync ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SyncResult:
    """What one sync did: ``--json`` prints :meth:`to_dict`."""

    device: str
    sent: int
    received: int
    devices: int
    problems: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "device": self.device,
            "sent": self.sent,
            "received": self.received,
            "devices": self.devices,
        }


def check_folder(folder: Path) -> None:
    if not folder.exists():
        raise SyncError(f"sync folder not found: {folder}")
    if not folder.is_dir():
        raise SyncError(f"sync folder is not a folder: {folder}")


def sync(
    store: Store,
    folder: Path,
    *,
    now: datetime,
    on_problem: Callable[[str], None] | None = None,
) -> SyncResult:
    """Send what this device recorded, merge what the others did, replay changed schedules.

    Args:
        store: This device's progress.
        folder: The shared folder.
        now: The current time (UTC): the time of a setting or flag found changed.
        on_problem: Told each problem found in the folder (default: the store's warnings).

    Raises:
        SyncError: the folder is missing or cannot be written.
    """
    check_folder(folder)
    device = device_id(store)
    own = own_file(folder, device)
    with store.writing() as db:
        # The write lock is held while the file is appended: two syncs of one
        # database at once cannot both send the same rows.
        sending = outgoing(db, device, now)
        append(own, device, sending.entries)
        db.executemany(
            "INSERT OR IGNORE INTO sync_seen (id, tab, row) VALUES (?, ?, ?)", sending.rows
        )
        db.execute("DELETE FROM sync_outbox")
    problems: list[str] = []
    entries: list[dict[str, Any]] = []
    devices = {device}
    known = _read_so_far(store.connection)
    reached: list[tuple[str, str]] = []
    for path in sync_files(folder):
        read = read_file(path, known.get(path.name))
        problems += read.problems
        if read.newer:
            problems.append(read.newer)
        if read.device:
            devices.add(read.device)
            reached.append((f"read:{path.name}", json.dumps([read.head, read.end])))
        entries += read.entries
    with store.writing() as db:
        received, cards = merge(db, entries)
        dirty = {str(card) for (card,) in db.execute("SELECT card FROM sync_dirty")}
        scheduler, fingerprint = _learner_scheduler(store)
        if _replayed_with(db) != fingerprint:
            # Every schedule hangs on the settings: each device replays all with the merged ones.
            dirty |= {str(c) for (c,) in db.execute("SELECT DISTINCT card_id FROM reviews")}
            db.execute(
                "INSERT OR REPLACE INTO sync_meta (key, value) VALUES ('replayed_with', ?)",
                (fingerprint,),
            )
        replay(db, scheduler, cards | sending.cards | dirty)
        db.execute("DELETE FROM sync_dirty")
        # Saved with the merge: a sync killed before this commit reads the same lines again.
        db.executemany("INSERT OR REPLACE INTO sync_meta (key, value) VALUES (?, ?)", reached)
    for problem in problems:
        (on_problem or store.on_warning)(problem)
    return SyncResult(device, len(sending.entries), received, len(devices), tuple(problems))
