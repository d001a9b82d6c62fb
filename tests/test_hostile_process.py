"""Red team, against the installed command: locales, encodings, stdin bytes, signals, pipes.

Issue 27 items 1-4 and 6 as a user meets them, each case in its own process
under a time limit (see tests/hostile.py). Kept to the cases that need a real
process, so the suite stays fast: the rest is in test_hostile_input.py.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

from tests.hostile import HANG_SECONDS, QUIZZER, assert_clean, one_error_line, run

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or not Path(QUIZZER).exists(), reason="POSIX, installed command"
)

TWO_BLANKS = """\
id: two-blanks
title: Two blanks √ and β
prompt: "The {{word}} of y is {{slope}} x"
symbols:
  m: {}
blanks:
  word:
    answer: slope
    also: [gradient]
  slope:
    answer: m
"""


@pytest.fixture(scope="session")
def warm_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One deck cache for every case: building it (161 cards) is start-up, not a hang."""
    cache = tmp_path_factory.mktemp("cache")
    subprocess.run(
        [QUIZZER, "list"],
        env={**os.environ, "QUIZZER_CACHE": str(cache)},
        capture_output=True,
        timeout=120,
        check=False,
    )
    return cache


@pytest.fixture(autouse=True)
def _shared_cache(warm_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUIZZER_CACHE", str(warm_cache))


@pytest.fixture
def deck(tmp_path: Path) -> Path:
    path = tmp_path / "two.yaml"
    path.write_text(TWO_BLANKS, encoding="utf-8")
    return path


def attempts(db: Path) -> list[tuple[str, str, int]]:
    with closing(sqlite3.connect(db)) as connection:
        rows = connection.execute("SELECT blank, given, correct FROM attempts ORDER BY id")
        return [tuple(row) for row in rows]


# -- item 3: any locale, any encoding -------------------------------------------------

ENVIRONMENTS = {
    "LC_ALL=C": {"LC_ALL": "C", "LANG": "C"},
    "LANG unset": {"LC_ALL": "", "LANG": "", "LC_CTYPE": ""},
    "PYTHONIOENCODING=ascii": {"PYTHONIOENCODING": "ascii"},
    "PYTHONIOENCODING=latin-1": {"PYTHONIOENCODING": "latin-1"},
    "missing locale": {"LC_ALL": "xx_YY.UTF-8"},
}


@pytest.mark.parametrize("environment", list(ENVIRONMENTS))
def test_output_never_fails_on_an_encoding(tmp_path, deck, environment):
    env = {**ENVIRONMENTS[environment], "QUIZZER_DB": str(tmp_path / "p.db")}
    for args, expected in (
        (["show", "--deck", str(deck), "two-blanks"], 0),
        (["check", "--deck", str(deck), "two-blanks", "-a", "gradient", "-a", "√m·m"], 1),
    ):
        done = run(*args, env=env)
        assert_clean(done.returncode, expected, done.stderr.decode("utf-8", "replace"))
        assert done.stdout  # something was written, in whatever the stream can encode


BAD_BYTES = {
    "invalid byte": b"slo\xffpe",
    "CESU surrogate": b"x\xed\xa0\x80y",
    "overlong slash": b"\xc0\xafa",
    "lone continuation": b"\x80\x80",
}


@pytest.mark.parametrize(
    ("name", "environment"),
    [
        ("invalid byte", "LC_ALL=C"),
        ("CESU surrogate", "PYTHONIOENCODING=ascii"),
        ("overlong slash", "LC_ALL=C"),
        ("lone continuation", "PYTHONIOENCODING=latin-1"),
    ],
)
def test_stdin_that_is_not_utf8_is_judged_and_every_attempt_is_stored(
    tmp_path, deck, name, environment
):
    db = tmp_path / "p.db"
    env = {**ENVIRONMENTS[environment], "QUIZZER_DB": str(db)}
    done = run(
        "quiz", "--deck", str(deck), "two-blanks", "--tries", "1",
        input=BAD_BYTES[name] + b"\nm\n", env=env,
    )  # fmt: skip
    assert_clean(done.returncode, 0, done.stderr.decode("utf-8", "replace"))
    stored = attempts(db)
    assert [blank for blank, _, _ in stored] == ["word", "slope"], stored
    assert stored[1][1:] == ("m", 1)  # the other blank's right attempt is saved


# -- item 4: SIGTERM and SIGHUP end a session as Ctrl-C does -------------------------


def _session_until_answered(db: Path, deck: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [QUIZZER, "quiz", "--deck", str(deck), "two-blanks"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "QUIZZER_DB": str(db)},
    )
    assert process.stdin is not None
    process.stdin.write(b"slope\n")
    process.stdin.flush()
    deadline = time.monotonic() + HANG_SECONDS * 3  # start-up on a loaded machine
    while time.monotonic() < deadline:  # the first answer is saved: the session is on
        if db.exists():
            try:
                if attempts(db):
                    return process
            except sqlite3.OperationalError:
                pass  # the database is being set up
        time.sleep(0.1)
    process.kill()
    pytest.fail("the first answer was never saved")


@pytest.mark.parametrize(
    ("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)], ids=["TERM", "HUP"]
)
def test_a_signal_ends_a_piped_session_like_ctrl_c(tmp_path, deck, signum, code):
    db = tmp_path / "p.db"
    process = _session_until_answered(db, deck)
    process.send_signal(signum)
    try:
        out, err = process.communicate(timeout=HANG_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("the session did not end")
    assert_clean(process.returncode, code, err.decode(), out.decode())
    assert "stopped: interrupted" in out.decode()  # the summary, as after Ctrl-C
    assert attempts(db) == [("word", "slope", 1)]
    with closing(sqlite3.connect(db)) as connection:
        ended = connection.execute("SELECT ended_at FROM sessions").fetchall()
    assert ended and all(row[0] for row in ended)  # the session was closed


# -- item 7: a closed pipe is no failure --------------------------------------------------


def test_an_export_to_stdout_read_only_in_part_exits_0_quietly(tmp_path):
    command = f"'{QUIZZER}' export json /dev/stdout | head -c 10"
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        capture_output=True,
        env={**os.environ, "QUIZZER_DB": str(tmp_path / "p.db")},
        timeout=HANG_SECONDS,
        check=False,
    )
    assert_clean(done.returncode, 0, done.stderr.decode())
    assert done.stderr == b""
    assert len(done.stdout) == 10


def test_escape_sequences_reach_no_real_terminal_output(tmp_path):
    card = tmp_path / "esc.yaml"
    title = 'title: "Two \\e]0;owned\\a\\e[2J blanks"'
    card.write_text(TWO_BLANKS.replace("title: Two blanks √ and β", title), encoding="utf-8")
    done = run("list", "--deck", str(card), env={"QUIZZER_DB": str(tmp_path / "p.db")})
    assert_clean(done.returncode, 0, done.stderr.decode())
    assert b"\x1b" not in done.stdout and b"\x07" not in done.stdout
    assert b"\\x1b" in done.stdout


# -- items 1, 2, 6 (the store's), from the installed command ---------------------------


def _db_with_one_attempt(tmp_path: Path, state: str | None = None) -> Path:
    from tests.test_progress_damaged import db_with

    return db_with(tmp_path / "p.db", state=state)


@pytest.mark.parametrize(
    "writer",
    [
        ["export", "json"],
        ["export", "markdown"],
        ["export", "anki"],
        ["progress", "export"],
    ],
    ids=" ".join,
)
def test_no_export_replaces_the_progress_database(tmp_path, writer):
    db = _db_with_one_attempt(tmp_path)
    before = db.read_bytes()
    done = run(*writer, str(db), env={"QUIZZER_DB": str(db)})
    assert_clean(done.returncode, 2, done.stderr.decode())
    one_error_line(done.stderr.decode())
    assert db.read_bytes() == before
    assert attempts(db)


DAMAGED = {
    "garbage": '{"not json',
    "wrong shape": "[1, 2]",
    "stability 0": json.dumps({"card_id": 1, "state": 2, "stability": 0}),
}


@pytest.mark.parametrize(
    ("state", "args"),
    [
        ("garbage", ["list"]),
        ("wrong shape", ["stats"]),
        ("stability 0", ["review", "--limit", "1"]),
        ("garbage", ["progress", "export", "BACKUP"]),
    ],
    ids=lambda value: value if isinstance(value, str) else " ".join(value),
)
def test_a_damaged_schedule_is_a_warning_not_a_crash(tmp_path, state, args):
    db = _db_with_one_attempt(tmp_path, DAMAGED[state])
    args = [str(tmp_path / "backup.json") if arg == "BACKUP" else arg for arg in args]
    done = run(*args, env={"QUIZZER_DB": str(db)})
    assert_clean(done.returncode, 0, done.stderr.decode(), done.stdout.decode())
    assert "damaged" in done.stderr.decode()


@pytest.mark.parametrize("name", [":memory:", "file::memory:"])
def test_a_database_in_memory_is_refused_at_once(name):
    done = run("quiz", "attention", input=b"d_k\n", env={"QUIZZER_DB": name})
    assert_clean(done.returncode, 2, done.stderr.decode())
    one_error_line(done.stderr.decode())
