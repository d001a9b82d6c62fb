"""Ctrl-C, Ctrl-D and /quit at every kind of prompt, in a real terminal (pexpect).

Each way out ends the session the same way: the summary of what was shown
(never the card after), exit 130 for Ctrl-C and 0 otherwise, and everything
answered saved, the review of a finished card included (DESIGN.md items 10, 15).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pexpect
import pytest

from tests.conftest import quizzer_in_a_terminal

pytestmark = pytest.mark.slow

CARD = """\
id: {id}
title: Ways out {id}
tags: [waysout]
prompt: "y = {{{{slope}}}} x"
symbols:
  m: {{}}
blanks:
  slope:
    answer: m
    hint: the usual letter
follow_ups:
  - question: What is the intercept?
    approach: Set x = 0.
bullets:
  - m is the slope
"""

WAYS = {
    "/quit": ("quit", 0),
    "Ctrl-D": ("end of input", 0),
    "Ctrl-C": ("interrupted", 130),
}


@pytest.fixture
def deck(tmp_path):
    folder = tmp_path / "deck"
    folder.mkdir()
    for card_id in ("wo-first", "wo-second"):
        (folder / f"{card_id}.yaml").write_text(CARD.format(id=card_id), encoding="utf-8")
    return folder


def spawn(tmp_path, deck, *args: str) -> pexpect.spawn:
    return quizzer_in_a_terminal(
        tmp_path,
        *args,
        "--deck",
        str(deck),
        QUIZZER_CACHE=str(tmp_path / "cache"),
        QUIZZER_PAGER="",
    )


def leave(child: pexpect.spawn, way: str) -> None:
    if way == "/quit":
        child.sendline("/quit")
    elif way == "Ctrl-D":
        child.sendeof()
    else:
        child.sendintr()


def finish(child: pexpect.spawn, way: str) -> str:
    """Expect the end of the summary and the exit status; returns the summary."""
    reason, status = WAYS[way]
    child.expect_exact(f"stopped: {reason}")
    summary = child.before
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status
    return summary


def database(tmp_path) -> tuple[list[tuple], list[tuple]]:
    with closing(sqlite3.connect(tmp_path / "p.db")) as connection:
        attempts = connection.execute("SELECT card_id, given, correct FROM attempts").fetchall()
        reviews = connection.execute("SELECT card_id FROM reviews ORDER BY id").fetchall()
    return attempts, reviews


def to_menu(child: pexpect.spawn) -> None:
    child.expect_exact("[1] slope › ")
    child.sendline("m")
    child.expect_exact("n next card › ")  # the card back's menu (issue 24.1)


def to_follow_up(child: pexpect.spawn) -> None:
    to_menu(child)
    child.send("f")  # one key, no Enter
    child.expect_exact("Enter shows the approach")


def to_hint(child: pexpect.spawn) -> None:
    child.expect_exact("[1] slope › ")
    child.sendline("?")
    child.expect_exact("hint: the usual letter")
    child.expect_exact("[1] slope › ")


def to_rating(child: pexpect.spawn) -> None:
    to_follow_up(child)
    child.sendline("")
    child.expect_exact("Set x = 0.")
    child.expect_exact("n next card › ")
    child.send("n")
    child.expect_exact("Enter keeps › ")


QUIZ_PROMPTS = {
    "answer": lambda child: child.expect_exact("[1] slope › "),
    "hint": to_hint,
    "menu": to_menu,
    "follow-up": to_follow_up,
    "rating": to_rating,
}


def check_quiz(tmp_path, child, where: str, way: str) -> None:
    QUIZ_PROMPTS[where](child)
    leave(child, way)
    child.expect_exact("Session summary")
    summary = finish(child, way)
    assert "wo-first" in summary and "wo-second" not in summary  # never shown: not listed
    attempts, reviews = database(tmp_path)
    if where in ("answer", "hint"):
        # Untouched: not a miss. With a hint taken: shown as 0 of 1, one hint.
        row = "wo-first (not answered)" if where == "answer" else "0/1 │     0 │     1"
        assert row in summary
        assert (attempts, reviews) == ([], [])
    else:  # the card was finished: its attempt and its review are saved
        assert (attempts, reviews) == ([("wo-first", "m", 1)], [("wo-first",)])


@pytest.mark.parametrize("way", list(WAYS))
@pytest.mark.parametrize("where", list(QUIZ_PROMPTS))
def test_quiz(tmp_path, deck, where, way):
    child = spawn(tmp_path, deck, "quiz", "wo-first", "wo-second")
    check_quiz(tmp_path, child, where, way)


# review runs the same loop as quiz: each way out once, each at a different prompt.
@pytest.mark.parametrize(
    ("where", "way"), [("answer", "Ctrl-C"), ("follow-up", "Ctrl-D"), ("rating", "/quit")]
)
def test_review(tmp_path, deck, where, way):
    child = spawn(tmp_path, deck, "review", "--tag", "waysout")
    child.expect_exact("Review: 0 due, 2 new")
    check_quiz(tmp_path, child, where, way)


def to_drill_follow_up(child: pexpect.spawn) -> None:
    child.expect_exact("[1] slope › ")
    child.sendline("m")
    child.expect_exact("What is the intercept?")
    child.expect_exact("your answer (or say it out loud), then Enter › ")


def to_self_grade(child: pexpect.spawn) -> None:
    to_drill_follow_up(child)
    child.sendline("x = 0")
    child.expect_exact("Set x = 0.")
    child.expect_exact("did you get it?")


DRILL_PROMPTS = {
    "answer": lambda child: child.expect_exact("[1] slope › "),
    "follow-up": to_drill_follow_up,
    "self-grade": to_self_grade,
}


@pytest.mark.parametrize("way", list(WAYS))
@pytest.mark.parametrize("where", list(DRILL_PROMPTS))
def test_drill(tmp_path, deck, where, way):
    child = spawn(tmp_path, deck, "drill", "--tag", "waysout", "--seed", "1", "--minutes", "5")
    child.expect_exact("card 1 of 2")
    DRILL_PROMPTS[where](child)
    leave(child, way)
    reason, status = WAYS[way]
    if where == "answer":
        child.expect_exact(f"Drill stopped ({reason}) before any answer; nothing to report.")
    else:
        child.expect_exact("Drill report")
        child.expect_exact("cards right 1/1 · follow-ups 0/0")
        assert child.before.count("wo-") == 1  # one row: the card after was never shown
        child.expect_exact(f"stopped: {reason}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status
    attempts, reviews = database(tmp_path)
    if where == "answer":
        assert (attempts, reviews) == ([], [])
    else:  # the card's review is saved; the follow-up was never graded
        ((card_id, given, correct),) = attempts
        assert (given, correct) == ("m", 1) and reviews == [(card_id,)]
