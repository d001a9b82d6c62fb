"""Math-Verify's in-scope pairs (issue 22): data only, from huggingface/Math-Verify tests.

Kept: the (gold, prediction, equal) triples of its test files where both are one
formula quizzer's syntax can express: no prose, sets, intervals, relations,
units or functions outside the registry ($...$ and \\boxed{} around them are
taken off). Each blank is ``exact``.
"""

from __future__ import annotations

import json
import re

import pytest

from quizzer.answers import CardJudge, judge_bounded
from quizzer.cards.model import Card

ROWS = [
    ("667", "667", True),  # Math-Verify: True
    ("-5", "-5", True),  # Math-Verify: True
    ("1000", "1 000", True),  # Math-Verify: True
    ("1000", "1000.0", True),  # Math-Verify: True
    ("0.4", ".4", True),  # Math-Verify: True
    ("10/9", "\\frac{10}{9}", True),  # Math-Verify: True
    ("-10/9", "-\\frac{10}{9}", True),  # Math-Verify: True
    ("1/3", "\\frac13", True),  # Math-Verify: True
    ("1", "\\frac3{3}", True),  # Math-Verify: True
    ("\\sqrt{3}", "\\sqrt3", True),  # Math-Verify: True
    ("1/3", "\\cfrac{1}{3}", True),  # Math-Verify: True
    ("1/3", "\\dfrac{1}{3}", True),  # Math-Verify: True
    ("1/3", "\\tfrac{1}{3}", True),  # Math-Verify: True
    ("1/3", "1/3", True),  # Math-Verify: True
    ("1/3", "\\frac{1}{3}", True),  # Math-Verify: True
    ("4", "4\\sqrt{2}", False),  # Math-Verify: False
]


def _card(gold: str, prediction: str) -> Card:
    names = set(re.findall(r"(?<![\\A-Za-z])[A-Za-z](?![A-Za-z])", gold + " " + prediction))
    return Card.model_validate(
        {"id": "math-verify", "title": "pair", "prompt": "{{a}}",
         "symbols": {name: {} for name in sorted(names - {"e", "i"})},
         "blanks": {"a": {"answer": gold, "exact": True}}}
    )  # fmt: skip


def test_every_in_scope_pair_agrees():
    wrong = [
        row for row in ROWS
        if judge_bounded(CardJudge(_card(row[0], row[1])), "a", row[1]).correct is not row[2]
    ]  # fmt: skip
    assert not wrong


@pytest.mark.parametrize(("gold", "prediction", "equal"), ROWS)
def test_each_pair_through_quizzer_check(invoke, write_card, gold, prediction, equal):
    card = _card(gold, prediction).model_dump(mode="json", exclude_none=True)
    path = write_card(json.dumps(card), "pair.yaml")
    result = invoke("check", str(path), "-a", prediction, "--json")
    assert result.exit_code == (0 if equal else 1), result.output
