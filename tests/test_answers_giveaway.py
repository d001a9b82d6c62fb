"""Wrong-answer feedback that gives the answer away (issue 23 item 4), and follow-ups
without key points (issue 28 item 4): found by ``validate``."""

from __future__ import annotations

import json
import time

import pytest

from quizzer.answers import CardJudge
from quizzer.answers.giveaway import giveaways
from quizzer.cards.model import Card

SCALE = {
    "symbols": {"d_k": {"aliases": ["dk"], "positive": True}, "beta1": {"range": [0, 1]}},
    "answer": "sqrt(d_k)",
    "wrong": "d_k",
}
CORRECTION = {
    "symbols": {"beta1": {"range": [0, 1]}, "t": {"positive": True, "integer": True}},
    "answer": "1 - beta1^t",
    "wrong": "beta1^t",
}
VALUES = {
    "symbols": {"V": {"matrix": True}, "K": {"matrix": True}},
    "answer": "V",
    "also": ["value matrix"],
    "wrong": "K",
}
LAPLACIAN = {
    "symbols": {"D": {"matrix": True}, "A": {"matrix": True}, "I": {"identity": True}},
    "answer": "D - A",
    "wrong": "I - A",
}
SLOPE = {"symbols": {"a": {}, "x": {}}, "answer": "a", "wrong": "x"}
STATISTICS = {
    "symbols": {},
    "answer": "running mean and variance",
    "also": ["running statistics"],
    "wrong": "batch statistics",
}
BY_MEANING = {
    "symbols": {},
    "answer": "running averages",
    "concepts": [["running", "moving average", "EMA"], ["mean", "variance", "statistics"]],
    "wrong": "batch statistics",
}
FEATURES = {
    "symbols": {},
    "answer": "features",
    "synonyms": [["feature", "model"]],
    "wrong": "the sequence",
}
OOB = {"symbols": {}, "answer": "exp(-1)", "wrong": "1/2"}


def card_for(blank: dict, feedback: str) -> Card:
    spec = {
        "answer": blank["answer"],
        "also": blank.get("also", []),
        "concepts": blank.get("concepts", []),
        "wrong": [{"answer": blank["wrong"], "feedback": feedback}],
    }
    return Card.model_validate(
        {
            "id": "giveaway",
            "title": "Feedback that gives the answer away",
            "prompt": "y = {{gap}}",
            "symbols": blank["symbols"],
            "synonyms": blank.get("synonyms", []),
            "blanks": {"gap": spec},
        }
    )


def _words(blank: dict) -> tuple[str, bool]:
    return (blank["answer"], False)


def said(blank: dict, feedback: str) -> tuple[str, bool] | None:
    card = card_for(blank, feedback)
    found = giveaways(card, CardJudge(card))
    assert len(found) <= 1
    return (found[0].said, found[0].by_value) if found else None


@pytest.mark.parametrize(
    ("blank", "feedback", "expected"),
    [
        # by value: the answer in any spelling the judge accepts, wherever it stands
        (SCALE, "Divide by sqrt(d_k) instead.", ("sqrt(d_k)", True)),
        (SCALE, "The right scale is d_k^(1/2).", ("d_k^(1/2)", True)),
        (SCALE, "Use √dk, the standard deviation.", ("√dk", True)),
        (SCALE, "Var(q·k) = d_k, so the std = `sqrt(d_k)`.", ("sqrt(d_k)", True)),
        (SCALE, r"It should be \sqrt{d_k}: the spread.", (r"\sqrt{d_k}", True)),
        (CORRECTION, "The bias is beta1^t, so divide by 1 − beta1^t.", ("1 − beta1^t", True)),
        (VALUES, "The weights then multiply V, one row per key.", ("V", True)),
        (OOB, "(1 − 1/n)^n tends to 1/e ≈ 0.368, not a half.", ("1/e", True)),
        # by words: every content word of the answer or of an accepted phrase
        (VALUES, "They average the value matrix instead.", ("value matrix", False)),
        (STATISTICS, "At inference use the running mean and variance.", _words(STATISTICS)),
        (STATISTICS, "Keep running statistics from training.", ("running statistics", False)),
        (STATISTICS, "The variance and the mean, as running estimates.", _words(STATISTICS)),
        # by meaning: every concept group said
        (BY_MEANING, "An EMA of the statistics is what inference uses.", ("running + mean", False)),
    ],
)
def test_feedback_that_states_the_answer(blank, feedback, expected):
    assert said(blank, feedback) == expected


@pytest.mark.parametrize(
    ("blank", "feedback"),
    [
        # naming the wrong answer, or explaining in prose
        (SCALE, "Dividing by d_k divides by the variance: the scores over-shrink."),
        (SCALE, "The scores need unit spread: divide by the standard deviation, not the variance."),
        (VALUES, "The keys K only match against the queries; the weights mix other content."),
        (STATISTICS, "Batch statistics are noisy and need a batch: inference may have one input."),
        (BY_MEANING, "Batch statistics need a batch; inference may have one example."),
        # a different quantity
        (SCALE, "log(d_k) grows too slowly, and 2 sqrt(d_k) over-shrinks by a factor of two."),
        (SCALE, "1/sqrt(d_k) is the factor you multiply by."),
        (OOB, "1 − 1/e ≈ 0.632 is the share that does appear in the sample."),
        # a part of the answer
        (CORRECTION, "beta1^t is the weight left on the zero start; correct for what is missing."),
        (STATISTICS, "Use the running mean: that half alone is not the whole answer."),
        # words denied, a letter that is prose, synonyms the card declares for its own answers
        (STATISTICS, "Not the running mean and variance of the test batch: those do not exist."),
        (SLOPE, "That is a guess at the slope: x is the input."),
        (
            FEATURES,
            "Mixing statistics across positions would leak between tokens of a causal model.",
        ),
        # a formula-looking accepted form is judged by value, not by its letters
        (LAPLACIAN, "Only after normalising (I − D^(−1/2) A D^(−1/2)) is the identity right."),
        # what does not read, or is too large to judge, is not evidence
        (SCALE, "sqrt(d_k^^2) does not read, and 9^9^9^9^9 is far too large."),
    ],
)
def test_feedback_that_explains_without_the_answer(blank, feedback):
    assert said(blank, feedback) is None


