"""Every command against bad input: one clear line on stderr, the documented exit code,
never a traceback (issue: hardening, item 5)."""

from __future__ import annotations

import io
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

from quizzer.cli.terminal import CUT, read_piped_line

from .conftest import MINIMAL_CARD


@pytest.fixture
def junk(tmp_path: Path) -> dict[str, Path]:
    files = {
        "folder": tmp_path / "a-folder.yaml",
        "empty_dir": tmp_path / "empty-deck",
        "binary": tmp_path / "binary.yaml",
        "latin1": tmp_path / "latin1.yaml",
        "empty": tmp_path / "empty.yaml",
        "text_db": tmp_path / "notes.db",
        "foreign_db": tmp_path / "foreign.db",
        "garbage_json": tmp_path / "garbage.json",
        "card": tmp_path / "deck" / "good.yaml",
    }
    files["folder"].mkdir()
    files["empty_dir"].mkdir()
    files["binary"].write_bytes(bytes(range(256)) * 4)
    files["latin1"].write_bytes("id: caf\xe9\n".encode("latin-1"))
    files["empty"].write_text("")
    files["text_db"].write_text("not a database\n")
    with closing(sqlite3.connect(files["foreign_db"])) as db:
        db.execute("CREATE TABLE t (x)")
        db.commit()
    files["garbage_json"].write_bytes(b"\xff\xfe\x00 not json")
    files["card"].parent.mkdir()
    files["card"].write_text(MINIMAL_CARD.format(id="good"))
    return files


CASES = [
    # (arguments, with {name} replaced by the junk file's path, expected exit code, fragment)
    (["show", "{folder}"], 2, "is a folder"),
    (["show", "{binary}"], 2, "invalid card"),
    (["show", "{latin1}"], 2, "not UTF-8"),
    (["show", "{empty}"], 2, "not empty"),
    (["show", "no-such-card"], 2, "unknown card"),
    (["check", "{folder}", "-a", "x"], 2, "is a folder"),
    (["check", "{binary}", "-a", "x"], 2, "invalid card"),
    (["check", "{card}", "-a", "\x00\x01\x02"], 1, None),
    (["validate", "{empty_dir}"], 2, "no card files"),
    (["validate", "{binary}"], 1, None),
    (["validate", "{latin1}", "--json"], 1, None),
    (["validate", "/no/such/path"], 2, "no such file or folder"),
    (["list", "--deck", "/no/such/path"], 2, "deck not found"),
    (["list", "--deck", "{empty_dir}"], 0, None),
    (["quiz", "{folder}"], 2, "is a folder"),
    (["quiz", "{latin1}"], 2, "not UTF-8"),
    (["quiz", "--deck", "{empty_dir}", "--tag", "nothing"], 2, "no cards"),
    (["quiz", "attention", "--db", "{text_db}"], 2, "not a quizzer progress database"),
    (["quiz", "attention", "--db", "{foreign_db}"], 2, "not a quizzer progress database"),
    (["quiz", "attention", "--db", "{empty_dir}"], 2, "is a folder"),
    (["quiz", "attention", "--tries", "0"], 2, None),
    (["review", "--db", "{text_db}"], 2, "not a quizzer progress database"),
    (["stats", "--db", "{text_db}"], 2, "not a quizzer progress database"),
    (["stats", "--db", "{empty_dir}"], 2, "is a folder"),
    (["drill", "--db", "{foreign_db}"], 2, "not a quizzer progress database"),
    (["drill", "--sheet", "{folder}", "--no-record"], 2, "cannot write"),
    (["progress", "export", "x.json", "--db", "{text_db}"], 2, "not a quizzer progress database"),
    (["progress", "import", "{folder}"], 2, "is a folder"),
    (["progress", "import", "{garbage_json}"], 2, "not a quizzer progress file"),
    (["progress", "import", "{binary}"], 2, "not a quizzer progress file"),
    (["progress", "reset", "--yes", "--db", "{foreign_db}"], 2, "not a quizzer progress database"),
    (["export", "anki", "{folder}"], 2, "is a folder"),
    (["export", "markdown", "/no/such/dir/x.md"], 2, "no such folder"),
    (["export", "json", "out.json", "--deck", "/no/such/path"], 2, "deck not found"),
    (["new", "bad id"], 2, "kebab-case"),
    (["new", "ok-id", "--deck", "{binary}"], 2, "is a file"),
    (["schema", "extra-argument"], 2, None),
    (["no-such-command"], 2, None),
]


