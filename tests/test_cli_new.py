"""`quizzer new`: a template that loads, teaches, and cannot be published by accident."""

from __future__ import annotations

import json
from pathlib import Path

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


# --- where new cards go: the user deck, --deck, never the installed package ----------


def user_deck(home):
    return home / "data" / "quizzer" / "my-cards"


def test_new_writes_into_the_user_deck_which_every_command_loads(invoke, isolated_environment):
    result = invoke("new", "my-card")
    assert result.exit_code == 0, result.stderr
    path = user_deck(isolated_environment) / "my-card.yaml"
    assert result.stdout.strip() == str(path)
    # The schema is written beside the author's cards and the card's first line names it.
    assert path.read_text().splitlines()[0] == "# yaml-language-server: $schema=card.schema.json"
    schema = json.loads((path.parent / "card.schema.json").read_text())
    assert json.loads(invoke("schema").stdout) == schema
    shown = invoke("show", "my-card", "--json")
    assert shown.exit_code == 0 and json.loads(shown.stdout)["path"] == str(path)
    listed = {c["id"]: c for c in json.loads(invoke("list", "--json").stdout)}
    assert listed["my-card"]["deck"] == "my-cards"
    assert "attention" in listed  # the bundled deck is still there
    headings = invoke("list", "--no-pager").stdout.splitlines()
    assert "my-cards/  1 card" in headings  # its own deck; untagged, so no tag summary


def test_the_user_deck_follows_quizzer_user_deck(invoke, tmp_path, monkeypatch):
    monkeypatch.setenv("QUIZZER_USER_DECK", str(tmp_path / "mine"))
    assert invoke("new", "own-card").exit_code == 0
    assert (tmp_path / "mine" / "own-card.yaml").is_file()
    assert invoke("show", "own-card").exit_code == 0


def test_reading_cards_never_creates_the_user_deck(invoke, isolated_environment):
    assert invoke("list", "--json").exit_code == 0
    assert not user_deck(isolated_environment).exists()


def test_new_refuses_the_installed_package_and_a_taken_id(invoke, tmp_path):
    import quizzer

    package = Path(quizzer.__file__).parent
    refused = invoke("new", "in-package", "--deck", str(package / "answers"))
    assert refused.exit_code == 2
    assert (
        refused.stderr.count("\n") == 1 and "inside the installed quizzer package" in refused.stderr
    )
    assert not (package / "answers" / "in-package.yaml").exists()
    taken = invoke("new", "attention", "--deck", str(tmp_path))
    assert (
        taken.exit_code == 2
        and "already exists" in taken.stderr
        and "attention.yaml" in taken.stderr
    )
    assert not (tmp_path / "attention.yaml").exists()
    refused_schema = invoke("schema", "--write", str(package))
    assert refused_schema.exit_code == 2 and "installed quizzer package" in refused_schema.stderr


def test_schema_write_puts_the_schema_where_new_cards_find_it(invoke, tmp_path):
    written = invoke("schema", "--write", str(tmp_path / "cards"))
    assert written.exit_code == 0
    schema = tmp_path / "cards" / "card.schema.json"
    assert written.stdout.strip() == str(schema)
    assert json.loads(schema.read_text()) == json.loads(invoke("schema").stdout)
    assert invoke("new", "deep-card", "--deck", str(tmp_path / "cards" / "sub")).exit_code == 0
    first = (tmp_path / "cards" / "sub" / "deep-card.yaml").read_text().splitlines()[0]
    assert first == "# yaml-language-server: $schema=../card.schema.json"
    afile = tmp_path / "afile"
    afile.write_text("")
    assert invoke("schema", "--write", str(afile)).exit_code == 2


def test_a_bundled_cards_source_is_named_where_it_is_edited(tmp_path, monkeypatch):
    from quizzer.cards import finding

    package = tmp_path / "site-packages" / "quizzer"
    card = package / "content" / "ml" / "attention.yaml"
    card.parent.mkdir(parents=True)
    card.write_text("")
    monkeypatch.setattr(finding, "package_dir", lambda: package)
    assert finding.source_of(card).startswith("content/ml/attention.yaml in quizzer's source")
    mine = tmp_path / "mine.yaml"
    assert finding.source_of(mine) == str(mine)
