"""A cache of validated cards and of validation results, in one SQLite file.

A warm start neither parses YAML nor validates: per card file, the cache
holds its size and modification time, its id, title, tags and blank names
(what listing needs) and its full data, read only when the card itself is
needed. Only cards that passed every check are cached; a file that changed
is read again. ``validate`` keeps each card's problems under a key of the
card's content, its deck's ids and quizzer's version, so an unchanged card
is not judged again.

Everything goes into one SQLite file written in one transaction per
command: a cold cache of 10,000 cards used to be 10,000 small files, and
creating them took most of a first ``list``. Any trouble with the cache
(unreadable, corrupt, wrong-shaped data, a read-only folder, another
process holding the lock) is a cache miss; it never fails a command.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from quizzer.cards.fulltext import TABLE_SQL, search_columns
from quizzer.version import __version__

CACHE_ENV = "QUIZZER_CACHE"
CACHE_FILE = "cache.sqlite3"
#: Cached data written by another quizzer version (or cache layout) is never read.
FORMAT = f"{__version__}/6"
#: A second quizzer filling the cache at the same moment waits this long, then skips saving.
BUSY_SECONDS = 2.0

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # A rowid table: WITHOUT ROWID keeps whole rows in the key's B-tree, and rows
    # of a few kilobytes then spill into overflow pages (the file was 2.5x larger).
    "CREATE TABLE IF NOT EXISTS cards (source TEXT NOT NULL, path TEXT NOT NULL,"
    " size INTEGER NOT NULL, mtime INTEGER NOT NULL, card_id TEXT NOT NULL,"
    " summary TEXT NOT NULL, data TEXT NOT NULL, UNIQUE (source, path))",
    "CREATE INDEX IF NOT EXISTS cards_by_id ON cards (card_id)",
    "CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, problems TEXT NOT NULL)"
    " WITHOUT ROWID",
    # The full-text index of --search: one row per cached card, sharing its rowid.
    TABLE_SQL,
)
#: What JSON may fail with on data it did not write: bad text, or nesting deeper than the stack.
_UNREADABLE = (ValueError, TypeError, RecursionError)


def cache_folder() -> Path:
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("quizzer", appauthor=False)) / "decks"


_databases: dict[Path, sqlite3.Connection | None] = {}


def database() -> sqlite3.Connection | None:
    """The cache database of this process (None when none can be used here)."""
    path = cache_folder() / CACHE_FILE
    if path not in _databases:
        _databases[path] = _open(path)
    return _databases[path]


def close_databases() -> None:
    """Close this process's cache connections (tests use it to act as a new process)."""
    for db in _databases.values():
        if db is not None:
            db.close()
    _databases.clear()


def _open(path: Path) -> sqlite3.Connection | None:
    for attempt in range(2):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
        except (OSError, sqlite3.Error):
            return None
        try:
            _prepare(db)
            return db
        except sqlite3.DatabaseError:
            db.close()
            if attempt == 0 and not _is_busy(path):
                # Not a database (or a damaged one): it only ever holds copies. Start afresh.
                with contextlib.suppress(OSError):
                    path.unlink()
    return None


def _prepare(db: sqlite3.Connection) -> None:
    try:
        found = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    except sqlite3.OperationalError:  # no such table: a new file
        found = None
    if found is not None and found[0] == FORMAT:
        return
    # WAL: a command reading the cache never waits for one writing it.
    db.execute("PRAGMA journal_mode = WAL")
    with _transaction(db):
        for table in ("meta", "cards", "results", "search"):
            db.execute(f"DROP TABLE IF EXISTS {table}")
        for statement in _SCHEMA:
            db.execute(statement)
        db.execute("INSERT INTO meta (key, value) VALUES ('format', ?)", (FORMAT,))


def _is_busy(path: Path) -> bool:
    return Path(f"{path}-journal").exists()


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Any:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _stamp(stat: os.stat_result) -> list[int]:
    return [stat.st_size, stat.st_mtime_ns]


def summary_of(card: Mapping[str, Any]) -> dict[str, Any]:
    """What listing needs, without rebuilding the card."""
    return {
        "id": card["id"],
        "title": card["title"],
        "tags": card.get("tags", []),
        "blanks": list(card["blanks"]),
        "level": card.get("level"),
    }


def entry_for(stat: os.stat_result, card: Mapping[str, Any]) -> dict[str, Any]:
    """A card's cache entry: its file stamp, its summary and its data as JSON text.

    Separate from :class:`DeckCache` so worker processes can prepare entries
    and the parent writes them all in one transaction.
    """
    # json.dumps, not json.dump: only dumps uses the C encoder (5x faster here).
    data = json.dumps(card, ensure_ascii=False)
    return {
        "stamp": _stamp(stat),
        "summary": summary_of(card),
        "data": data,
        "search": search_columns(card),
    }


def _loads(text: object) -> Any:
    try:
        return json.loads(str(text))
    except _UNREADABLE:
        return None


