"""Damaged stored values, backups the scheduler could not use, writers that must refuse.

Issue 27: a damaged row is one warning and a card treated as new, never exit 3;
an import refuses what the scheduler would fail on; no export replaces the
progress database, its companion files, the deck cache or a read-only file.
"""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path

import pytest

from quizzer.progress.backup import BadBackup
from quizzer.progress.restore import import_backup
from quizzer.progress.store import Attempt, Store, StoreError
from quizzer.progress.stored import check_state

T0 = datetime(2026, 2, 1, 8, 0, tzinfo=timezone.utc)
GOOD = {
    "card_id": 7,
    "state": 2,
    "step": None,
    "stability": 3.5,
    "difficulty": 5.1,
    "due": "2026-02-04T08:00:00+00:00",
    "last_review": "2026-02-01T08:00:00+00:00",
}
DAMAGED_STATES = {
    "garbage json": "{not json",
    "wrong shape": "[1, 2]",
    "due not a time": json.dumps({**GOOD, "due": "tomorrow"}),
    "due without zone": json.dumps({**GOOD, "due": "2026-02-04T08:00:00"}),
    "stability 0": json.dumps({**GOOD, "stability": 0}),
    "stability null": json.dumps({**GOOD, "stability": None}),
    "null relearning step": json.dumps({**GOOD, "state": 3, "step": None}),
    "difficulty 11": json.dumps({**GOOD, "difficulty": 11}),
    "state 9": json.dumps({**GOOD, "state": 9}),
}


def db_with(path: Path, *, state: str | None = None, attempt_sql: str | None = None) -> Path:
    """A quizzer database with one sound attempt on attention, and a damaged row."""
    with Store.open(path) as store:
        store.record_attempt(None, Attempt("attention", "scale", "d_k", True, 1, 0, 9, T0))
    with closing(sqlite3.connect(path)) as db:
        if state is not None:
            db.execute(
                "INSERT INTO schedule (card_id, fsrs_card, updated_at) VALUES ('attention', ?, ?)",
                (state, T0.isoformat()),
            )
        if attempt_sql is not None:
            db.execute(attempt_sql)
        db.commit()
    return path


@pytest.mark.parametrize("state", list(DAMAGED_STATES.values()), ids=list(DAMAGED_STATES))
@pytest.mark.parametrize(
    "command",
    [
        ["list", "--json"],
        [],
        ["stats", "--json"],
        ["stats", "attention"],
        ["quiz", "--due"],
    ],
    ids=" ".join,
)
def test_a_damaged_schedule_is_one_warning_and_a_new_card(invoke, tmp_path, state, command):
    db = db_with(tmp_path / "p.db", state=state)
    os.environ["QUIZZER_DB"] = str(db)
    result = invoke(*command, input="")
    assert result.exit_code in (0, 1), result.output
    assert "internal error" not in result.output
    assert result.output.count("card attention: its stored schedule is damaged") == 1
    assert "quizzer progress reset attention --yes" in result.output


@pytest.mark.parametrize(
    "update",
    [
        "UPDATE attempts SET try = 'two'",
        "UPDATE attempts SET at = 'garbage'",
        "UPDATE attempts SET at = '2026-13-45T99:00:00.000+00:00'",
        "UPDATE attempts SET hints = 'x'",
    ],
)
@pytest.mark.parametrize("command", [["stats"], ["stats", "--json"], ["stats", "attention"], []])
def test_a_damaged_attempt_is_one_warning_and_left_out(invoke, tmp_path, update, command):
    db = db_with(tmp_path / "p.db", attempt_sql=update)
    os.environ["QUIZZER_DB"] = str(db)
    result = invoke(*command)
    assert result.exit_code == 0, result.output
    # A bare quizzer counts study days in SQL, where a damaged row simply does not count.
    said = result.output.count("card attention: its stored history is damaged")
    assert said == (1 if command else 0)


def test_null_attempt_numbers_from_a_looser_schema_are_left_out(tmp_path):
    path = db_with(tmp_path / "p.db")
    with closing(sqlite3.connect(path)) as db:
        # An older or foreign writer without NOT NULL: rebuild the table so.
        db.executescript(
            "ALTER TABLE attempts RENAME TO old; CREATE TABLE attempts (id INTEGER PRIMARY KEY,"
            " session_id INTEGER, card_id TEXT, blank TEXT, given TEXT, correct INTEGER,"
            " try INTEGER, hints INTEGER, ms INTEGER, at TEXT, overridden INTEGER DEFAULT 0,"
            " revealed INTEGER DEFAULT 0, undone INTEGER DEFAULT 0);"
            " INSERT INTO attempts SELECT * FROM old; DROP TABLE old;"
            " INSERT INTO attempts (card_id, blank, given, correct, try, hints, ms, at)"
            " VALUES ('softmax', 'x', 'y', 1, NULL, 0, 1, '2026-02-01T08:00:00.000+00:00');"
        )
    warnings: list[str] = []
    with Store.open(path, on_warning=warnings.append) as store:
        assert [a.card_id for a in store.attempts()] == ["attention"]
        assert store.totals().attempts == 1
    assert warnings == [
        "card softmax: its stored history is damaged;"
        " `quizzer progress reset softmax --yes` clears it"
    ]


