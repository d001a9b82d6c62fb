"""Follow-up answers checked on their key points (issue 28 items 1, 3, 4, 5)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml

from quizzer.answers.keypoints import (
    FollowUpCheck,
    KeyPointChecker,
    UnknownFollowUp,
    check_follow_up,
)
from quizzer.cards.deck import deck_sources, resolve_card
from quizzer.cards.model import Card, KeyPoint
from quizzer.cards.yamldoc import CardDumper

ATTENTION = resolve_card("attention", deck_sources(), cached=True).card
CHECKER = KeyPointChecker(ATTENTION)
HELD_OUT = Path(__file__).parent / "data" / "follow_up_answers" / "attention.yaml"


@pytest.mark.parametrize(
    ("formula", "text", "covered"),
    [
        # the issue's own examples of a formula in the answer
        ("Var(q·k) = d_k", "Var(q·k) = d_k", True),
        ("Var(q·k) = d_k", "Var(q.k)=d_k", True),
        ("Var(q·k) = d_k", "the variance of q·k is dk", True),
        ("std = sqrt(d_k)", "the std is sqrt(d_k)", True),
        ("std = sqrt(d_k)", "the standard deviation is d_k^(1/2)", True),
        ("sqrt(d_k)", "we divide by √d_k", True),
        ("sqrt(d_k)", r"we divide by \sqrt{d_k}", True),
        # precision: a formula only counts where it is said of the right thing, not denied
        ("Var(q·k) = d_k", "divide by d_k", False),
        ("Var(q·k) = d_k", "Var(q·k) = sqrt(d_k)", False),
        ("std = sqrt(d_k)", "the std is not sqrt(d_k)", False),
        ("std = sqrt(d_k)", "the variance is sqrt(d_k)", False),
        ("sqrt(d_k)", "it is not sqrt(dk) but d_k", False),
        ("sqrt(d_k)", "divide by d_k", False),
        ("sqrt(d_k)", "", False),
    ],
)
def test_a_formula_in_the_answer(formula, text, covered):
    point = KeyPoint.model_validate({"point": "p", "formula": formula})
    assert CHECKER.covered(point, text) is covered


@pytest.mark.parametrize(
    ("number", "text", "covered", "grade"),
    [
        (
            1,
            "Var(q·k) = d_k, so divide by the std, sqrt(d_k): d_k over-corrects and"
            " log(d_k) under-corrects",
            3,
            "good",
        ),
        (1, "each score is a sum of d_k products so its variance is d_k", 1, "hard"),
        (1, "it just works better", 0, "again"),
        (2, "the logits blow up, softmax saturates and the gradients vanish", 3, "good"),
        (2, "softmax would not saturate, the gradients are fine", 0, "again"),
        (5, "add -inf to future positions before the softmax", 2, "hard"),
    ],
)
def test_check_follow_up_through_the_api(number, text, covered, grade):
    result = check_follow_up(ATTENTION, number, text)
    assert len(result.covered) == covered, result
    assert result.grade == grade
    assert len(result.covered) + len(result.missed) == len(
        ATTENTION.follow_ups[number - 1].key_points
    )


@pytest.mark.parametrize(
    ("covered", "missed", "grade"),
    [(("a", "b"), (), "good"), (("a",), ("b",), "hard"), ((), ("a", "b"), "again")],
)
def test_the_grade_follows_the_coverage(covered, missed, grade):
    result = FollowUpCheck("c", 1, covered, missed)
    assert result.grade == grade
    assert result.to_dict() == {
        "card": "c",
        "follow_up": 1,
        "covered": list(covered),
        "missed": list(missed),
        "grade": grade,
    }


@pytest.mark.parametrize("number", [0, 6, -1])
def test_an_unknown_follow_up(number):
    with pytest.raises(UnknownFollowUp):
        check_follow_up(ATTENTION, number, "anything")


def test_a_follow_up_without_key_points():
    card = ATTENTION.model_copy(
        update={
            "follow_ups": [f.model_copy(update={"key_points": []}) for f in ATTENTION.follow_ups]
        }
    )
    with pytest.raises(UnknownFollowUp, match="no key points"):
        check_follow_up(card, 1, "anything")


def test_a_check_is_bounded_in_time():
    start = time.perf_counter()
    check_follow_up(ATTENTION, 1, "sqrt(" * 300 + " d_k^(d_k^(d_k^d_k)) = " * 50)
    check_follow_up(ATTENTION, 1, "the variance is d_k " * 2000)
    assert time.perf_counter() - start < 10


# -- the measured figures: the card's examples and a held-out set -------------


def _coverage(rows: list[tuple[int, str, set[int]]]) -> tuple[int, int, int]:
    """(true covered, false covered, missed) over every key point of every row."""
    true = false = missed = 0
    for number, text, truth in rows:
        points = ATTENTION.follow_ups[number - 1].key_points
        for index, point in enumerate(points, 1):
            found = CHECKER.covered(point, text)
            true += found and index in truth
            false += found and index not in truth
            missed += not found and index in truth
    return true, false, missed


def test_every_attention_follow_up_has_key_points_with_examples():
    assert len(ATTENTION.follow_ups) == 5
    for follow_up in ATTENTION.follow_ups:
        assert follow_up.key_points
        for point in follow_up.key_points:
            assert sum(e.covered for e in point.examples) >= 2, point.point
            assert sum(not e.covered for e in point.examples) >= 2, point.point


def test_the_cards_own_examples_hold():
    for follow_up in ATTENTION.follow_ups:
        for point in follow_up.key_points:
            for example in point.examples:
                assert CHECKER.covered(point, example.answer) is example.covered, (
                    point.point,
                    example.answer,
                )


def test_held_out_answers_no_false_covered_and_most_points_found():
    rows = [
        (row["follow_up"], row["answer"], set(row["covers"]))
        for row in yaml.safe_load(HELD_OUT.read_text(encoding="utf-8"))
    ]
    assert len(rows) >= 30
    true, false, missed = _coverage(rows)
    assert false == 0
    assert true / (true + missed) >= 0.8


# -- quizzer check --follow-up ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "exit_code", "grade"),
    [
        (
            "The variance of q·k is d_k, so you divide by the standard deviation sqrt(d_k);"
            " d_k would over-correct and log(d_k) under-correct.",
            0,
            "good",
        ),
        ("the std is sqrt(d_k)", 1, "hard"),
        ("no idea", 1, "again"),
    ],
)
def test_check_follow_up_command(invoke, text, exit_code, grade):
    result = invoke("check", "attention", "--follow-up", "1", "-a", text, "--json")
    data = json.loads(result.stdout)
    assert set(data) == {"card", "follow_up", "covered", "missed", "grade"}
    assert (data["card"], data["follow_up"], data["grade"]) == ("attention", 1, grade)
    points = [p.point for p in ATTENTION.follow_ups[0].key_points]
    assert sorted(data["covered"] + data["missed"]) == sorted(points)
    assert result.exit_code == exit_code


def test_check_follow_up_plain_output(invoke):
    result = invoke("check", "attention", "--follow-up", "2", "-a", "softmax saturates")
    assert "✓ softmax saturates, close to one-hot" in result.stdout
    assert "✗ the gradients through softmax vanish and training stalls" in result.stdout
    assert "proposed grade: hard" in result.stdout
    assert result.exit_code == 1


@pytest.mark.parametrize(("card", "number"), [("attention", "9"), ("no-such-card", "1")])
def test_check_follow_up_unknown(invoke, card, number):
    result = invoke("check", card, "--follow-up", number, "-a", "x", "--json")
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_validate_reports_a_key_point_example_that_fails(invoke, tmp_path):
    data = yaml.safe_load(Path(resolve_card("attention", deck_sources()).path).read_text())
    data["related"] = []
    data["id"] = "attention-copy"
    point = data["follow_ups"][0]["key_points"][0]
    point["examples"].append({"answer": "divide by d_k", "covered": True})
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "attention.yaml").write_text(
        # CardDumper quotes what YAML 1.2 would read as numbers (the "-1e9" members)
        yaml.dump(data, Dumper=CardDumper, sort_keys=False, allow_unicode=True),
        encoding="utf-8",
    )
    result = invoke("validate", str(deck), "--json")
    messages = [p["message"] for p in json.loads(result.stdout)["problems"]]
    assert any(
        "example 'divide by d_k' is judged missed but declared covered" in m for m in messages
    ), messages
    assert result.exit_code == 1


def test_validate_requires_evidence_on_a_key_point():
    from quizzer.app.validating import key_point_problems

    card = Card.model_validate(
        {
            "id": "x",
            "title": "X",
            "prompt": "{{b}}",
            "blanks": {"b": {"answer": "1"}},
            "follow_ups": [
                {
                    "question": "q",
                    "approach": "a",
                    "key_points": [{"point": "p", "examples": [{"answer": "x", "covered": False}]}],
                }
            ],
        }
    )
    [problem] = key_point_problems(card)
    assert "needs 'concepts' or a 'formula'" in problem.message


def test_check_follow_up_reads_a_piped_answer(invoke):
    result = invoke("check", "attention", "--follow-up", "2", "--json", input="softmax saturates\n")
    assert json.loads(result.stdout)["covered"] == ["softmax saturates, close to one-hot"]
    assert result.exit_code == 1