@pytest.mark.parametrize(("args", "code", "fragment"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_input_gets_one_clear_line(invoke, junk, args, code, fragment, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    filled = [a.format(**{k: str(v) for k, v in junk.items()}) for a in args]
    result = invoke(*filled, input="")
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if fragment is not None:
        assert fragment in result.stderr
    if code == 2 and fragment is not None:
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_foreign_files_are_left_untouched(invoke, junk):
    before = junk["text_db"].read_bytes(), junk["foreign_db"].read_bytes()
    invoke("quiz", "attention", "--db", str(junk["text_db"]), input="sqrt(d_k)\n")
    invoke("stats", "--db", str(junk["foreign_db"]))
    assert (junk["text_db"].read_bytes(), junk["foreign_db"].read_bytes()) == before


# -- special files in decks and on the command line (issue 16, item 3) -------------------


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


def make_socket(path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()


def make_loop(path: Path) -> None:
    path.symlink_to(path.name)


SPECIAL = [
    ("fifo", make_fifo, "it is a FIFO, not a card file"),
    ("socket", make_socket, "it is a socket, not a card file"),
    ("symlink loop", make_loop, "a symlink loop"),
]


@pytest.fixture
def special_deck(tmp_path: Path, request: pytest.FixtureRequest) -> tuple[Path, str]:
    _, make, warning = request.param
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "good.yaml").write_text(MINIMAL_CARD.format(id="good"))
    make(deck / "p.yaml")
    return deck, warning


@pytest.mark.parametrize("special_deck", SPECIAL, indirect=True, ids=[s[0] for s in SPECIAL])
@pytest.mark.parametrize(
    ("command", "code"),
    [
        (["list"], 0),
        (["list", "--json"], 0),
        (["show", "good"], 0),
        (["validate", "{deck}"], 0),
        (["stats", "--json"], 0),
        (["quiz", "good"], 0),
        (["export", "markdown", "{deck}/../sheet.md"], 0),
    ],
)
def test_special_files_in_a_deck_are_skipped_with_one_warning(
    invoke, special_deck, command, code, tmp_path
):
    deck, warning = special_deck
    if command[0] == "stats":  # stats reads the deck only when there is progress
        invoke("quiz", "--deck", str(deck), "good", input="m\n")
    args = [a.format(deck=deck) for a in command]
    result = run_with_alarm(invoke, "--deck", str(deck), *args, input="")
    assert result.exit_code == code, result.output
    lines = [line for line in result.stderr.splitlines() if "skipped" in line]
    assert lines == [f"quizzer: warning: skipped {deck / 'p.yaml'}: {warning}"]


def run_with_alarm(invoke, *args, input=""):
    """Run a command, failing the test (rather than hanging) after 30 s."""

    def hung(*_):
        raise TimeoutError(f"quizzer {' '.join(args)} hung")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(30)
    try:
        return invoke(*args, input=input)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize(
    "args",
    [
        ["show", "{fifo}"],
        ["check", "{fifo}", "-a", "x"],
        ["quiz", "{fifo}"],
        ["show", "/dev/zero"],
        ["check", "/dev/zero", "-a", "x"],
        ["progress", "import", "{fifo}"],
        ["progress", "import", "/dev/zero"],
    ],
)
def test_a_special_file_named_on_the_command_line_is_one_line_and_exit_2(invoke, tmp_path, args):
    fifo = tmp_path / "p.yaml"
    os.mkfifo(fifo)
    result = run_with_alarm(invoke, *[a.format(fifo=fifo) for a in args])
    assert result.exit_code == 2, result.output
    assert "not a" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_unreadable_folders_and_files_are_warned_about(invoke, tmp_path, monkeypatch):
    # Tests may run as root, which reads anything: make the OS say "permission denied".
    deck = tmp_path / "deck"
    (deck / "locked").mkdir(parents=True)
    (deck / "good.yaml").write_text(MINIMAL_CARD.format(id="good"))
    (deck / "secret.yaml").write_text(MINIMAL_CARD.format(id="secret"))
    real_scandir, real_access = os.scandir, os.access

    def scandir(path):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    def access(path, mode):
        return not str(path).endswith("secret.yaml") and real_access(path, mode)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "access", access)
    result = invoke("--deck", str(deck), "list", "--json")
    assert result.exit_code == 0
    assert "good" in result.stdout and "secret" not in result.stdout
    assert f"skipped {deck / 'locked'}: cannot read the folder (Permission denied)" in result.stderr
    assert f"skipped {deck / 'secret.yaml'}: not readable" in result.stderr


# -- piped answers: one bounded line at a time -------------------------------------------


@pytest.mark.parametrize(
    ("piped", "lines"),
    [
        ("a\nb\n", ["a", "b"]),
        ("a\nlast", ["a", "last"]),
        ("", []),
        ("\n\n", ["", ""]),
        ("x" * 10 + "\nV\n", ["x" * 10, "V"]),
        ("x" * 11 + "\nV\n", ["x" * 10 + CUT, "V"]),
        ("x" * 11, ["x" * 10 + CUT]),
        ("x" * 10_000_000 + "\nV\n", ["x" * 10 + CUT, "V"]),
    ],
    ids=[
        "lines",
        "no final newline",
        "empty",
        "blank lines",
        "at the cap",
        "over",
        "over at end",
        "10 MB",
    ],
)
def test_piped_lines_are_capped(piped, lines):
    stream = io.StringIO(piped)
    read = []
    while (line := read_piped_line(stream, limit=10)) is not None:
        read.append(line)
    assert read == lines


# -- the environment: closed or full streams, the clock, ids, failed writes --------------


def run_quizzer(
    tmp_path: Path, *args: str, stdin=None, stdout=subprocess.PIPE, env=None, script=None
):
    """quizzer in a real process (streams, resource limits); returns (exit code, stderr)."""
    environment = {
        **os.environ,
        "QUIZZER_DB": str(tmp_path / "p.db"),
        "QUIZZER_CACHE": str(tmp_path / "cache"),
        "NO_COLOR": "1",
        **(env or {}),
    }
    command = (
        [sys.executable, "-c", script, *args]
        if script
        else [sys.executable, "-m", "quizzer", *args]
    )
    result = subprocess.run(
        command,
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        timeout=120,
        cwd=tmp_path,
    )
    return result.returncode, result.stderr


def test_a_closed_stdin_is_an_empty_input(tmp_path):
    # What `quizzer quiz attention <&-` does: the process starts with descriptor 0 closed.
    code, stderr = run_quizzer(
        tmp_path,
        script="import os, runpy, sys; os.close(0); sys.stdin = None;"
        " sys.argv = ['quizzer', 'quiz', 'attention'];"
        " from quizzer.cli import main; main()",
    )
    assert code == 0, stderr
    assert "Traceback" not in stderr and "internal error" not in stderr


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["list", "--json"],
        ["show", "attention"],
        ["check", "attention", "-a", "V", "--json"],
        ["stats", "--json"],
        ["schema"],
    ],
)
def test_a_full_stdout_is_one_line_and_exit_2(tmp_path, args):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        code, stderr = run_quizzer(tmp_path, *args, stdout=full)
    assert code == 2, stderr
    assert stderr.strip().splitlines() == [
        "quizzer: error: cannot write the output: No space left on device"
    ]


