"""Every command that loads a deck says once, on stderr, which card files it could not use."""

from __future__ import annotations

import shutil

import pytest

from .conftest import ATTENTION

WARNING = "run 'quizzer validate' to see why"


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def _one_cache_for_the_module(isolated_environment, shared_cache, monkeypatch):
    # Each command would otherwise parse the whole bundled deck afresh; the cache is
    # checked against every file's size and time, and problems are never cached.
    monkeypatch.setenv("QUIZZER_CACHE", str(shared_cache))


@pytest.fixture(scope="module")
def troubled_deck(tmp_path_factory):
    """A deck with a broken file and a second card with the attention card's id."""
    deck = tmp_path_factory.mktemp("decks") / "troubled"
    deck.mkdir()
    shutil.copy(ATTENTION, deck / "attention-copy.yaml")
    (deck / "broken.yaml").write_text("id: [\n", encoding="utf-8")
    return deck


#: (arguments, standard input, whether the command walks the whole deck). A card named
#: by id is taken from the cache index when it is there: that quick path cannot count
#: broken files, but names the skipped copy of the card it was asked for.
COMMANDS = [
    (["list"], None, True),
    (["list", "--json"], None, True),
    (["show", "attention"], None, False),
    (["check", "attention", "-a", "sqrt(d_k)", "-a", "V"], None, False),
    (["quiz", "--tag", "attention", "--limit", "1", "--no-record"], "", True),
    (["review", "--limit", "1"], "", True),
    (["drill", "--tag", "attention", "--minutes", "1"], "", True),
    (["export", "json", "{tmp}/out.json"], None, True),
    (["export", "markdown", "{tmp}/out.md", "attention"], None, False),
    (["overrides"], None, True),
    ([], None, True),  # bare quizzer: the status line
]


@pytest.mark.parametrize(
    ("args", "stdin", "walks"), COMMANDS, ids=lambda v: " ".join(v) if isinstance(v, list) else ""
)
def test_broken_files_and_duplicate_ids_are_one_warning(
    invoke, troubled_deck, tmp_path, args, stdin, walks
):
    args = [arg.format(tmp=tmp_path) for arg in args]
    result = invoke("--deck", str(troubled_deck), *args, input=stdin)
    assert result.exit_code in (0, 1), result.output
    lines = [line for line in result.stderr.splitlines() if WARNING in line]
    assert len(lines) == 1, result.stderr
    (line,) = lines
    assert line.startswith("quizzer: warning: ")
    assert (
        f"{troubled_deck / 'attention-copy.yaml'} is skipped: its id 'attention' is taken" in line
    )
    if walks:
        assert line.startswith("quizzer: warning: 1 card file could not be loaded;")


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
