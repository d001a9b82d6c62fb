"""Shell completion through the protocol bash uses (COMP_WORDS, COMP_CWORD, _QUIZZER_COMPLETE)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from quizzer.cli.completion import joined_option_words

from .conftest import ATTENTION


def completions(*words: str) -> list[str]:
    """What bash would offer with the cursor at the end of ``words`` (each a COMP_WORDS item)."""
    env = {
        **os.environ,
        "_QUIZZER_COMPLETE": "complete_bash",
        "COMP_WORDS": " ".join(["quizzer", *words]),
        "COMP_CWORD": str(len(words)),
    }
    result = subprocess.run(
        [sys.executable, "-m", "quizzer"], env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return result.stdout.split()


@pytest.mark.parametrize(
    ("words", "current", "expected"),
    [
        (["quizzer", "list", "--tag", "=", "tra"], 4, (["list"], "--tag=tra")),
        (["quizzer", "list", "--tag", "="], 3, (["list"], "--tag=")),
        (["quizzer", "list", "--tag", "tra"], 3, (["list", "--tag"], "tra")),
        (["quizzer", "quiz", "att"], 2, (["quiz"], "att")),
        (["quizzer", "quiz"], 2, (["quiz"], "")),
        # A lone '=' that follows no option is an argument like any other.
        (["quizzer", "check", "attention", "=", "x"], 4, (["check", "attention", "="], "x")),
    ],
)
def test_bash_words_are_rejoined_at_an_equals_sign(words, current, expected):
    assert joined_option_words(words, current) == expected


def test_bash_completes_the_value_of_tag_equals():
    # bash splits `--tag=tra` into --tag, =, tra: the offer is the tag, put after the '='.
    offered = completions("list", "--tag", "=", "tra")
    assert {"training", "transformers"} <= set(offered)
    assert all(tag.startswith("tra") for tag in offered)
    assert "attention" in completions("quiz", "--tag", "=")


def test_progress_reset_completes_card_ids():
    assert {"attention", "attention-cost"} <= set(completions("progress", "reset", "att"))


@pytest.fixture
def extra_deck(tmp_path):
    deck = tmp_path / "extra"
    deck.mkdir()
    text = ATTENTION.read_text(encoding="utf-8")
    text = text.replace("id: attention\n", "id: zz-extra-card\n", 1)
    text = text.replace("tags: [", "tags: [zz-extra-tag, ", 1)
    (deck / "extra.yaml").write_text(text, encoding="utf-8")
    return deck


def test_cards_and_tags_from_a_deck_given_earlier_on_the_line(extra_deck):
    assert completions("quiz", "zz") == []  # not a known card without the --deck
    assert completions("--deck", str(extra_deck), "quiz", "zz") == ["zz-extra-card"]
    assert completions("show", "--deck", str(extra_deck), "zz") == ["zz-extra-card"]
    assert completions("quiz", "--deck", str(extra_deck), "--tag", "zz") == ["zz-extra-tag"]
    # A --deck that does not exist offers nothing rather than an error in the shell.
    assert completions("--deck", str(extra_deck / "missing"), "quiz", "att") == []
