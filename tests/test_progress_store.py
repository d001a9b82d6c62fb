"""The progress store: round trips, refusal of foreign files, and safety."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quizzer.progress import migrations
from quizzer.progress import opening as opening_module
from quizzer.progress.store import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    Attempt,
    Store,
    StoreError,
    default_path,
)

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def attempt(**changes):
    base = dict(
        card_id="attention",
        blank="scale",
        given="d_k",
        correct=False,
        try_number=1,
        hints=0,
        ms=1500,
        at=T0,
    )
    base.update(changes)
    return Attempt(**base)


def test_new_database_is_marked_and_versioned(tmp_path):
    path = tmp_path / "sub" / "progress.db"
    with Store.open(path) as store:
        session = store.start_session("quiz", T0)
        store.record_attempt(session, attempt())
        store.end_session(session, T0 + timedelta(minutes=1))
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


def test_totals(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        session = store.start_session("quiz", T0)
        store.record_attempt(session, attempt(correct=False))
        store.record_attempt(session, attempt(correct=True, try_number=2))
        store.record_attempt(session, attempt(card_id="other", blank="b", correct=True))
        totals = store.totals()
    assert (totals.attempts, totals.correct, totals.cards_seen, totals.sessions) == (3, 2, 2, 1)
    assert totals.accuracy == pytest.approx(2 / 3)


def test_empty_totals_have_zero_accuracy(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        assert store.totals().accuracy == 0.0


attempts = st.builds(
    Attempt,
    card_id=st.from_regex(r"[a-z0-9]+(-[a-z0-9]+)*", fullmatch=True),
    blank=st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,10}", fullmatch=True),
    given=st.text(max_size=200),
    correct=st.booleans(),
    try_number=st.integers(1, 10),
    hints=st.integers(0, 5),
    ms=st.integers(0, 10**9),
    at=st.datetimes(
        min_value=datetime(2000, 1, 1),
        max_value=datetime(2100, 1, 1),
        timezones=st.just(timezone.utc),
    ).map(lambda d: d.replace(microsecond=d.microsecond // 1000 * 1000)),
)


@settings(
    max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None
)
@given(st.lists(attempts, max_size=15))
def test_attempts_round_trip(tmp_path, items):
    path = tmp_path / f"rt-{os.urandom(6).hex()}.db"
    with Store.open(path) as store:
        session = store.start_session("quiz", T0)
        for item in items:
            store.record_attempt(session, item)
    with Store.open(path) as store:
        assert store.attempts() == items


def test_naive_datetimes_are_refused(tmp_path):
    with Store.open(tmp_path / "p.db") as store, pytest.raises(ValueError):
        store.start_session("quiz", datetime(2026, 1, 1))


def test_a_text_file_is_refused_and_untouched(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("my precious notes\n")
    with pytest.raises(StoreError, match="not a quizzer progress database"):
        Store.open(path)
    assert path.read_text() == "my precious notes\n"


def test_a_foreign_sqlite_file_is_refused_and_untouched(tmp_path):
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE mine (x)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a quizzer progress database"):
        Store.open(path)
    assert path.read_bytes() == before


def test_a_corrupt_quizzer_file_is_a_clear_error(tmp_path):
    path = tmp_path / "p.db"
    with Store.open(path) as store:
        store.start_session("quiz", T0)
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)
    path.write_bytes(bytes(data))
    for wal in tmp_path.glob("p.db-*"):
        wal.unlink()
    with pytest.raises(StoreError):
        Store.open(path)


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "p.db"
    Store.open(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer quizzer"):
        Store.open(path)


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(StoreError, match="folder"):
        Store.open(tmp_path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write read-only files")
def test_read_only_file(tmp_path):  # pragma: no cover - CI runs as root
    path = tmp_path / "p.db"
    Store.open(path).close()
    path.chmod(0o444)
    with pytest.raises(StoreError, match="read-only"), Store.open(path) as store:
        store.start_session("quiz", T0)


def test_default_path(monkeypatch, tmp_path):
    assert default_path({"QUIZZER_DB": str(tmp_path / "x.db")}) == tmp_path / "x.db"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path({}).name == "progress.db"


def test_migration_from_an_empty_version_zero_file(tmp_path):
    path = tmp_path / "p.db"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.commit()
    db.close()
    with Store.open(path) as store:
        assert store.totals().attempts == 0


def test_a_file_killed_before_its_schema_was_committed_opens_as_new(tmp_path):
    # What a SIGKILL between "journal_mode = WAL" and the schema's COMMIT leaves behind.
    path = tmp_path / "p.db"
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = WAL")
    db.close()
    assert path.stat().st_size > 0
    with Store.open(path) as store:
        assert store.totals().attempts == 0
        store.start_session("quiz", T0)


def test_a_read_only_database_is_a_clear_error(tmp_path, monkeypatch):
    # Root ignores file permissions, so open the file through SQLite's read-only mode,
    # which fails on a write exactly as a read-only file would.
    path = tmp_path / "p.db"
    Store.open(path).close()
    real_connect = sqlite3.connect

    def read_only(database, **kwargs):
        return real_connect(f"file:{database}?mode=ro", uri=True, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", read_only)
    with Store.open(path) as store:
        assert store.totals().attempts == 0  # reading still works
        with pytest.raises(StoreError, match="read-only"):
            store.start_session("quiz", T0)


def test_damage_deep_in_the_file_is_a_clear_error_on_first_use(tmp_path):
    path = tmp_path / "p.db"
    with Store.open(path) as store:
        session = store.start_session("quiz", T0)
        for index in range(3000):
            store.record_attempt(session, attempt(given=f"answer number {index}"))
        store.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 8192] = b"\xab" * 8192
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="corrupt"), Store.open(path) as store:
        store.attempts()


# -- creation races, read-only databases, special paths (issue 16, item 4) ---------------


def open_and_count(path: str, start: float) -> str:
    import time

    time.sleep(max(0.0, start - time.time()))  # all processes open at the same moment
    try:
        with Store.open(Path(path)) as store:
            return str(store.totals().attempts)
    except StoreError as error:
        return error.message


def test_concurrent_creators_all_get_the_new_database(tmp_path):
    import multiprocessing
    import time

    context = multiprocessing.get_context("fork")
    with context.Pool(6) as pool:
        for trial in range(8):
            path = str(tmp_path / f"race-{trial}.db")
            start = time.time() + 0.3
            results = pool.starmap(open_and_count, [(path, start)] * 6)
            assert results == ["0"] * 6, results


class LockedForAWhile:
    """A connection whose switch to WAL finds the file locked ``times`` times.

    That is what SQLite answers, at once and without the busy timeout, when
    another process creating the same file switches at the same moment.
    """

    def __init__(self, connection: sqlite3.Connection, times: int) -> None:
        self.connection, self.times = connection, times

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
        if sql == "PRAGMA journal_mode = WAL" and self.times:
            self.times -= 1
            raise sqlite3.OperationalError("database is locked")
        return self.connection.execute(sql, *args)

    def __getattr__(self, name: str) -> object:
        return getattr(self.connection, name)


@pytest.mark.parametrize("times", [1, 5])
def test_a_new_database_waits_for_another_opener_switching_it_to_wal(tmp_path, times):
    path = tmp_path / "p.db"
    connection = sqlite3.connect(path, isolation_level=None)
    locked = LockedForAWhile(connection, times)
    store = Store(path, locked)  # type: ignore[arg-type]
    store._prepare()
    assert locked.times == 0
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    connection.close()


def test_a_database_locked_for_good_still_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(opening_module, "BUSY_TIMEOUT_MS", 50)
    path = tmp_path / "p.db"
    connection = sqlite3.connect(path, isolation_level=None)
    store = Store(path, LockedForAWhile(connection, 10**9))  # type: ignore[arg-type]
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        store._prepare()
    connection.close()


@pytest.mark.parametrize(
    ("make", "message"),
    [(os.mkfifo, "is a FIFO"), (os.mkdir, "is a folder")],
)
def test_a_special_database_path_is_refused(tmp_path, make, message):
    path = tmp_path / "p.db"
    make(path)
    with pytest.raises(StoreError, match=message):
        Store.open(path)


WITHOUT_FILE_PERMISSION_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def can_drop_file_permission_override(tmp_path: Path) -> bool:
    """Root reads and writes anything; setpriv can take that power away from one process."""
    if shutil.which("setpriv") is None or os.geteuid() != 0:
        return os.geteuid() != 0  # a normal user is subject to file permissions anyway
    probe = tmp_path / "probe"
    probe.mkdir()
    probe.chmod(0o555)
    result = subprocess.run(
        [*WITHOUT_FILE_PERMISSION_OVERRIDE, "touch", str(probe / "x")], capture_output=True
    )
    probe.chmod(0o755)
    return result.returncode != 0


@pytest.mark.parametrize("folder_writable", [True, False], ids=["file read-only", "folder too"])
def test_a_read_only_database_serves_every_read_only_command(tmp_path, folder_writable):
    if not can_drop_file_permission_override(tmp_path):
        pytest.skip("cannot run a process without root's file-permission override")
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "p.db"
    with Store.open(db) as store:
        store.record_attempt(store.start_session("quiz", T0), attempt())
    db.chmod(0o444)
    folder.chmod(0o755 if folder_writable else 0o555)
    prefix = WITHOUT_FILE_PERMISSION_OVERRIDE if os.geteuid() == 0 else []
    env = {**os.environ, "QUIZZER_DB": str(db), "QUIZZER_CACHE": str(tmp_path / "cache")}
    try:
        for args, code in [
            (["stats", "--json"], 0),
            (["list", "--json"], 0),
            (["progress", "export", str(tmp_path / "backup.json")], 0),
            (["quiz", "attention"], 2),
        ]:
            result = subprocess.run(
                [*prefix, sys.executable, "-m", "quizzer", *args],
                capture_output=True,
                text=True,
                env=env,
                stdin=subprocess.DEVNULL,
            )
            assert result.returncode == code, (args, result.stderr)
            if code == 2:
                assert "read-only" in result.stderr
    finally:
        folder.chmod(0o755)
    assert json.loads((tmp_path / "backup.json").read_text())["attempts"][0]["given"] == "d_k"


def test_a_read_only_database_of_an_older_schema_says_how_to_upgrade(tmp_path, monkeypatch):
    path = tmp_path / "p.db"
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 2)
    Store.open(path).close()
    monkeypatch.undo()
    real_connect = sqlite3.connect

    def read_only(database, **kwargs):
        if kwargs.get("uri"):
            return real_connect(database, **kwargs)
        return real_connect(f"file:{database}?mode=ro", uri=True, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", read_only)
    with pytest.raises(StoreError, match="read-only and needs upgrading"):
        Store.open(path)


def test_an_enormous_answer_is_kept_cut_short_and_still_backs_up(tmp_path):
    from quizzer.progress.backup import write_backup
    from quizzer.progress.restore import import_backup
    from quizzer.progress.store import MAX_GIVEN

    with Store.open(tmp_path / "a.db") as store:
        store.record_attempt(None, attempt(given="x" * 5_000_000))
        (kept,) = store.attempts()
        assert kept.given == "x" * MAX_GIVEN + "…"
        write_backup(store, tmp_path / "backup.json")
    with Store.open(tmp_path / "b.db") as other:
        assert import_backup(other, tmp_path / "backup.json", T0).attempts == 1