@pytest.mark.parametrize(
    ("now", "message"),
    [
        ("9999-12-31T00:00:00Z", "out of range"),
        ("0001-01-01T00:00:00+00:00", "out of range"),
        ("9999-12-31T23:00:00-05:00", "not an ISO 8601 time"),
        ("tomorrow", "not an ISO 8601 time"),
    ],
)
def test_an_out_of_range_clock_is_refused_before_anything_is_saved(tmp_path, now, message):
    code, stderr = run_quizzer(
        tmp_path, "quiz", "attention", stdin=subprocess.PIPE, env={"QUIZZER_NOW": now}
    )
    assert code == 2 and message in stderr, stderr
    assert not (tmp_path / "p.db").exists() or "attempts" not in stderr


@pytest.mark.parametrize(
    ("card_id", "message"),
    [
        ("a" * 300, "300 characters long"),
        ("abc\n", "is not a valid id"),
        ("abc\x1b[2J", "is not a valid id"),
        ("\x00", "is not a valid id"),
    ],
    ids=["300 characters", "trailing newline", "escape sequence", "NUL"],
)
def test_new_refuses_ids_that_cannot_name_a_file(invoke, tmp_path, card_id, message):
    result = invoke("new", card_id, "--deck", str(tmp_path / "deck"))
    assert result.exit_code == 2 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "deck").exists() or list((tmp_path / "deck").iterdir()) == []


