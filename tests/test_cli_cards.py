"""list, show, validate and schema through the real Typer app."""

from __future__ import annotations

import json
import os
import re

import pytest
import yaml

from quizzer.cards.model import card_json_schema
from quizzer.cards.yamldoc import CardDumper

from .conftest import ATTENTION, MINIMAL_CARD, REPO


def test_list_shows_the_attention_card(invoke):
    result = invoke("list")
    assert result.exit_code == 0
    assert "attention" in result.stdout and "Scaled dot-product" in result.stdout


def test_list_json_and_tag_filter(invoke):
    cards = json.loads(invoke("list", "--json").stdout)
    (card,) = [c for c in cards if c["id"] == "attention"]
    assert card["title"] == "Scaled dot-product attention"
    assert card["tags"] == ["transformers", "attention"]
    assert card["path"] == str(ATTENTION)
    assert json.loads(invoke("list", "--tag", "no-such-tag", "--json").stdout) == []
    tagged = json.loads(invoke("list", "-t", "attention", "--json").stdout)
    assert "attention" in {c["id"] for c in tagged}
    assert all("attention" in c["tags"] for c in tagged)


def test_deck_option_before_and_after_the_command_and_env(invoke, tmp_path, monkeypatch):
    for name in ("one", "two", "three"):
        (tmp_path / name).mkdir()
        (tmp_path / name / f"{name}.yaml").write_text(MINIMAL_CARD.format(id=name))
    result = invoke(
        "--deck", str(tmp_path / "one"), "list", "--json", "--deck", str(tmp_path / "two")
    )
    ids = {c["id"] for c in json.loads(result.stdout)}
    assert {"attention", "one", "two"} <= ids and "three" not in ids
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "three"))
    assert "three" in {c["id"] for c in json.loads(invoke("list", "--json").stdout)}


def test_list_warns_about_broken_files_but_succeeds(invoke, write_card):
    bad = write_card("id: [\n", "deck/bad.yaml")
    result = invoke("list", "--deck", str(bad.parent))
    assert result.exit_code == 0
    assert "1 card file could not be loaded" in result.stderr


FULL_CARD_EXTRA = """
worked_example: |
  With d_k = 64 the scores have standard deviation 8; dividing by sqrt(64) = 8 brings it to 1.
code: |
  import numpy as np

  def attention(q, k, v):
      scores = q @ k.T / np.sqrt(q.shape[-1])
      return scores
  assert attention(np.ones((1, 4)), np.ones((1, 4)), None)[0, 0] == 2.0
related: [one-card, other-card]
"""


@pytest.fixture
def full_card(write_card):
    """The attention card with every section of the sections table filled in."""
    # The extra sections replace the card's own (the bundled card has some of them).
    card = {
        **yaml.safe_load(ATTENTION.read_text(encoding="utf-8")),
        **yaml.safe_load(FULL_CARD_EXTRA),
    }
    # quizzer's dumper: PyYAML's own leaves texts such as -1e9 bare, numbers in YAML 1.2.
    text = yaml.dump(card, Dumper=CardDumper, allow_unicode=True, sort_keys=False)
    return write_card(text, "deck/attention.yaml")


def test_show_renders_every_section_of_the_table(invoke, full_card):
    from quizzer.cards.sections import SECTIONS

    result = invoke("show", str(full_card))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "softmax(Q Kᵀ / [1]) [2]" in out
    # Every section, under its title, in the table's order.
    places = [out.index(section.title) for section in SECTIONS]
    assert places == sorted(places)
    assert "def attention(q, k, v):" in out  # code shown as written, never run
    assert "Related: one-card, other-card" in out


def test_show_prints_source_addresses_whole_and_nothing_else_past_the_width(invoke):
    from quizzer.cards.deck import load_card_file

    out = invoke("show", "attention").stdout
    lines = out.splitlines()
    addresses = [s.url for s in load_card_file(ATTENTION)[0].card.sources if s.url]
    for address in addresses:
        assert f"  {address}" in lines  # one line each, never folded or boxed
    assert all(len(line) <= 80 for line in lines if line.strip() not in addresses)


@pytest.mark.parametrize("no_color", [False, True])
def test_show_makes_source_addresses_terminal_links(no_color):
    import io

    from rich.console import Console

    from quizzer.cards.deck import load_card_file
    from quizzer.ui.screen import Screen

    out = io.StringIO()
    screen = Screen(error_file=io.StringIO())
    screen.out = Console(
        file=out, width=40, force_terminal=True, no_color=no_color, markup=False, highlight=False
    )
    screen.cards.card(load_card_file(ATTENTION)[0])
    text = out.getvalue()
    # OSC 8 hyperlinks: ESC ] 8 ; params ; URI ESC \ shown text ESC ] 8 ; ; ESC \
    links = re.findall(r"\x1b\]8;[^;]*;(\S+?)\x1b\\(.*?)\x1b\]8;;\x1b\\", text, re.S)
    shown = {uri: re.sub(r"\x1b\[[0-9;]*m", "", label) for uri, label in links}
    card = load_card_file(ATTENTION)[0].card
    # Each address is one link that shows the whole address, even far wider than 40 columns.
    assert shown == {s.url: s.url for s in card.sources if s.url}