class DeckCache:
    """Cached cards for the files under one deck source."""

    def __init__(self, source: Path) -> None:
        self.source = str(source.resolve())
        #: By file path: {"stamp": [size, mtime_ns], "summary": {...}}.
        self.entries: dict[str, dict[str, Any]] = {}
        self._new: dict[str, dict[str, Any]] = {}
        self._gone: set[str] = set()
        db = database()
        if db is None:
            return
        try:
            rows = db.execute(
                "SELECT path, size, mtime, summary FROM cards WHERE source = ?", (self.source,)
            ).fetchall()
        except sqlite3.Error:
            return
        for path, size, mtime, summary in rows:
            self.entries[str(path)] = {"stamp": [size, mtime], "summary": _loads(summary)}

    @property
    def changed(self) -> bool:
        return bool(self._new or self._gone)

    def get(
        self, path: Path, stat: os.stat_result
    ) -> tuple[dict[str, Any], Callable[[], dict[str, Any] | None]] | None:
        """The card's summary and a function that reads its full data, if fresh."""
        if not self.is_fresh(path, stat):
            return None
        summary = self.entries[str(path)].get("summary")
        if not isinstance(summary, dict):
            return None
        key = str(path)
        return summary, lambda: self._data(key)

    def _data(self, path: str) -> dict[str, Any] | None:
        if path in self._new:
            data = _loads(self._new[path]["data"])
        else:
            row = _one_row(
                "SELECT data FROM cards WHERE source = ? AND path = ?", (self.source, path)
            )
            data = _loads(row[0]) if row else None
        return data if looks_like_card(data) else None

    def put(self, path: Path, stat: os.stat_result, card: dict[str, Any]) -> None:
        self.add(path, entry_for(stat, card))

    def add(self, path: Path, entry: dict[str, Any]) -> None:
        """Record an entry made by :func:`entry_for`, to be written by :meth:`save`."""
        self.entries[str(path)] = entry
        self._new[str(path)] = entry
        self._gone.discard(str(path))

    def is_fresh(self, path: Path, stat: os.stat_result) -> bool:
        entry = self.entries.get(str(path))
        return isinstance(entry, dict) and entry.get("stamp") == _stamp(stat)

    def paths_with_id(self, card_id: str) -> list[Path]:
        """The files cached for this source whose card has this id."""
        return [
            Path(path)
            for path, entry in self.entries.items()
            if isinstance(entry.get("summary"), dict) and entry["summary"].get("id") == card_id
        ]

    def keep_only(self, paths: set[str]) -> None:
        """Forget files that are gone, so the cache does not grow forever."""
        for stale in set(self.entries) - paths:
            del self.entries[stale]
            self._new.pop(stale, None)
            self._gone.add(stale)

    def save(self) -> None:
        """Write what changed in one transaction; a cache that cannot be written is skipped."""
        db = database()
        if db is None or not self.changed:
            return
        try:
            with _transaction(db):
                for path in [*self._gone, *self._new]:
                    self._forget(db, path)
                for path, entry in self._new.items():
                    self._write(db, path, entry)
        except sqlite3.Error:
            return
        self._new.clear()
        self._gone.clear()

    def _forget(self, db: sqlite3.Connection, path: str) -> None:
        """Delete a file's card and its search row (they share a rowid)."""
        row = db.execute(
            "SELECT rowid FROM cards WHERE source = ? AND path = ?", (self.source, path)
        ).fetchone()
        if row is not None:
            db.execute("DELETE FROM search WHERE rowid = ?", row)
            db.execute("DELETE FROM cards WHERE rowid = ?", row)

    def _write(self, db: sqlite3.Connection, path: str, entry: dict[str, Any]) -> None:
        summary = entry["summary"]
        cursor = db.execute(
            "INSERT INTO cards VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                self.source,
                path,
                *entry["stamp"],
                str(summary["id"]),
                json.dumps(summary, ensure_ascii=False),
                entry["data"],
            ),
        )
        db.execute(
            "INSERT INTO search (rowid, title, tags, prompt, answers, teaching)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (cursor.lastrowid, *entry["search"]),
        )


def _one_row(query: str, args: tuple[object, ...]) -> tuple[Any, ...] | None:
    db = database()
    try:
        return db.execute(query, args).fetchone() if db is not None else None
    except sqlite3.Error:
        return None


def looks_like_card(data: Any) -> bool:
    """A cheap shape check of cached card data: what rebuilding it relies on.

    The cache is only ever written by quizzer from validated cards, but it is
    a file anyone can edit or damage; data of another shape is a cache miss.
    """
    if not isinstance(data, dict):
        return False
    try:
        lists_of_maps = all(
            isinstance(data[key], list) and all(isinstance(item, dict) for item in data[key])
            for key in ("follow_ups", "sources")
        )
        texts = all(isinstance(data[key], str) for key in ("id", "title", "prompt"))
        symbols = isinstance(data["symbols"], dict) and all(
            isinstance(s, dict) for s in data["symbols"].values()
        )
        blanks = isinstance(data["blanks"], dict) and all(
            isinstance(b, dict)
            and isinstance(b["answer"], str)
            and all(isinstance(w, dict) for w in b["wrong"])
            and all(isinstance(e, dict) for e in b["examples"])
            for b in data["blanks"].values()
        )
    except (KeyError, TypeError):
        return False
    return lists_of_maps and texts and symbols and blanks


def cached_results(keys: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """Validation results stored under these keys (those found and readable)."""
    db = database()
    wanted = list(keys)
    if db is None or not wanted:
        return {}
    found: dict[str, list[dict[str, Any]]] = {}
    try:
        # One query per 500 keys: SQLite limits the number of parameters.
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for key, text in db.execute(
                f"SELECT key, problems FROM results WHERE key IN ({marks})", chunk
            ):
                problems = _loads(text)
                if isinstance(problems, list) and all(isinstance(p, dict) for p in problems):
                    found[str(key)] = problems
    except sqlite3.Error:
        return found
    return found


def store_results(results: Mapping[str, list[dict[str, Any]]]) -> None:
    """Keep validation results, all in one transaction (skipped if the cache is unusable)."""
    db = database()
    if db is None or not results:
        return
    rows = [(key, json.dumps(problems, ensure_ascii=False)) for key, problems in results.items()]
    with contextlib.suppress(sqlite3.Error), _transaction(db):
        db.executemany("INSERT OR REPLACE INTO results VALUES (?, ?)", rows)
