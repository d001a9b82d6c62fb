"""No wait for the first verdict: the judge decides without SymPy while SymPy loads.

The timing itself lives in bench/run.py; these tests check that the quick
verdict is the same verdict, that it needs no SymPy, and (a hang guard) that
an answer typed the instant the first prompt appears gets one.
"""

from __future__ import annotations

import subprocess
import sys

import pexpect
import pytest

from quizzer.answers import CardJudge, judge_bounded
from tests.conftest import bundled_deck, quizzer_in_a_terminal

DECK = bundled_deck().cards


def every_answer(card):
    for name, blank in card.blanks.items():
        yield name, blank.answer
        for entry in blank.wrong:
            yield name, entry.answer
        for example in blank.examples:
            yield name, example.answer


@pytest.mark.parametrize("loaded", DECK, ids=[c.id for c in DECK])
def test_the_quick_verdict_is_the_verdict(loaded):
    judge = CardJudge(loaded.card)
    for name, text in every_answer(loaded.card):
        quick = judge_bounded(judge, name, text, read_back=False)
        full = judge_bounded(judge, name, text)
        assert (quick.correct, quick.status) == (full.correct, full.status), (name, text)
        if full.status == "wrong" and full.decided_by != "forbid":
            assert quick.feedback, (name, text)


QUICK_WITHOUT_SYMPY = """
import sys
from quizzer.answers import CardJudge, judge_bounded
from quizzer.cards.deck import deck_sources, resolve_card
judge = CardJudge(resolve_card("attention", deck_sources()).card)
right = judge_bounded(judge, "scale", "d_k^(1/2)", read_back=False)
wrong = judge_bounded(judge, "scale", "d_k", read_back=False)
print(right.correct, wrong.correct, bool(wrong.feedback), "sympy" in sys.modules)
"""


def test_the_quick_verdict_loads_no_sympy():
    result = subprocess.run(
        [sys.executable, "-c", QUICK_WITHOUT_SYMPY], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["True", "False", "True", "False"]


def test_an_answer_typed_at_once_gets_its_verdict(tmp_path):
    # A hang guard, not a timing test: the timing is bench/run.py's "first verdict".
    child = quizzer_in_a_terminal(tmp_path, "quiz", "attention")
    child.delaybeforesend = None  # type the answer the instant the prompt is there
    try:
        child.expect_exact("[1] scale › ")
        child.sendline("d_k^(1/2)")
        child.expect_exact("✓ [1] scale")
        child.expect_exact("[2] values › ")
        child.sendline("K")
        child.expect_exact("✗")
        child.sendline("/quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