def test_progress_export_of_a_damaged_database_writes_an_importable_backup(invoke, tmp_path):
    db = db_with(tmp_path / "p.db", state=DAMAGED_STATES["stability 0"])
    result = invoke("progress", "export", str(tmp_path / "b.json"), "--db", str(db))
    assert result.exit_code == 0, result.output
    assert "damaged" in result.output
    again = invoke("progress", "import", str(tmp_path / "b.json"), "--db", str(tmp_path / "q.db"))
    assert again.exit_code == 0, again.output


def test_a_review_repairs_a_damaged_schedule(invoke, tmp_path):
    db = db_with(tmp_path / "p.db", state=DAMAGED_STATES["garbage json"])
    os.environ["QUIZZER_DB"] = str(db)
    result = invoke("quiz", "attention", input="sqrt(d_k)\nV\n")
    assert result.exit_code in (0, 1), result.output
    with Store.open(db) as store:
        assert "attention" in store.fsrs_cards()
        assert store.damaged == []


# -- what an import accepts ------------------------------------------------------------


@pytest.mark.parametrize(
    "state",
    [
        {**GOOD, "stability": 0},
        {**GOOD, "stability": None},
        {**GOOD, "difficulty": None},
        {**GOOD, "difficulty": 0.5},
        {**GOOD, "state": 3, "step": None},
        {**GOOD, "state": 1, "step": -1},
        {**GOOD, "state": 4},
        {**GOOD, "step": 0},
        {**GOOD, "due": "soon"},
        {**GOOD, "last_review": None},
        {**GOOD, "stability": True},
    ],
)
def test_an_import_refuses_a_state_the_scheduler_cannot_use(tmp_path, state):
    backup = tmp_path / "b.json"
    backup.write_text(
        json.dumps({"format": "quizzer-progress", "version": 1, "schedule": {"attention": state}})
    )
    with Store.open(tmp_path / "p.db") as store:
        with pytest.raises(BadBackup, match="schedule"):
            import_backup(store, backup, T0)
        assert store.fsrs_cards() == {}


def test_every_state_check_state_accepts_is_one_fsrs_can_review():
    from fsrs import Card, Rating

    from quizzer.progress.schedule import make_scheduler

    scheduler = make_scheduler(fuzz=False)
    for state in (GOOD, {**GOOD, "state": 3, "step": 0}, {**GOOD, "state": 1, "step": 0}):
        card = Card.from_dict(check_state(state))
        scheduler.review_card(card, Rating.Good, review_datetime=T0)


def test_a_backup_starting_with_a_byte_order_mark_is_read(tmp_path):
    backup = tmp_path / "b.json"
    backup.write_bytes(
        b"\xef\xbb\xbf" + json.dumps({"format": "quizzer-progress", "version": 1}).encode()
    )
    with Store.open(tmp_path / "p.db") as store:
        assert import_backup(store, backup, T0).attempts == 0


HEADER = '{"format": "quizzer-progress", "version": 1, "attempts": [\n'
ATTEMPT = (
    '"card": "a", "blank": "b", "given": "x", "correct": true, "try": 1, "hints": 0,'
    ' "ms": 1, "at": "2026-02-01T08:00:00.000+00:00"'
)


@pytest.mark.parametrize(
    "entry",
    [
        "{" + ATTEMPT + ', "given": "y"}',
        "{" + ATTEMPT + ', "giv\\u0065n": "y"}',
        "{" + ATTEMPT + ',\n "given": "y"}',
    ],
)
def test_a_key_twice_in_one_entry_is_refused(tmp_path, entry):
    backup = tmp_path / "b.json"
    backup.write_text(
        '{"format": "quizzer-progress", "version": 1, "attempts": [\n' + entry + "\n]}"
    )
    with Store.open(tmp_path / "p.db") as store:
        with pytest.raises(BadBackup, match="appears twice"):
            import_backup(store, backup, T0)
        assert store.attempts() == []


