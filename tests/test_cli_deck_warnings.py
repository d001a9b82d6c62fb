"""Every command that loads a deck says once, on stderr, which card files it could not use."""

from __future__ import annotations

import shutil

import pytest

from .conftest import ATTENTION

WARNING = "run 'quizzer validate' to see why"


@pytest.fixture
def troubled_deck(tmp_path):
    """A deck with a broken file and a second card with the attention card's id."""
    deck = tmp_path / "troubled"
    deck.mkdir()
    shutil.copy(ATTENTION, deck / "attention-copy.yaml")
    (deck / "broken.yaml").write_text("id: [\n", encoding="utf-8")
    return deck


COMMANDS = [
    (["list"], None),
    (["list", "--json"], None),
    (["show", "attention"], None),
    (["check", "attention", "-a", "sqrt(d_k)", "-a", "V"], None),
    (["quiz", "--tag", "attention", "--limit", "1", "--no-record"], ""),
    (["review", "--limit", "1"], ""),
    (["drill", "--tag", "attention", "--minutes", "1"], ""),
    (["export", "json", "{tmp}/out.json"], None),
    (["export", "markdown", "{tmp}/out.md", "attention"], None),
    (["overrides"], None),
    ([], None),  # bare quizzer: the status line
]


@pytest.mark.parametrize(("args", "stdin"), COMMANDS, ids=lambda v: " ".join(v) if v else "-")
def test_broken_files_and_duplicate_ids_are_one_warning(
    invoke, troubled_deck, tmp_path, args, stdin
):
    args = [arg.format(tmp=tmp_path) for arg in args]
    result = invoke("--deck", str(troubled_deck), *args, input=stdin)
    assert result.exit_code in (0, 1), result.output
    lines = [line for line in result.stderr.splitlines() if WARNING in line]
    assert len(lines) == 1, result.stderr
    (line,) = lines
    assert line.startswith("quizzer: warning: 1 card file could not be loaded;")
    assert (
        f"{troubled_deck / 'attention-copy.yaml'} is skipped: its id 'attention' is taken" in line
    )


def test_a_card_named_by_id_warns_of_its_skipped_copy(invoke, troubled_deck):
    invoke("list", "--deck", str(troubled_deck))  # fills the cache: the quick path reads it
    result = invoke("--deck", str(troubled_deck), "quiz", "attention", "--no-record", input="")
    assert result.exit_code == 0
    assert result.stderr.count(WARNING) == 1
    assert "attention-copy.yaml is skipped: its id 'attention' is taken" in result.stderr


def test_validate_lists_each_problem_without_the_summary(invoke, troubled_deck):
    result = invoke("validate", str(troubled_deck))
    assert result.exit_code == 1
    assert WARNING not in result.stderr
    assert "duplicate id 'attention'" in result.stdout and "broken.yaml:2:1" in result.stdout


def test_a_clean_deck_warns_of_nothing(invoke):
    result = invoke("list")
    assert result.exit_code == 0 and WARNING not in result.stderr
