"""Word answers by meaning (issue 22 item 8): concepts, negation, relations."""

from __future__ import annotations

import json

import pytest

from quizzer.answers import CardJudge
from quizzer.answers.concepts import ConceptMatcher, MeaningJudge, stem
from quizzer.cards.model import Card

EMA = [["running", "moving average", "exponential", "EMA"], ["mean", "variance", "statistics"]]


@pytest.mark.parametrize(
    ("text", "covered"),
    [
        ("running statistics", True),
        ("an exponential moving average of the batch means", True),
        ("it keeps a running var", True),
        ("EMAs of the stats", True),
        ("the moving averages of mean and variance", True),
        ("runing statistics", True),  # one typo in a long word
        ("a running mean, not the batch statistics", True),
        ("not a running mean", False),
        ("batch statistics", False),
        ("running", False),
        ("it never keeps a moving average of the variance", False),
        ("", False),
    ],
)
def test_every_group_must_be_said(text, covered):
    assert ConceptMatcher(EMA).covers(text) is covered


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("across examples", True),
        ("it normalises across the examples", True),
        ("not across examples", False),
        ("it doesn't work across examples", False),
        ("rather than across examples", False),
        ("across features instead of across examples", False),
        ("not across features, across examples", True),
        ("not across features but across examples", True),
    ],
)
def test_negation_is_noticed(text, said):
    assert ConceptMatcher([["across examples"]]).found(text) == [said]


@pytest.mark.parametrize(
    "text", ["≥ 2", ">= 2", "at least 2", "greater than or equal to 2", "no less than two", "⩾2"]
)
def test_relations_are_read(text):
    assert ConceptMatcher([["≥ 2"]]).covers(text)
    assert ConceptMatcher([["at least two"]]).covers(text)


@pytest.mark.parametrize("text", ["> 2", "less than 2", "at most 2", "<= 2", "= 2", "2"])
def test_other_relations_are_not_that_one(text):
    assert not ConceptMatcher([["at least 2"]]).covers(text)


def test_a_member_that_holds_its_own_negation():
    matcher = ConceptMatcher([["not across examples"]])
    assert matcher.covers("not across examples")
    assert not matcher.covers("across examples")


@pytest.mark.parametrize(
    ("a", "b"),
    [("normalising", "normalization"), ("scaled", "scaling"), ("saturates", "saturation")],
)
def test_word_endings_are_forgiven(a, b):
    assert stem(a) == stem(b)


def test_numbers_and_units_are_never_stemmed_or_typo_forgiven():
    assert not ConceptMatcher([["2 GiB"]]).covers("3 GiB")
    assert not ConceptMatcher([["2 GiB"]]).covers("2 MiB")
    assert not ConceptMatcher([["6 dB"]]).covers("-6 dB")


def test_multi_word_synonyms_and_card_synonyms():
    matcher = ConceptMatcher([["feature dimension"]], synonyms=[["feature", "hidden"]])
    assert matcher.covers("along the hidden dims")
    assert not matcher.covers("along the batch dimension")


def test_word_judge_accepts_by_meaning_unless_a_known_wrong_phrase_is_said():
    judge = MeaningJudge(["running statistics"], wrong=["batch statistics"], concepts=EMA)
    assert judge.match("an EMA of the means") is not None
    assert judge.match("batch statistics") is None
    assert judge.match("the running mean, and also the batch statistics") is None
    assert judge.match("the running mean, not the batch statistics") is not None


CARD = {
    "id": "bn-eval",
    "title": "Batch norm at inference",
    "prompt": "At inference batch norm uses {{stats}}; it normalises {{axis}}.",
    "blanks": {
        "stats": {
            "answer": "running statistics",
            "concepts": EMA,
            "wrong": [{"answer": "batch statistics", "feedback": "not at inference"}],
            "examples": [
                {"answer": "an exponential moving average of mean and variance", "correct": True},
                {"answer": "not a running mean", "correct": False},
            ],
        },
        "axis": {
            "answer": "across examples",
            "concepts": [["across", "over"], ["examples", "batch"]],
            "examples": [
                {"answer": "over the batch", "correct": True},
                {"answer": "not across examples", "correct": False},
            ],
        },
    },
}


@pytest.mark.parametrize(
    ("blank", "text", "correct"),
    [
        ("stats", "a moving average of the batch means and variances", True),
        ("stats", "the EMA statistics", True),
        ("stats", "batch statistics", False),
        ("stats", "not running stats", False),
        ("axis", "over the batch", True),
        ("axis", "across the examples", True),
        ("axis", "not across examples", False),
        ("axis", "across features", False),
    ],
)
def test_judged_by_meaning_through_the_api(blank, text, correct):
    verdict = CardJudge(Card.model_validate(CARD)).judge(blank, text)
    assert verdict.correct is correct, verdict


def _card_file(write_card, card: dict) -> str:
    import yaml

    text = yaml.safe_dump(card, sort_keys=False, allow_unicode=True)
    return str(write_card(text, "deck/bn-eval.yaml").parent)


@pytest.mark.parametrize(
    ("answers", "verdicts"),
    [
        (["an EMA of the means", "over the batch"], [True, True]),
        (["batch stats", "not across examples"], [False, False]),
    ],
)
def test_judged_by_meaning_through_check(invoke, write_card, answers, verdicts):
    deck = _card_file(write_card, CARD)
    args = [arg for answer in answers for arg in ("-a", answer)]
    result = invoke("check", "bn-eval", "--deck", deck, *args, "--json")
    assert [b["correct"] for b in json.loads(result.stdout)["blanks"]] == verdicts


def test_validate_runs_concept_examples(invoke, write_card):
    broken = json.loads(json.dumps(CARD))
    broken["blanks"]["axis"]["examples"].append({"answer": "over features", "correct": True})
    deck = _card_file(write_card, broken)
    result = invoke("validate", deck, "--json")
    messages = [p["message"] for p in json.loads(result.stdout)["problems"]]
    assert any("example 'over features' is judged wrong" in m for m in messages), messages
    assert result.exit_code == 1
