"""Every command against bad input: one clear line on stderr, the documented exit code,
never a traceback (issue: hardening, item 5)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

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