def test_a_lone_surrogate_in_a_backup_is_one_clear_line(invoke, tmp_path):
    backup = tmp_path / "b.json"
    entry = "{" + ATTEMPT.replace('"given": "x"', '"given": "\\ud800"') + "}"
    backup.write_text(
        '{"format": "quizzer-progress", "version": 1, "attempts": [\n' + entry + "\n]}"
    )
    result = invoke("progress", "import", str(backup), "--db", str(tmp_path / "p.db"))
    assert result.exit_code == 2, result.output
    assert "malformed entry" in result.output and "internal error" not in result.output
    schedule = json.dumps(
        {"format": "quizzer-progress", "version": 1, "schedule": {"\ud800": GOOD}}
    )
    backup.write_text(schedule)
    result = invoke("progress", "import", str(backup), "--db", str(tmp_path / "p.db"))
    assert result.exit_code == 2, result.output
    assert "UTF-16" in result.output


# -- writers that must refuse -----------------------------------------------------------


def _writers(out: Path, db: Path) -> list[list[str]]:
    return [
        ["export", "json", str(out), "attention"],
        ["export", "markdown", str(out), "attention"],
        ["export", "anki", str(out), "attention"],
        ["progress", "export", str(out), "--db", str(db)],
    ]


@pytest.mark.parametrize("suffix", ["", "-wal", "-journal", "-shm"])
@pytest.mark.parametrize("which", range(4))
def test_no_writer_replaces_the_progress_database_or_its_files(invoke, tmp_path, suffix, which):
    db = db_with(tmp_path / "p.db")
    os.environ["QUIZZER_DB"] = str(db)
    target = db.with_name(db.name + suffix)
    if suffix:
        target.write_bytes(b"companion")
    before = target.read_bytes()
    result = invoke(*_writers(target, db)[which])
    assert result.exit_code == 2, result.output
    assert "refusing to write" in result.output
    assert len(result.output.strip().splitlines()) == 1
    if not (suffix and which == 3):  # progress export's own SQLite tidies its companion files
        assert target.read_bytes() == before
    with Store.open(db) as store:
        assert len(store.attempts()) == 1


@pytest.mark.parametrize("which", range(4))
def test_no_writer_replaces_the_deck_cache_or_a_read_only_file(invoke, tmp_path, which):
    db = db_with(tmp_path / "p.db")
    assert invoke("list").exit_code == 0  # builds the deck cache
    cache = Path(os.environ["QUIZZER_CACHE"]) / "cache.sqlite3"
    assert cache.exists()
    before = cache.read_bytes()
    result = invoke(*_writers(cache, db)[which])
    assert result.exit_code == 2 and "refusing to write" in result.output
    assert cache.read_bytes() == before
    locked = tmp_path / "kept.txt"
    locked.write_text("keep me")
    locked.chmod(0o444)
    result = invoke(*_writers(locked, db)[which])
    assert result.exit_code == 2 and "read-only" in result.output
    assert locked.read_text() == "keep me"


def test_a_drill_sheet_is_never_written_over_the_database(invoke, tmp_path):
    db = db_with(tmp_path / "p.db")
    os.environ["QUIZZER_DB"] = str(db)
    before = db.read_bytes()
    result = invoke("drill", "--sheet", str(db), input="")
    assert result.exit_code == 2 and "refusing to write" in result.output
    assert db.read_bytes() == before


def test_a_dangling_symlink_is_written_through(invoke, tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "new.json")
    result = invoke("export", "json", str(link), "attention")
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and json.loads((tmp_path / "new.json").read_text())


# -- odd databases ----------------------------------------------------------------------


@pytest.mark.parametrize("name", [":memory:", "file::memory:", "file:x?mode=memory"])
def test_a_database_in_memory_is_refused_in_one_line(invoke, name):
    result = invoke("progress", "import", os.devnull, "--db", name)
    assert result.exit_code == 2
    with pytest.raises(StoreError, match="must be a file"):
        Store.open(name)


