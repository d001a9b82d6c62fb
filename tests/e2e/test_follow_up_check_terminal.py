"""A typed follow-up answer checked on its key points, at 80×24 in a real terminal (#28.2).

Quiz and drill on the attention card (key points on all five follow-ups): the
covered ✓ and missed ✗ lines show, Enter takes the proposed grade, one key
changes it, and an empty answer keeps the old flow (no check, no proposal).
The key banner breaks between keys at 80 columns (#24).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pexpect
import pytest

from tests.conftest import ATTENTION, quizzer_in_a_terminal

pytestmark = pytest.mark.slow

#: Covers all three key points of attention's first follow-up.
ALL = (
    "each score adds up d_k products with variance one, so its variance is d_k; we divide by"
    " the standard deviation sqrt(d_k); d_k would over-correct and log(d_k) under-correct"
)
#: Covers one of the three key points of its second.
SOME = "softmax saturates into nearly one-hot weights"
PROPOSED = "1 Again 2 Hard 3 Good 4 Easy · Enter keeps › "


def follow_up_ratings(tmp_path) -> list[tuple]:
    with closing(sqlite3.connect(tmp_path / "p.db")) as connection:
        query = "SELECT card_id, rating FROM reviews WHERE card_id LIKE '%#follow-%'"
        return sorted(connection.execute(query).fetchall())


def test_a_quiz_checks_each_typed_follow_up_answer(tmp_path):
    # No pager: the card back's sections print straight to the 24 rows.
    child = quizzer_in_a_terminal(tmp_path, "quiz", "attention", QUIZZER_PAGER="")
    try:
        # The key banner breaks between two keys, not inside one (80 columns).
        child.expect_exact("/bury\r\n      /undo · /quit or Ctrl-D to stop")
        child.expect_exact("[1] scale › ")
        child.sendline("sqrt(d_k)")
        child.expect_exact("[2] values › ")
        child.sendline("V")
        child.expect_exact("n next card › ")
        child.send("f")
        child.expect_exact("Enter shows the approach")
        child.sendline(ALL)
        for point in (
            "✓ the dot product's variance is d_k",
            "✓ divide by the standard deviation, not the variance",
            "✓ d_k over-corrects and log(d_k) under-corrects",
        ):
            child.expect_exact(point)
        child.expect_exact("3 of 3 key points covered · proposed Good")
        child.expect_exact(f"grade Good · {PROPOSED}")
        child.send("\r")  # Enter takes the proposal
        child.expect_exact("follow-up 1 of attention: again in")
        child.expect_exact("(Good)")
        child.expect_exact("Enter shows the approach")
        child.sendline(SOME)
        child.expect_exact("✓ softmax saturates, close to one-hot")
        child.expect_exact("✗ the gradients through softmax vanish and training stalls")
        child.expect_exact("1 of 3 key points covered · proposed Hard")
        child.expect_exact(f"grade Hard · {PROPOSED}")
        child.send("1")  # one key, no Enter: Again instead
        child.expect_exact("follow-up 2 of attention: again in")
        child.expect_exact("(Again)")
        child.expect_exact("Enter shows the approach")
        child.sendline("")  # nothing typed: the approach, no check, no grade
        child.expect_exact("Q4. ")
        assert "key points covered" not in child.before and "grade " not in child.before
        child.expect_exact("Enter shows the approach")
        child.sendline("/skip")
        child.expect_exact("follow-ups skipped")
        child.expect_exact("n next card › ")
        child.send("n")
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
    assert follow_up_ratings(tmp_path) == [("attention#follow-1", 3), ("attention#follow-2", 1)]


@pytest.fixture
def drill_deck(tmp_path):
    """One copy of the attention card under a tag of its own, so the drill asks it alone."""
    folder = tmp_path / "drill-deck"
    folder.mkdir()
    text = ATTENTION.read_text().replace("id: attention", "id: drill-attention")
    text = text.replace("tags: [transformers, attention]", "tags: [drill-only]")
    (folder / "drill-attention.yaml").write_text(text)
    return folder


@pytest.mark.parametrize(
    ("answer", "key", "rating"),
    [
        (ALL, "\r", 3),  # Enter takes Good
        (ALL, "2", 2),  # one key changes it to Hard
        ("", "y\r", 3),  # said out loud: graded by hand, as before
    ],
    ids=["enter-accepts", "key-changes", "empty-answer"],
)
def test_a_drill_proposes_the_follow_up_grade(tmp_path, drill_deck, answer, key, rating):
    child = quizzer_in_a_terminal(
        tmp_path,
        *("drill", "--minutes", "5", "--deck", str(drill_deck), "--tag", "drill-only"),
        QUIZZER_CACHE=str(tmp_path / "cache"),
    )
    try:
        child.expect(r"\[1\] scale › ")
        child.sendline("sqrt(d_k)")
        child.expect(r"\[2\] values › ")
        child.sendline("V")
        child.expect_exact("The interviewer asks")
        child.expect_exact("then Enter › ")
        child.sendline(answer)
        if answer:
            child.expect_exact("✓ the dot product's variance is d_k")
            child.expect_exact("3 of 3 key points covered · proposed Good")
            child.expect_exact("A strong answer")
            child.expect_exact(f"grade Good · {PROPOSED}")
        else:
            child.expect_exact("A strong answer")
            child.expect_exact("did you get it? y/n")
            assert "key points covered" not in child.before
        child.send(key)
        child.expect_exact("follow-up 1 of drill-attention: again in")
        child.expect_exact("Drill report")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert follow_up_ratings(tmp_path) == [("drill-attention#follow-1", rating)]
