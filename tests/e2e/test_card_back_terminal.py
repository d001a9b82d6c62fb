"""The card back at 80×24 in a real terminal (pexpect): the pager, one key a section.

Every section is reachable, and quitting from any of them keeps the card's
answers and review (issue 24.1, 24.8).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pexpect
import pytest

from tests.conftest import quizzer_in_a_terminal

pytestmark = pytest.mark.slow

#: less's prompts: more to read (":"), or the end of the text.
LESS_PROMPTS = [r"\n:", r"\(END\)"]


def to_menu(child: pexpect.spawn) -> str:
    """Page through whatever less shows (q leaves it) until the menu; returns all seen."""
    seen = ""
    while True:
        index = child.expect([MENU_RE, *LESS_PROMPTS])
        seen += child.before
        if index == 0:
            return seen
        child.send("q")


MENU_RE = r"n next card › "


def start(tmp_path) -> pexpect.spawn:
    child = quizzer_in_a_terminal(tmp_path, "quiz", "attention", TERM="xterm", PAGER="less")
    child.expect_exact("[1] scale › ")
    child.sendline("sqrt(d_k)")
    child.expect_exact("[2] values › ")
    child.sendline("V")
    return child


def reviews(tmp_path) -> list[tuple]:
    with closing(sqlite3.connect(tmp_path / "p.db")) as connection:
        return connection.execute("SELECT card_id FROM reviews").fetchall()


def test_every_section_is_reachable_one_key_each(tmp_path):
    child = start(tmp_path)
    try:
        seen = to_menu(child)
        assert "Intuition" in seen and "Explanation" in seen
        for key, title in (
            ("e", "Worked example"),
            ("c", "Code"),
            ("r", "Red flags"),
            ("b", "60-second review"),
            ("s", "Sources"),
        ):
            child.send(key)
            assert title in to_menu(child)
        child.send("f")
        child.expect_exact("What an interviewer would ask next")
        child.expect_exact("Enter shows the approach")
        child.sendline("/skip")
        child.expect_exact("follow-ups skipped")
        # Every section was shown: the menu is done and the rating follows.
        child.expect_exact("Enter keeps › ")
        child.send("3")
        # Good: the 10-minute learning step, inside the learn-ahead, so it comes back.
        child.expect_exact("[1] scale › ")
        child.sendline("/quit")
        child.expect_exact("Session summary")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert reviews(tmp_path) == [("attention",)]


@pytest.mark.parametrize("sections_read", [0, 1, 2, 3])
def test_quitting_from_any_section_loses_nothing(tmp_path, sections_read):
    child = start(tmp_path)
    try:
        to_menu(child)
        for _ in range(sections_read):
            child.sendline("")  # Enter: the next section
            to_menu(child)
        child.sendline("/quit")
        child.expect_exact("stopped: quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert reviews(tmp_path) == [("attention",)]
