"""Progress survives kills, concurrent sessions and a full disk."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path

import pytest

from quizzer.progress.store import Attempt, Store, StoreError

pytestmark = pytest.mark.slow

ANSWERS = ["d_k", "sqrt(d_k)", "K", "V"] * 4  # four cards' worth of attempts


def start_quiz(db: Path, tmp_path: Path) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "QUIZZER_DB": str(db),
        "PYTHONUNBUFFERED": "1",
        "NO_COLOR": "1",
        "QUIZZER_CACHE": str(tmp_path / "cache"),
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "quizzer",
            "quiz",
            "attention",
            "attention",
            "attention",
            "attention",
            "--brief",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )


def judged_lines(process: subprocess.Popen[str], seen: list[str]) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith(("✓ [", "✗ [")):
            seen.append(line.strip())


def attempts_in(db: Path) -> list[tuple[str, int]]:
    with closing(sqlite3.connect(db)) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return connection.execute("SELECT given, correct FROM attempts ORDER BY id").fetchall()


def has_schema(db: Path) -> bool:
    if not db.exists():
        return False
    with closing(sqlite3.connect(db)) as connection:
        return connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0


def test_random_kills_never_lose_a_judged_attempt(tmp_path):
    rng = random.Random(7)
    for run in range(8):
        db = tmp_path / f"run-{run}.db"
        process = start_quiz(db, tmp_path)
        seen: list[str] = []
        reader = threading.Thread(target=judged_lines, args=(process, seen), daemon=True)
        reader.start()
        assert process.stdin is not None
        for answer in ANSWERS[: rng.randint(1, len(ANSWERS))]:
            process.stdin.write(answer + "\n")
            process.stdin.flush()
            time.sleep(rng.uniform(0, 0.15))
        time.sleep(rng.uniform(0, 1.0))
        process.send_signal(signal.SIGKILL)
        process.wait()
        reader.join(10)
        process.stdin.close()
        if process.stdout and not reader.is_alive():
            # Closing a pipe another thread is still reading blocks on that thread's
            # lock; what this test checks is in the database, not in the pipe.
            process.stdout.close()
        if not has_schema(db):
            # Killed before the schema was committed: nothing can have been judged,
            # and the half-made file must open as a fresh database next time.
            assert seen == []
            with Store.open(db) as store:
                assert store.totals().attempts == 0
            continue
        stored = attempts_in(db)
        assert len(stored) >= len(seen), (run, seen, stored)
        assert [given for given, _ in stored] == ANSWERS[: len(stored)]


def test_two_sessions_at_once_keep_every_attempt(tmp_path):
    db = tmp_path / "shared.db"
    processes = [start_quiz(db, tmp_path) for _ in range(2)]
    outputs = []
    for process in processes:
        out, _ = process.communicate("\n".join(ANSWERS) + "\n", timeout=60)
        outputs.append(out)
        assert process.returncode == 0
    stored = attempts_in(db)
    assert len(stored) == 2 * len(ANSWERS)
    with closing(sqlite3.connect(db)) as connection:
        assert connection.execute("SELECT count(*) FROM sessions").fetchone()[0] == 2


def test_a_full_disk_is_a_clear_error(tmp_path):
    path = tmp_path / "p.db"
    moment = datetime(2026, 1, 1, tzinfo=timezone.utc)
    with Store.open(path) as store:
        session = store.start_session("quiz", moment)
        pages = store.connection.execute("PRAGMA page_count").fetchone()[0]
        store.connection.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(StoreError, match="no space left"):
            for index in range(10_000):
                store.record_attempt(
                    session, Attempt("c", "b", "x" * 500 + str(index), True, 1, 0, 1, moment)
                )
    with Store.open(path) as store:  # what was committed is intact and readable
        assert store.totals().attempts > 0
