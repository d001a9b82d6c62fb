"""Issue 22, item 9a: every formula answer of every bundled card, printed as others
print it, is judged right.

The printers: SymPy's ``latex()`` (with and without ``ln_notation``), quizzer's
read-back (the ``interpreted`` form a verdict shows), SymPy's one-line Unicode
form, and the answer as it is written into its gap (:mod:`quizzer.answers.formula`).
A learner who copies any of them must get a ✓.
"""

from __future__ import annotations

import pytest
import sympy

from quizzer.answers import CardJudge, judge_bounded
from quizzer.answers.formula import fitted_answers
from quizzer.answers.judge import symbol_table
from quizzer.answers.symbolic import plain, pretty, to_sympy
from quizzer.answers.syntax import parse
from tests.conftest import bundled_deck

CARDS = sorted((loaded.card for loaded in bundled_deck().cards), key=lambda card: card.id)


def printed_forms(card, blank: str, answer: str, fitted: str) -> dict[str, str]:
    table = symbol_table(card)
    expr = to_sympy(parse(answer, table), table)
    forms = {
        "latex": sympy.latex(expr),
        "latex, ln_notation": sympy.latex(expr, ln_notation=True),
        "read-back": plain(expr),
        "in its gap": fitted,
    }
    unicode = pretty(expr)
    if "\n" not in unicode:  # a one-line Unicode form is one a learner can copy
        forms["unicode"] = unicode
    return forms


def _expands_into_forbidden(card, blank) -> bool:
    table = symbol_table(card)
    expr = to_sympy(parse(blank.answer, table), table)
    return bool(set(blank.forbid) & {str(symbol) for symbol in expr.free_symbols})


@pytest.mark.parametrize("card", CARDS, ids=lambda card: card.id)
def test_every_printed_form_of_every_formula_answer_is_right(card):
    compiled = CardJudge(card)
    fitted = fitted_answers(card)
    refused = []
    for name, blank in card.blanks.items():
        if compiled.compiled(name).is_word_blank:
            continue
        for printer, text in printed_forms(card, name, blank.answer, fitted[name]).items():
            if printer != "in its gap" and _expands_into_forbidden(card, blank):
                # SymPy prints a defined symbol by its definition; when that definition is in
                # names the blank forbids (rotary-positions: j = i - 1, i forbidden), the
                # printed form restates the question, and refusing it is the card's intent.
                continue
            # The verdict alone: the read-back's SymPy printing is not what is tested,
            # and 1,400 of them under a time budget only add load.
            verdict = judge_bounded(compiled, name, text, read_back=False)
            if not verdict.correct:
                refused.append(f"{name} as {printer}: {text!r} ({verdict.feedback})")
    assert not refused, "\n".join(refused)


def test_the_round_trip_covers_the_deck():
    formulas = sum(
        not CardJudge(card).compiled(name).is_word_blank for card in CARDS for name in card.blanks
    )
    assert len(CARDS) > 100 and formulas > 200