def test_a_long_feedback_is_checked_quickly():
    # many formula-like spans, none the answer: the spans judged are capped
    feedback = " ".join(f"d_k^{n} is wrong;" for n in range(2, 200))
    started = time.monotonic()
    assert said(SCALE, feedback) is None
    assert time.monotonic() - started < 10


def test_past_the_card_budget_nothing_more_is_reported(monkeypatch):
    from quizzer.answers import giveaway

    card = card_for(SCALE, "Divide by sqrt(d_k) instead.")
    assert giveaways(card)  # within the budget, found
    monkeypatch.setattr(giveaway, "CARD_SECONDS", -1.0)
    assert giveaways(card) == []  # what was not checked is not reported


CARD = """\
id: giveaway
title: A card whose feedback gives the answer away
prompt: "Attention = softmax(Q K^T / {{scale}}) V"
symbols:
  d_k: {positive: true}
blanks:
  scale:
    answer: sqrt(d_k)
    wrong:
      - answer: d_k
        feedback: That is the variance; divide by its square root instead.
      - answer: log(d_k)
        feedback: Too slow. The scale is d_k^(1/2).
follow_ups:
  - question: Why the square root?
    approach: The variance of a sum of d_k products is d_k.
    key_points:
      - point: the variance is d_k
        concepts: [[variance]]
  - question: What if the scores were not scaled?
    approach: Softmax saturates.
"""


def test_validate_warns_at_the_feedback_and_strict_makes_it_an_error(invoke, tmp_path):
    path = tmp_path / "giveaway.yaml"
    path.write_text(CARD, encoding="utf-8")
    plain = invoke("validate", str(path))
    line = CARD.splitlines().index("        feedback: Too slow. The scale is d_k^(1/2).") + 1
    assert (
        f"{path}:{line}:19: warning: the feedback gives the answer away: 'd_k^(1/2)' equals"
        " the answer sqrt(d_k)" in plain.stdout
    )
    assert plain.stdout.count("gives the answer away") == 1  # "square root" is a hint, not it
    assert plain.exit_code == 0
    report = json.loads(invoke("validate", "--strict", "--json", str(path)).stdout)
    assert report["ok"] is False
    (problem,) = [p for p in report["problems"] if "answer away" in p["message"]]
    assert problem["line"] == line


def test_a_follow_up_without_key_points_is_reported_when_asked(invoke, tmp_path):
    path = tmp_path / "giveaway.yaml"
    path.write_text(CARD, encoding="utf-8")
    line = CARD.splitlines().index("  - question: What if the scores were not scaled?") + 1
    message = "follow-up 2 has no key points"
    assert message not in invoke("validate", str(path)).stdout  # not asked: today's deck passes
    asked = invoke("validate", "--require-key-points", str(path))
    assert f"{path}:{line}:5: warning: {message}" in asked.stdout
    assert "follow-up 1 has no key points" not in asked.stdout
    strict = json.loads(
        invoke("validate", "--require-key-points", "--strict", "--json", str(path)).stdout
    )
    assert any(p["message"].startswith(message) and p["line"] == line for p in strict["problems"])
    assert message not in invoke("validate", str(path)).stdout  # the cache keeps them apart


def test_the_rule_through_the_python_api(tmp_path):
    from quizzer.app.validating import missing_key_points

    card = Card.model_validate(
        {
            "id": "k",
            "title": "t",
            "prompt": "y = {{gap}}",
            "symbols": {"m": {}},
            "blanks": {"gap": {"answer": "m"}},
            "follow_ups": [
                {"question": "q1", "approach": "a1"},
                {
                    "question": "q2",
                    "approach": "a2",
                    "key_points": [{"point": "p", "concepts": [["x"]]}],
                },
            ],
        }
    )
    (problem,) = missing_key_points(card)
    assert problem.path == ("follow_ups", 0) and problem.warning
    assert missing_key_points(card.model_copy(update={"follow_ups": []})) == []


def test_strict_requires_key_points_on_every_follow_up(invoke, tmp_path):
    # Publishable cards have them: the bundled deck does, on all its follow-ups.
    path = tmp_path / "giveaway.yaml"
    path.write_text(CARD, encoding="utf-8")
    line = CARD.splitlines().index("  - question: What if the scores were not scaled?") + 1
    strict = json.loads(invoke("validate", "--strict", "--json", str(path)).stdout)
    (problem,) = [p for p in strict["problems"] if "has no key points" in p["message"]]
    assert (problem["line"], problem["severity"]) == (line, "error")
