"""SQLite under the progress store: errors in words, the one transaction helper, waiting.

Two modules of quizzer own an SQLite file: :mod:`quizzer.progress.store` (the
progress database, through this module) and :mod:`quizzer.cards.cache` (the
deck cache, a disposable copy that never waits and is never backed up).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TypeVar

from quizzer.errors import QuizzerError

#: How long an opener waits in silence for another process's lock: most are
#: a single attempt being committed, over in milliseconds.
QUIET_WAIT_MS = 300
#: How long it waits in all, having said so, before giving up with one line.
BUSY_TIMEOUT_MS = 5_000

T = TypeVar("T")
SQLITE_HEADER = b"SQLite format 3\x00"


class StoreError(QuizzerError):
    """The progress database cannot be used (foreign file, corrupt, read-only, full, busy)."""


def operational(path: Path, error: sqlite3.Error) -> StoreError:
    """An SQLite failure on the progress database as one line for the learner."""
    text = str(error).lower()
    if "readonly" in text or "read-only" in text:
        return StoreError(f"progress database is read-only: {path}")
    if "disk is full" in text or "full" in text:
        return StoreError(f"no space left to save progress: {path}")
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return StoreError(f"progress database is corrupt: {path} ({error})")
    if is_busy(error):
        return StoreError(
            f"progress database is busy: another quizzer is using {path};"
            " try again when it has finished"
        )
    if "disk i/o" in text:
        return StoreError(f"cannot save progress to {path}: disk I/O error (is the disk full?)")
    return StoreError(f"cannot use progress database {path}: {error}")


def is_busy(error: sqlite3.Error) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


def waiting_message(path: Path) -> str:
    return f"waiting for another quizzer using {path}…"


def patiently(
    db: sqlite3.Connection, path: Path, on_wait: Callable[[str], None], action: Callable[[], T]
) -> T:
    """``action()``, waited for while another process holds the lock, and said so.

    The connection waits :data:`QUIET_WAIT_MS` in silence; if the lock is still
    held, ``on_wait`` hears why, and the action is tried once more with the
    rest of :data:`BUSY_TIMEOUT_MS`. The caller turns a last "busy" into one line.
    """
    try:
        return action()
    except sqlite3.OperationalError as error:
        if not is_busy(error) or db.in_transaction:
            raise
    on_wait(waiting_message(path))
    db.execute(f"PRAGMA busy_timeout = {max(BUSY_TIMEOUT_MS - QUIET_WAIT_MS, 0)}")
    try:
        return action()
    finally:
        db.execute(f"PRAGMA busy_timeout = {QUIET_WAIT_MS}")


@contextmanager
def transaction(
    db: sqlite3.Connection,
    *,
    immediate: bool = True,
    wait: Callable[[Callable[[], object]], object] | None = None,
) -> Iterator[sqlite3.Connection]:
    """One transaction: committed if the block succeeds, rolled back if anything escapes.

    ``immediate`` takes the write lock at the start (``BEGIN IMMEDIATE``), so a
    transaction that reads before it writes cannot fail half-way on another
    writer; staging into temporary tables needs no lock and passes False.
    ``wait`` runs the ``BEGIN`` (as :func:`patiently` does, to say it waits).
    """
    begin = "BEGIN IMMEDIATE" if immediate else "BEGIN"
    if wait is None:
        db.execute(begin)
    else:
        wait(lambda: db.execute(begin))
    try:
        yield db
    except BaseException:
        # SQLite has already rolled back after errors such as a full disk.
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


# -- the file under the database ----------------------------------------------------


def existing_database(path: Path) -> bool:
    """Whether ``path`` holds a database file; a folder, FIFO or device is refused."""
    from quizzer.files import kind_of, reason

    try:
        found = os.stat(path)
    except FileNotFoundError:
        return False
    except OSError as error:
        raise StoreError(f"cannot use progress database {path}: {reason(error)}") from None
    if stat.S_ISDIR(found.st_mode):
        raise StoreError(f"progress database path is a folder: {path}")
    if not stat.S_ISREG(found.st_mode):
        raise StoreError(f"progress database path is {kind_of(found.st_mode)}: {path}")
    return found.st_size > 0


def remove_empty(path: Path) -> None:
    # SQLite creates the file before it can write a page; on a full disk it stays empty.
    try:
        if path.stat().st_size == 0:
            path.unlink()
    except OSError:
        pass


def private_copy(path: Path, resources: ExitStack) -> Path:
    """A copy of the database and its WAL in a private folder, removed with ``resources``."""
    folder = Path(resources.enter_context(tempfile.TemporaryDirectory(prefix="quizzer-")))
    copy = folder / path.name
    shutil.copyfile(path, copy)
    shutil.copyfile(path.with_name(path.name + "-wal"), folder / (path.name + "-wal"))
    return copy


def cannot_write(error: sqlite3.Error) -> bool:
    """Whether SQLite failed for want of write access (to the file, or its folder)."""
    name = getattr(error, "sqlite_errorname", "")
    return name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN")) or "readonly" in str(error)


def check_header(path: Path) -> None:
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as error:
        raise StoreError(f"cannot read progress database {path}: {error.strerror}") from None
    if header != SQLITE_HEADER:
        raise StoreError(
            f"{path} is not a quizzer progress database (not SQLite); refusing to touch it"
        )