def test_code_is_highlighted_in_colour_and_plain_without(invoke, full_card):
    from quizzer.ui.card import code_block

    assert "def attention" in invoke("show", str(full_card)).stdout
    from rich.console import Console

    coloured = Console(file=None, width=80, force_terminal=True, color_system="standard")
    with coloured.capture() as captured:
        coloured.print(code_block("import numpy as np"))
    assert "\x1b[" in captured.get() and "import" in captured.get()


def test_show_by_path_and_json(invoke):
    data = json.loads(invoke("show", str(ATTENTION), "--json").stdout)
    assert data["id"] == "attention" and list(data["blanks"]) == ["scale", "values"]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["show", "atention"], "unknown card 'atention'; did you mean attention"),
        (["show", "nope/missing.yaml"], "no card file at nope/missing.yaml"),
        (["list", "--deck", "/no/such/folder"], "deck not found: /no/such/folder"),
        (["validate", "/no/such/file.yaml"], "no such file or folder"),
    ],
)
def test_bad_requests_are_one_line_and_exit_2(invoke, args, fragment):
    result = invoke(*args)
    assert result.exit_code == 2
    assert fragment in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_bad_option_is_a_usage_error(invoke):
    result = invoke("list", "--frobnicate")
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_show_of_an_invalid_card_file_is_exit_2(invoke, write_card):
    bad = write_card(MINIMAL_CARD.format(id="BAD"))
    result = invoke("show", str(bad))
    assert result.exit_code == 2
    assert f"invalid card: {bad}:1:5: id must be lower-case kebab-case" in result.stderr


def test_debug_shows_the_traceback(invoke):
    result = invoke("--debug", "show", "nope")
    assert result.exit_code != 0 and result.exception is not None
    assert type(result.exception).__name__ == "CardNotFound"


def test_validate_bundled_deck_is_clean_and_strict(invoke):
    result = invoke("validate", "--strict")
    assert result.exit_code == 0, result.output
    assert "no problems" in result.stderr


def test_validate_reports_located_problems(invoke, write_card):
    bad = write_card(MINIMAL_CARD.format(id="broken").replace("answer: m", "answr: m"))
    result = invoke("validate", str(bad))
    assert result.exit_code == 1
    assert f"{bad}:8:5: missing required field 'answer'" in result.stdout


def test_validate_json(invoke, write_card):
    bad = write_card("id: [\n")
    report = json.loads(invoke("validate", str(bad), "--json").stdout)
    assert report["ok"] is False and report["cards"] == 1
    (problem,) = report["problems"]
    assert {"path", "line", "column", "message"} <= set(problem)
    assert problem["path"] == str(bad) and problem["line"] == 2
    clean = json.loads(invoke("validate", str(ATTENTION), "--json").stdout)
    assert clean == {"ok": True, "cards": 1, "problems": []}


def test_minimal_card_warns_plainly_and_fails_strictly(invoke, write_card):
    path = write_card(MINIMAL_CARD.format(id="minimal"))
    plain = invoke("validate", str(path))
    assert plain.exit_code == 0
    assert f"{path}:1:1: warning: missing teaching section 'intuition'" in plain.stdout
    strict = invoke("validate", "--strict", str(path))
    assert strict.exit_code == 1
    assert f"{path}:1:1: missing teaching section 'intuition'" in strict.stdout


def test_validate_finds_a_duplicate_of_a_bundled_card(invoke, write_card):
    copy = write_card(ATTENTION.read_text(), "mine/attention.yaml")
    result = invoke("validate", str(copy))
    assert result.exit_code == 1
    assert "duplicate id 'attention'" in result.stdout and str(ATTENTION) in result.stdout


def test_validate_unknown_related_card(invoke, write_card):
    path = write_card(MINIMAL_CARD.format(id="lonely") + "related: [nowhere]\n")
    result = invoke("validate", str(path))
    assert f"{path}:9:11: warning: unknown related card 'nowhere'" in result.stdout


def test_schema_is_the_model_and_the_checked_in_copy_is_current(invoke):
    printed = json.loads(invoke("schema").stdout)
    assert printed == card_json_schema()
    assert printed["additionalProperties"] is False
    assert {"id", "title", "prompt", "blanks"} <= set(printed["required"])
    checked_in = json.loads((REPO / "schema" / "card.schema.json").read_text())
    assert checked_in == printed, "run: quizzer schema > schema/card.schema.json"


def test_version_and_help(invoke):
    assert invoke("--version").stdout.startswith("quizzer ")
    help_text = invoke("--help").stdout
    for command in ("list", "show", "validate", "schema"):
        assert command in help_text


def test_python_dash_m_is_the_same_command():
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "quizzer", "list", "--json"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ},
    )
    assert result.returncode == 0 and '"attention"' in result.stdout


def test_list_shows_each_cards_number_of_blanks(invoke):
    line = next(row for row in invoke("list").stdout.splitlines() if row.startswith("  attention "))
    assert "Scaled dot-product attention · 2 blanks" in line
