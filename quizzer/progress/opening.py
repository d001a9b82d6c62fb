"""Making an SQLite connection a ready quizzer database, or refusing the file.

What :meth:`quizzer.progress.store.Store.open` does once the file is
connected: check that it is a quizzer database and not a newer one (its
``PRAGMA application_id`` and ``user_version``), take an older schema
forward in one transaction, switch to WAL, and put back the summaries'
triggers if another tool dropped them. And, for a file this process may not
write, the read-only connections that still read it exactly.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from quizzer.progress import migrations, summaries
from quizzer.progress.database import (
    BUSY_TIMEOUT_MS,
    QUIET_WAIT_MS,
    StoreError,
    private_copy,
    transaction,
)
from quizzer.progress.migrations import statements

APPLICATION_ID = 0x51555A52  # "QUZR"
#: Pause between tries to switch a new file to WAL while another opener holds it.
_WAL_RETRY_SECONDS = 0.01


def prepare(connection: sqlite3.Connection, path: Path) -> None:
    """Check, migrate and set up a writable connection (see the module)."""
    connection.execute(f"PRAGMA busy_timeout = {QUIET_WAIT_MS}")
    _, version = identity(connection, path)
    if version < migrations.SCHEMA_VERSION:
        migrate(connection, path)
    use_wal(connection)
    connection.execute("PRAGMA foreign_keys = ON")
    if has_summaries() and summaries.missing_triggers(connection):
        with transaction(connection) as writing:
            summaries.repair(writing, script_runner(connection))
    # No integrity scan here: it costs ~90 ms per 300,000 attempts on every start.
    # A damaged page surfaces as an SQLite error on first use, which the store's
    # reads and writes turn into a "corrupt" StoreError.


def use_wal(connection: sqlite3.Connection) -> None:
    """Switch the file to WAL, waiting as long as the busy timeout for other openers.

    The switch needs the file to itself, and when two processes ask at once
    SQLite answers "locked" at once instead of waiting (it would deadlock):
    the busy timeout never applies, so the wait is here. Seen as one failed
    open in about 400 when six processes created the same database.
    """
    give_up = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while (mode := connection.execute("PRAGMA journal_mode").fetchone()[0]) != "wal":
        if mode == "memory":
            # Only a database in memory answers so, and it can never switch.
            raise StoreError("the progress database must be a file, not memory")
        try:
            connection.execute("PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > give_up:
                raise
            time.sleep(_WAL_RETRY_SECONDS)


def identity(connection: sqlite3.Connection, path: Path) -> tuple[int, int]:
    """The file's application id and schema version, refusing a foreign or newer file.

    One statement reads the id, the version and the tables, so all three come
    from one snapshot: read apart, a file that another process was creating
    could look like a foreign database (its tables already there, its id not).
    """
    application_id, version, tables = connection.execute(
        "SELECT (SELECT application_id FROM pragma_application_id),"
        " (SELECT user_version FROM pragma_user_version),"
        " (SELECT count(*) FROM sqlite_master)"
    ).fetchone()
    # An SQLite file with no tables holds nothing to lose: it may be a quizzer
    # database that another process has just created and not yet set up.
    if application_id != APPLICATION_ID and tables:
        raise StoreError(f"{path} is not a quizzer progress database; refusing to touch it")
    if version > migrations.SCHEMA_VERSION:
        raise StoreError(
            f"{path} was written by a newer quizzer (schema {version}, this one knows"
            f" {migrations.SCHEMA_VERSION}); upgrade quizzer"
        )
    return int(application_id), int(version)


def migrate(connection: sqlite3.Connection, path: Path) -> None:
    """Create or upgrade the schema in one transaction.

    Concurrent creators queue on the write lock; each looks again once it
    holds it, so the first creates the schema and the others find it done.
    """
    with transaction(connection) as db:
        _, current = identity(connection, path)
        for step in range(current, migrations.SCHEMA_VERSION):
            for statement in statements(migrations.MIGRATIONS[step]):
                db.execute(statement)
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {migrations.SCHEMA_VERSION}")


def has_summaries() -> bool:
    # Tests pin an older SCHEMA_VERSION to make files as older quizzers did.
    return migrations.SCHEMA_VERSION >= migrations.SUMMARIES_VERSION


def script_runner(connection: sqlite3.Connection) -> Callable[[str], None]:
    """Run a script of several statements on ``connection``, one statement at a time."""

    def run(script: str) -> None:
        for statement in statements(script):
            connection.execute(statement)

    return run


def read_only_connection(path: Path, resources: ExitStack) -> sqlite3.Connection:
    """A connection that reads a database this process may not write.

    Every read works; a write fails with a "read-only" error. When not even the
    WAL index can be created beside the file, the file is read as immutable,
    which is exact as long as no WAL file holds changes; when one does, the file
    and its WAL are read from a private copy (kept until ``resources`` close).

    Raises:
        StoreError: a foreign or newer file, or one that needs upgrading.
        sqlite3.Error: no way of reading it worked (the last way's error).
    """
    wal = path.with_name(path.name + "-wal")
    pending = wal.exists() and wal.stat().st_size > 0
    ways: list[Path | str] = ["mode=ro", path if pending else "mode=ro&immutable=1"]
    failure: sqlite3.Error | None = None
    for way in ways:
        attempt = ExitStack()
        if isinstance(way, Path):  # read from a copy of the file and its WAL
            uri = f"{private_copy(path, attempt).as_uri()}?mode=ro"
        else:
            uri = f"{path.resolve().as_uri()}?{way}"
        connection = sqlite3.connect(
            uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None
        )
        try:
            _, version = identity(connection, path)
            connection.execute("SELECT count(*) FROM sessions").fetchone()
        except sqlite3.Error as error:
            connection.close()
            attempt.close()
            failure = error
            continue
        except StoreError:
            connection.close()
            attempt.close()
            raise
        if version < migrations.SCHEMA_VERSION:
            connection.close()
            attempt.close()
            raise StoreError(
                f"progress database is read-only and needs upgrading by this quizzer"
                f" (schema {version} to {migrations.SCHEMA_VERSION}); make it writable once:"
                f" {path}"
            )
        if has_summaries() and summaries.missing_triggers(connection):
            summaries.shadow(script_runner(connection))
        resources.enter_context(attempt)
        return connection
    assert failure is not None
    raise failure
