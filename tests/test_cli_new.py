"""`quizzer new`: a template that loads, teaches, and cannot be published by accident."""

from __future__ import annotations

import json

from quizzer.cards.deck import load_card_file


def test_new_writes_a_loadable_template(invoke, tmp_path):
    folder = tmp_path / "deck"
    result = invoke("new", "my-card", "--deck", str(folder), "--blanks", "2")
    assert result.exit_code == 0
    path = folder / "my-card.yaml"
    assert result.stdout.strip() == str(path)
    text = path.read_text()
    assert text.startswith("# yaml-language-server: $schema=")
    schema_ref = text.splitlines()[0].split("=", 1)[1]
    assert (folder / schema_ref).resolve().is_file()
    loaded, problems = load_card_file(path)
    assert problems == [] and list(loaded.card.blanks) == ["part1", "part2"]
    for section in (
        "intuition",
        "explanation",
        "limitations",
        "used_in",
        "follow_ups",
        "red_flags",
        "bullets",
        "sources",
        "related",
        "examples",
        "wrong",
    ):
        assert section in text


def test_template_examples_pass_but_strict_refuses_placeholders(invoke, tmp_path):
    invoke("new", "my-card", "--deck", str(tmp_path))
    path = tmp_path / "my-card.yaml"
    plain = json.loads(invoke("validate", str(path), "--json").stdout)
    assert plain["ok"] is True
    assert all(p["severity"] == "warning" for p in plain["problems"])
    strict = invoke("validate", "--strict", str(path))
    assert strict.exit_code == 1
    assert "placeholder text left from the template" in strict.stdout


def test_new_refuses_to_overwrite_and_bad_ids(invoke, tmp_path):
    assert invoke("new", "x-card", "--deck", str(tmp_path)).exit_code == 0
    before = (tmp_path / "x-card.yaml").read_text()
    again = invoke("new", "x-card", "--deck", str(tmp_path))
    assert again.exit_code == 2 and "already exists" in again.stderr
    assert (tmp_path / "x-card.yaml").read_text() == before
    bad = invoke("new", "Bad_Id", "--deck", str(tmp_path))
    assert bad.exit_code == 2 and "kebab-case" in bad.stderr
    afile = tmp_path / "file"
    afile.write_text("")
    assert invoke("new", "y-card", "--deck", str(afile)).exit_code == 2


def test_try_a_new_card_without_recording(invoke, tmp_path, isolated_environment):
    invoke("new", "z-card", "--deck", str(tmp_path))
    result = invoke("quiz", "--no-record", str(tmp_path / "z-card.yaml"), input="x N\n")
    assert result.exit_code == 0 and "✓ [1] answer  x N" in result.stdout
    assert not (isolated_environment / "progress.db").exists()
