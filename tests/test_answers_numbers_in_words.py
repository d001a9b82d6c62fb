"""Numbers keep their sign and unit on blanks that also accept words (issue 22 item 1)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quizzer.answers import CardJudge, judge
from quizzer.answers.words import UNITS, Vocabulary, read_quantity
from quizzer.cards.model import Card

VOCABULARY = Vocabulary()


@pytest.mark.parametrize(
    ("card", "blank", "text", "correct", "feedback"),
    [
        # every case quoted in issue 22 item 1
        ("quantization-noise", "db_per_bit", "-6", False, "times the answer"),
        ("quantization-noise", "db_per_bit", "-6 dB", False, "times the answer"),
        ("quantization-noise", "db_per_bit", "−6 dB", False, "times the answer"),
        ("quantization-noise", "db_per_bit", "minus 6", False, "times the answer"),
        ("quantization-noise", "db_per_bit", "6 dB", True, None),
        ("quantization-noise", "db_per_bit", "+6 dB", True, None),
        ("quantization-noise", "db_per_bit", "6", True, None),
        ("quantization-noise", "db_per_bit", "about 6 dB", True, None),
        ("multilabel-sigmoid", "softmax_cap", "-0.5", False, "right size, wrong sign"),
        ("multilabel-sigmoid", "softmax_cap", "-50%", False, "right size, wrong sign"),
        ("multilabel-sigmoid", "softmax_cap", "50‰", False, "1/10 times"),
        ("multilabel-sigmoid", "softmax_cap", "0.5%", False, "times the answer"),
        ("multilabel-sigmoid", "softmax_cap", "50%", True, None),
        ("multilabel-sigmoid", "softmax_cap", "one half", True, None),
        ("absmax-quantization", "int4_gb", "-35 GB", False, "right size, wrong sign"),
        ("absmax-quantization", "int4_gb", "-35", False, "right size, wrong sign"),
        ("absmax-quantization", "int4_gb", "35 MB", False, "times the answer"),
        ("absmax-quantization", "int4_gb", "35 GB", True, None),
        ("absmax-quantization", "int4_gb", "35 GiB", True, None),
        ("mfu", "example", "30", False, "100 times the answer"),
        ("mfu", "example", "30‰", False, "1/10 times"),
        ("mfu", "example", "-30%", False, "right size, wrong sign"),
        ("mfu", "example", "30%", True, None),
        ("mfu", "example", "300‰", True, None),
        ("mfu", "example", "30 percent", True, None),
    ],
)
def test_numbers_on_blanks_with_words(card, blank, text, correct, feedback):
    verdict = judge(card, blank, text)
    assert verdict.correct is correct, verdict
    assert verdict.given == text
    if feedback is not None:
        assert feedback in (verdict.feedback or ""), verdict


@pytest.mark.parametrize(
    ("card", "blank", "number", "with_words"),
    [
        ("multilabel-sigmoid", "softmax_cap", "-0.5", "-50%"),
        ("absmax-quantization", "int4_gb", "-35", "-35 GB"),
        ("mfu", "example", "3", "300%"),
    ],
)
def test_a_quantity_gets_the_verdict_of_its_number(card, blank, number, with_words):
    plain, worded = judge(card, blank, number), judge(card, blank, with_words)
    assert (plain.correct, plain.status, plain.feedback) == (
        worded.correct,
        worded.status,
        worded.feedback,
    )


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("-6", "6"),
        ("−6 dB", "6 dB"),
        ("-35 GB", "35 GB"),
        ("30‰", "30%"),
        ("30", "30%"),
        ("axis -1", "axis 1"),
        ("a + b", "a b"),
        ("at least 2", "at most 2"),
        ("≥ 2", "> 2"),
    ],
)
def test_signs_units_and_percent_are_never_dropped(a, b):
    assert VOCABULARY.normalise(a) != VOCABULARY.normalise(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("≥ 2", "at least 2"),
        (">= 2", "greater than or equal to 2"),
        ("≥2", "no less than two"),
        ("30%", "30 percent"),
        ("300‰", "30 %"),
        ("minus 6", "-6"),
        ("− 6", "-6"),
        ("+6 dB", "6 dB"),
        ("L2-norm", "L2 normalization"),
        ("doesn't", "does not"),
        ("can’t", "can not"),
        ("cannot", "can not"),
    ],
)
def test_same_number_or_relation_however_written(a, b):
    assert VOCABULARY.normalise(a) == VOCABULARY.normalise(b)


def test_read_quantity():
    assert read_quantity("-35 GB").value == read_quantity("minus 35 gigabytes").value == -35
    assert read_quantity("−35 GB") == read_quantity("-35 gb")
    assert read_quantity("A^0.5") is None
    assert read_quantity("a 6") is None
    assert read_quantity("30‰").unit == "‰"


# -- the class: no sign, unit or percent change of an accepted number is accepted --

_SIZED_UNITS = ["GB", "MB", "KB", "ms", "s", "%", "‰", "dB"]


def _card(answer: str, also: list[str]) -> Card:
    return Card.model_validate(
        {
            "id": "numbers",
            "title": "Numbers",
            "prompt": "It is {{b}}.",
            "blanks": {"b": {"answer": answer, "also": also}},
        }
    )


def _mutants(value: Fraction, unit: str | None) -> list[str]:
    """Every sign, unit and percent change of ``value unit`` that changes its value."""
    text = _decimal(value)
    negated = _decimal(-value)
    found = [f"{negated} {unit}" if unit else negated, negated]
    if unit is None:
        found += [f"{text}%", f"{text}‰"]
    else:
        base, size = UNITS[unit.casefold()]
        found += [
            f"{text} {other}"
            for other in _SIZED_UNITS
            if UNITS[other.casefold()][0] == base and UNITS[other.casefold()][1] != size
        ]
        if base == "percent":
            found.append(text)  # dropping a percent sign changes the value
    return [m for m in found if m.strip() != (f"{text} {unit}" if unit else text)]


def _decimal(value: Fraction) -> str:
    return format(float(value), "g") if value.denominator in (1, 2, 4, 5, 10) else str(value)


values = st.fractions(min_value=-1000, max_value=1000, max_denominator=10).filter(lambda v: v != 0)


@settings(max_examples=60, deadline=None)
@given(value=values, unit=st.sampled_from([None, *_SIZED_UNITS]))
def test_no_sign_or_unit_change_of_an_accepted_number_is_accepted(value, unit):
    if unit is None:
        answer, also = _decimal(value), [f"{_decimal(value)} things"]
    elif UNITS[unit.casefold()][0] == "percent":
        size = Fraction(UNITS[unit.casefold()][1]) / 100
        answer, also = str(value * size), [f"{_decimal(value)}{unit}"]
    else:
        answer, also = _decimal(value), [f"{_decimal(value)} {unit}"]
    card_judge = CardJudge(_card(answer, also))
    accepted = also[0] if unit else answer
    assert card_judge.judge("b", accepted).correct, accepted
    for mutant in _mutants(value, unit):
        verdict = card_judge.judge("b", mutant)
        assert not verdict.correct, (answer, also, mutant, verdict)


def _bundled_numeric_forms():
    """(card, blank, accepted quantity) for every bundled numeric blank with words."""
    from quizzer.cards.deck import deck_sources, load_deck

    found = []
    for loaded in load_deck(deck_sources(), cached=True).cards:
        for name, blank in loaded.card.blanks.items():
            for phrase in [blank.answer, *blank.also]:
                quantity = read_quantity(phrase)
                if quantity is not None and quantity.value != 0 and blank.also:
                    found.append((loaded.card, name, quantity))
    return found


def test_no_sign_or_unit_change_of_a_bundled_accepted_number_is_accepted():
    forms = _bundled_numeric_forms()
    assert len(forms) >= 10
    judges: dict[str, CardJudge] = {}
    for card, name, quantity in forms:
        card_judge = judges.setdefault(card.id, CardJudge(card))
        unit = quantity.unit
        shown = {"%": "%", "‰": "‰"}.get(unit or "", unit)
        for mutant in _mutants(quantity.value, shown if unit in ("%", "‰") else unit):
            verdict = card_judge.judge(name, mutant)
            assert not verdict.correct, (card.id, name, mutant, verdict)


def test_check_command_keeps_the_sign(invoke):
    result = invoke(
        "check", "absmax-quantization", "-a", "127/m", "-a", "q/s", "-a", "-35 GB", "--json"
    )
    blanks = json.loads(result.stdout)["blanks"]
    gb = next(b for b in blanks if b["given"] == "-35 GB")
    assert gb["correct"] is False and "wrong sign" in gb["feedback"]
    assert result.exit_code == 1