UNDER_A_FILE_SIZE_LIMIT = """
import resource, sys
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
from quizzer.cli import main
sys.argv = ["quizzer", *sys.argv[1:]]
main()
"""


@pytest.mark.parametrize(
    "args",
    [
        ["export", "markdown", "out"],
        ["export", "json", "out"],
        ["export", "anki", "out"],
    ],
)
def test_a_failed_write_leaves_the_old_file(tmp_path, args):
    # RLIMIT_FSIZE makes the write fail (EFBIG) as a full disk would.
    target = tmp_path / "out"
    target.write_text("the previous export")
    code, stderr = run_quizzer(tmp_path, *args, script=UNDER_A_FILE_SIZE_LIMIT)
    assert code == 2, stderr
    assert "cannot write" in stderr and "Traceback" not in stderr
    assert target.read_text() == "the previous export"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_endless_input_without_newlines_is_read_in_bounded_lines():
    with open("/dev/zero", encoding="latin-1") as zeros:
        started = time.monotonic()
        lines = [read_piped_line(zeros) for _ in range(3)]
    assert all(line == "\x00" * 1024 + CUT for line in lines)
    assert time.monotonic() - started < 10


@pytest.mark.parametrize(
    "args",
    [["validate", "{fifo}"], ["--deck", "{fifo}", "list"], ["validate", "/dev/null"]],
)
def test_a_special_file_named_as_a_deck_is_one_line_and_exit_2(invoke, tmp_path, args):
    fifo = tmp_path / "p.yaml"
    os.mkfifo(fifo)
    result = run_with_alarm(invoke, *[a.format(fifo=fifo) for a in args])
    assert result.exit_code == 2, result.output
    assert "not a card file or folder" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


ESCAPES = "\x1b[2J\x1b]0;owned\x07\x9b31m"


def test_control_characters_typed_as_answers_are_never_echoed_raw(invoke):
    # Clear-screen, set-title and CSI sequences pasted as answers: every screen
    # that repeats what was typed (verdict, override, history, overrides) shows
    # them as visible symbols instead of sending them to the terminal.
    typed = f"d_k{ESCAPES}"
    quiz = invoke("quiz", "attention", input=f"{typed}\n{typed[1:]}\nd_k\n/override\nV\n")
    shown = [
        quiz.stdout,
        invoke("stats", "attention").stdout,
        invoke("overrides").stdout,
    ]
    assert quiz.exit_code == 0, quiz.output
    for text in shown:
        assert not any(ch in text for ch in "\x1b\x07\x9b"), repr(text)
    assert "␛[2J␛]0;owned␇" in quiz.stdout
    assert "counted as right [1] scale: d_k" in quiz.stdout


def test_visible_keeps_one_column_per_character():
    from quizzer.ui.widgets import visible

    assert visible("a\tb\x00\x7f\x85é√\r\n") == "a\tb␀␡\ufffdé√␍\n"
    assert len(visible(ESCAPES)) == len(ESCAPES)


@pytest.mark.parametrize(
    "args", [["show", "attention"], ["stats"], ["list"], ["show", "kl-divergence"]]
)
def test_a_reader_that_leaves_early_is_no_failure(tmp_path, args):
    # `quizzer show attention | head -1`: the pipe closes after one line.
    env = {**os.environ, "QUIZZER_DB": str(tmp_path / "p.db"), "COLUMNS": "80"}
    process = subprocess.Popen(
        [sys.executable, "-m", "quizzer", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()
    with process.stderr:
        assert process.wait(timeout=60) == 0
        assert b"Traceback" not in process.stderr.read()