def test_a_locked_database_is_waited_for_and_said_so(tmp_path, monkeypatch):
    from quizzer.progress import database

    monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 600)
    path = tmp_path / "p.db"
    Store.open(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    heard: list[str] = []
    with Store.open(path, on_warning=heard.append) as store, pytest.raises(StoreError, match="bu"):
        store.start_session("quiz", T0)
    holder.close()
    assert heard == [f"waiting for another quizzer using {path}…"]


def test_a_read_only_folder_with_a_pending_wal_still_reads_everything(tmp_path, monkeypatch):
    path = tmp_path / "p.db"
    with Store.open(path) as store:
        store.record_attempt(None, Attempt("attention", "scale", "d_k", True, 1, 0, 9, T0))
    # Another connection keeps the WAL from being checkpointed: the last attempt is only there.
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA wal_autocheckpoint = 0")
    holder.execute(
        "INSERT INTO attempts (card_id, blank, given, correct, try, hints, ms, at)"
        " VALUES ('attention', 'values', 'V', 1, 1, 0, 9, '2026-02-01T08:00:01.000+00:00')"
    )
    assert path.with_name("p.db-wal").stat().st_size > 0
    real_connect = sqlite3.connect
    original = path.resolve().as_uri()

    def as_in_a_read_only_folder(database, **kwargs):
        # Root may write anywhere, so the folder's refusal is played here: the file
        # opens read-only, and read-only opening fails for want of its -shm file.
        if not kwargs.get("uri"):
            return real_connect(f"file:{database}?mode=ro", uri=True, **kwargs)
        if str(database).startswith(original) and "immutable" not in str(database):
            raise sqlite3.OperationalError("unable to open database file")
        return real_connect(database, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", as_in_a_read_only_folder)
    with Store.open(path) as store:
        assert [a.given for a in store.attempts()] == ["d_k", "V"]
        with pytest.raises(StoreError, match="read-only"):
            store.start_session("quiz", T0)
    monkeypatch.undo()
    holder.close()


def test_a_new_database_that_cannot_be_set_up_leaves_no_file_and_no_success(tmp_path):
    import subprocess
    import sys

    # A file-size limit of one byte plays a full disk: SQLite cannot write its first page.
    script = (
        "import resource, signal, sys\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (1, 1))\n"
        "from quizzer.progress.store import Store, StoreError\n"
        "try:\n"
        "    Store.open(sys.argv[1]).close()\n"
        "except StoreError as error:\n"
        "    print(error.message)\n"
        "    sys.exit(2)\n"
    )
    path = tmp_path / "new.db"
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "progress" in done.stdout
    assert not path.exists() or path.stat().st_size == 0


def test_a_command_on_a_database_held_by_another_process_says_so_and_exits_2(tmp_path):
    import subprocess
    import sys
    import time

    path = tmp_path / "p.db"
    Store.open(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO sessions (mode, started_at) VALUES ('x', 'y')")
    holder.execute("COMMIT")  # the exclusive lock stays with the holder
    env = {**os.environ, "QUIZZER_DB": str(path)}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "quizzer", "stats"],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=30,
    )
    holder.close()
    assert done.returncode == 2, done.stderr
    assert f"waiting for another quizzer using {path}…" in done.stderr
    assert "progress database is busy" in done.stderr and "Traceback" not in done.stderr
    assert time.monotonic() - started < 10


def test_counts_in_sqlite_match_counting_the_rows_in_python(tmp_path):
    import random
    from collections import defaultdict
    from datetime import timedelta

    from quizzer.progress.stats import lapses
    from quizzer.progress.store import Review

    rng = random.Random(5)
    with Store.open(tmp_path / "p.db") as store:
        for index in range(300):
            card = rng.choice(["a", "b", "c", "d#follow-1"])
            at = T0 + timedelta(minutes=index)
            store.record_attempt(None, Attempt(card, "x", "y", rng.random() < 0.6, 1, 0, 5, at))
            if rng.random() < 0.5:
                log = {"card_id": 1, "rating": 1, "review_datetime": at.isoformat()}
                store.save_review(Review(card, rng.randint(1, 4), log, at), GOOD)
        by_card: dict[str, list[Review]] = defaultdict(list)
        for review in store.reviews():
            by_card[review.card_id].append(review)
        assert store.reviews_by_card() == {
            card: (len(reviews), lapses(reviews)) for card, reviews in by_card.items()
        }
        answered: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for attempt in store.attempts():
            answered[attempt.card_id][0] += 1
            answered[attempt.card_id][1] += attempt.correct
        assert store.answers_by_card() == {k: tuple(v) for k, v in answered.items()}
        firsts: dict[str, datetime] = {}
        for review in store.reviews():
            firsts.setdefault(review.card_id, review.at)
        day = T0.date().isoformat()
        assert store.first_reviews_on(day) == sum(
            1 for m in firsts.values() if m.date() == T0.date()
        )


@pytest.mark.parametrize(
    ("line", "repeats"),
    [
        ('{"card": "a", "rating": 3, "review_log": {"rating": 3, "card_id": 1}},', False),
        ('{"card": "a", "rating": 3, "review_log": {"rating": 3, "rating": 1}},', True),
        ('{"card": "a", "rating": 3, "card": "b", "review_log": {"rating": 3}},', True),
        ('{"card": "a", "card" : "b"}', True),
        ('{"card": "a", "given": "x\\": 1"}', True),  # an escaped quote: read the careful way
        ('{"card": "a", "given": "x\\\\"}', False),  # an escaped backslash hides nothing
        ('{"card": "a"}', False),
    ],
)
def test_the_fast_path_sends_every_line_that_may_repeat_a_key_the_careful_way(line, repeats):
    # The fast path parses with pydantic, which keeps the last of two keys silently.
    from quizzer.progress.restore import _repeats_a_key

    assert _repeats_a_key(line) is repeats
