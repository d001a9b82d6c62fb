"""`quizzer check` and the answer checks of `quizzer validate` (DESIGN.md items 5 and 6)."""

from __future__ import annotations

import json

import pytest

from .conftest import ATTENTION, MINIMAL_CARD


def check_json(invoke, *args):
    result = invoke("check", *args, "--json")
    return result, json.loads(result.stdout)


def test_contract_example(invoke):
    result, data = check_json(invoke, "attention", "-a", "d_k^(1/2)", "-a", "V")
    assert result.exit_code == 0
    assert data == {
        "card": "attention",
        "correct": True,
        "blanks": [
            {
                "blank": "scale",
                "given": "d_k^(1/2)",
                "correct": True,
                "interpreted": "sqrt(d_k)",
                "feedback": None,
            },
            {
                "blank": "values",
                "given": "V",
                "correct": True,
                "interpreted": "V",
                "feedback": None,
            },
        ],
    }


def test_wrong_answer_has_feedback_and_exit_1(invoke):
    result, data = check_json(invoke, "attention", "-a", "d_k", "-a", "V")
    assert result.exit_code == 1
    assert data["correct"] is False
    scale = data["blanks"][0]
    assert scale["correct"] is False and scale["interpreted"] == "d_k"
    assert "standard deviation" in scale["feedback"]


def test_missing_answers_are_unanswered(invoke):
    result, data = check_json(invoke, "attention", "--answer", "sqrt(d_k)")
    assert result.exit_code == 1
    values = data["blanks"][1]
    assert values == {
        "blank": "values",
        "given": "",
        "correct": False,
        "interpreted": None,
        "feedback": "not answered",
    }
    result, data = check_json(invoke, "attention")
    assert result.exit_code == 1 and [b["correct"] for b in data["blanks"]] == [False, False]


@pytest.mark.parametrize(
    "answer",
    [
        "sqrt(d_k))",
        "",
        "9**9**9**9",
        "x" * 100_000,
        "__import__('os').system('id')",
        "\x00\x01",
        "√√√√",
        "d_k^^2",
    ],
)
def test_unreadable_or_hostile_answers_exit_1_with_a_reason(invoke, answer):
    result, data = check_json(invoke, "attention", "-a", answer, "-a", "V")
    assert result.exit_code == 1
    assert data["blanks"][0]["correct"] is False and data["blanks"][0]["feedback"]


def test_human_output(invoke):
    result = invoke("check", "attention", "-a", "sqrt(d_k))", "-a", "valuse")
    assert result.exit_code == 1
    assert "✗ [1] scale  sqrt(d_k))" in result.stdout
    assert "unexpected ')' at column 10" in result.stdout
    assert "accepted — spelled 'values'" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope", "-a", "x"], "unknown card 'nope'"),
        (["attention", "-a", "1", "-a", "2", "-a", "3"], "has 2 blanks (scale, values) but 3"),
    ],
)
def test_bad_requests_exit_2(invoke, args, message):
    result = invoke("check", *args)
    assert result.exit_code == 2 and message in result.stderr


def test_invalid_card_file_exit_2(invoke, write_card):
    path = write_card("id: [\n")
    assert invoke("check", str(path), "-a", "x").exit_code == 2


def test_check_by_path_writes_no_progress(invoke, isolated_environment):
    result = invoke("check", str(ATTENTION), "-a", "sqrt(d_k)", "-a", "V")
    assert result.exit_code == 0
    assert not (isolated_environment / "progress.db").exists()


def test_validate_checks_answers_at_their_lines(invoke, write_card):
    text = (
        MINIMAL_CARD.format(id="answers")
        + """\
    wrong:
      - {answer: "m + 0", feedback: "same thing"}
      - {answer: "q", feedback: "unknown"}
    examples:
      - {answer: "m", correct: false}
      - {answer: "2m", correct: false}
"""
    )
    path = write_card(text)
    result = invoke("validate", str(path), "--json")
    problems = {
        (p["line"], p["column"], p["message"])
        for p in json.loads(result.stdout)["problems"]
        if p["severity"] == "error"
    }
    assert (10, 18, "wrong answer 'm + 0' is equivalent to the answer") in problems
    assert (11, 18, "wrong answer does not read: unknown symbol 'q' (this card uses m)") in problems
    assert (13, 9, "example 'm' is judged right but declared wrong") in problems
    assert len(problems) == 3
    assert result.exit_code == 1


def test_validate_reports_an_unreadable_answer(invoke, write_card):
    path = write_card(MINIMAL_CARD.format(id="broken-answer").replace("answer: m", "answer: m +"))
    result = invoke("validate", str(path))
    assert result.exit_code == 1
    assert f"{path}:8:13: answer does not read: answer ends too early at column 4" in result.stdout


def test_human_output_shows_the_pretty_form_when_it_helps(invoke):
    out = invoke("check", "attention", "-a", "d_k^(1/2)", "-a", "V").stdout
    assert "read as sqrt(d_k)" in out and "╲╱ dₖ" in out  # SymPy's Unicode form
    plain = invoke("check", "attention", "-a", "sqrt(d_k)", "-a", "V").stdout
    assert "╲╱" not in plain  # typed as it reads: nothing more to show
