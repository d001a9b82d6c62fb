"""Filled formulas: answers bracketed where precedence needs it, checked by evaluation."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from quizzer.answers.formula import filled_prompt, fitted_answers
from quizzer.answers.numeric import (
    Domain,
    NotDefined,
    Overflow,
    Undefined,
    evaluate,
    sample_points,
    values_agree,
)
from quizzer.answers.syntax import (
    CONSTANTS,
    FUNCTION_ALIASES,
    FUNCTIONS,
    AnswerError,
    SymbolTable,
    parse,
    tokenize,
)
from quizzer.cards.deck import load_card_file
from quizzer.cards.model import GAP, Card
from quizzer.names import name_key

from .conftest import REPO

BUNDLED = sorted((REPO / "content").rglob("*.yaml"))


def card(prompt: str, answer: str, symbols: str = "a b c x y") -> Card:
    return Card.model_validate(
        {
            "id": "c",
            "title": "t",
            "prompt": prompt,
            "symbols": {name: {} for name in symbols.split()},
            "blanks": {"g": {"answer": answer}},
        }
    )


@pytest.mark.parametrize(
    ("prompt", "answer", "printed"),
    [
        # The divisor: anything looser than a power is bracketed.
        ("y = a / {{g}}", "1 - b^c", "y = a / (1 - b^c)"),
        ("y = a / {{g}}", "b c", "y = a / (b c)"),
        ("y = a / {{g}}", "b*c", "y = a / (b*c)"),
        ("y = a / {{g}}", "b^c", "y = a / b^c"),
        ("y = a / {{g}}", "sqrt(b + c)", "y = a / sqrt(b + c)"),
        ("y = a ÷ {{g}}", "b + c", "y = a ÷ (b + c)"),
        # A factor: sums and negations are bracketed, products are not.
        ("y = a · {{g}}", "b + c", "y = a · (b + c)"),
        ("y = a · {{g}}", "b/c", "y = a · b/c"),
        ("y = a * {{g}}", "-b", "y = a * (-b)"),
        ("y = a {{g}}", "-b * c", "y = a (-b * c)"),
        ("y = a {{g}}", "b + c", "y = a (b + c)"),
        ("y = Σ_x {{g}}", "a + x", "y = Σ_x (a + x)"),
        ("y = {{g}} · a", "b - c", "y = (b - c) · a"),
        ("y = {{g}} / a", "b + c", "y = (b + c) / a"),
        # Subtracted: sums and negations are bracketed.
        ("y = a − {{g}}", "b - c", "y = a − (b - c)"),
        ("y = a - {{g}}", "b*c", "y = a - b*c"),
        ("y = a + {{g}}", "-b", "y = a + (-b)"),
        ("y = a + {{g}}", "b - c", "y = a + b - c"),
        ("y = {{g}} + a", "-b", "y = -b + a"),
        # Exponents and bases.
        ("y = a^{{g}}", "b + c", "y = a^(b + c)"),
        ("y = a^{{g}}", "b", "y = a^b"),
        ("y = {{g}}^2", "a b", "y = (a b)^2"),
        ("y = {{g}}ᵀ", "a + b", "y = (a + b)ᵀ"),
        ("y = √{{g}}", "a + b", "y = √(a + b)"),
        # Nothing binds the gap: left as written.
        ("y = {{g}}", "a + b", "y = a + b"),
        ("y = f({{g}})", "a + b", "y = f(a + b)"),
        ("y = f({{g}}, a)", "a - b", "y = f(a - b, a)"),
        ("it costs {{g}} FLOPs", "a + b", "it costs a + b FLOPs"),
        ("the limit is {{g}}, because", "a + b", "the limit is a + b, because"),
        # Already bracketed, an atom or a phrase: as written.
        ("y = a / {{g}}", "(b + c)", "y = a / (b + c)"),
        ("y = a / {{g}}", "[b + c]", "y = a / [b + c]"),
        ("y = a / {{g}}", "b", "y = a / b"),
        ("y = a / {{g}}", "running averages", "y = a / running averages"),
        # Prose operators.
        ("so it is divided by {{g}}", "a + b", "so it is divided by (a + b)"),
        ("that is k times {{g}}", "a + b", "that is k times (a + b)"),
    ],
)
def test_answers_are_bracketed_where_precedence_needs_it(prompt, answer, printed):
    assert filled_prompt(card(prompt, answer)) == printed


def test_bracketing_decides_on_the_learner_s_text_too():
    slope = card("y = a / {{g}}", "b + c")
    assert fitted_answers(slope, {"g": "c + b"}) == {"g": "(c + b)"}
    assert fitted_answers(slope, {}) == {}


# -- every bundled card, by evaluation ------------------------------------------------

#: Where a formula inside a prompt ends: relations, list separators, prose joints.
_SPLIT = re.compile(r"=|≈|←|→|,|;|:| and | where | or | then | with | for | gives ")


def _spans(card: Card, answers: dict[str, str]) -> list[tuple[str, str]]:
    """Each stretch of formula around a gap, as (the gap's name, the stretch filled in).

    A stretch runs between relations and separators, with the English words
    at its ends ("has entropy", "FLOPs") trimmed off.
    """
    symbols = {alias for name, s in card.symbols.items() for alias in (name, *s.aliases)}

    def prose(word: str) -> bool:
        return word.isascii() and word.isalpha() and len(word) > 1 and word not in symbols

    marked = GAP.sub(lambda m: f"\x00{m.group(1)}\x00", card.prompt)
    found = []
    for piece in _SPLIT.split(marked):
        # The run of formula words around each gap, between English words.
        for run in re.split(r"(?:^|\s)(?:[A-Za-z]{2,}\s+)*[A-Za-z]{2,}(?=\s|$)", piece):
            words = [w for w in run.split() if not prose(w)]
            stretch = " ".join(words)
            for name in re.findall(r"\x00(\w+)\x00", stretch):
                text = re.sub(r"\x00(\w+)\x00", lambda m: answers[m.group(1)], stretch)
                found.append((name, text))
    return found


def _permissive_table(texts: tuple[str, str], symbols: set[str]) -> SymbolTable:
    """Every name the texts use, as a symbol (functions and constants aside, unless the
    card declares them: its sigma is a symbol)."""
    reserved = (set(FUNCTIONS) | set(FUNCTION_ALIASES) | set(CONSTANTS)) - symbols
    names = {
        token.text
        for text in texts
        for token in tokenize(text)
        if token.kind == "name" and name_key(token.text) not in reserved
    }
    return SymbolTable(canonical={name: name for name in names})


def _same_value(printed: str, reference: str, symbols: set[str]) -> bool | None:
    """Whether two formulas agree at random points; None when either cannot be read."""
    try:
        table = _permissive_table((printed, reference), symbols)
        trees = parse(printed, table), parse(reference, table)
    except AnswerError:
        return None
    rng = np.random.default_rng(7)
    compared = 0
    domains = {name: Domain() for name in table.names}
    for point in sample_points(domains, rng, 12):
        try:
            values = [evaluate(tree, point) for tree in trees]
        except (Undefined, Overflow, NotDefined, ArithmeticError):
            continue
        compared += 1
        if not values_agree(*values):
            return False
    return True if compared else None


def _check_card(path: Path) -> tuple[int, list[str]]:
    loaded = load_card_file(path)[0]
    assert loaded is not None, path
    card = loaded.card
    answers = {name: blank.answer for name, blank in card.blanks.items()}
    whole = {name: f"({text})" for name, text in answers.items()}
    fitted = fitted_answers(card)
    checked, wrong = 0, []
    for (name, printed), (_, reference) in zip(
        _spans(card, fitted), _spans(card, whole), strict=True
    ):
        verdict = _same_value(printed, reference, set(card.symbols))
        if verdict is not None:
            checked += 1
            if not verdict:
                wrong.append(f"{card.id} [{name}]: {printed!r} is not {reference!r}")
    return checked, wrong


def test_every_bundled_filled_formula_means_the_answers_as_whole_expressions():
    checked, wrong = 0, []
    for path in BUNDLED:
        count, errors = _check_card(path)
        checked += count
        wrong += errors
    assert wrong == []
    # Nearly every gap sits in a stretch of formula the parser reads (72 of the 76 gaps
    # of the first 40 cards; ⊙, θ_{t−1}, m̂ and "(query, key)" are not answer syntax).
    gaps = sum(len(load_card_file(path)[0].card.blanks) for path in BUNDLED)
    assert checked >= 0.8 * gaps


def test_the_evaluation_catches_a_dropped_bracket():
    path = REPO / "content" / "training" / "adam-bias-correction.yaml"
    card = load_card_file(path)[0].card
    naive = {name: blank.answer for name, blank in card.blanks.items()}
    whole = {name: f"({text})" for name, text in naive.items()}
    spans = dict(_spans(card, naive)), dict(_spans(card, whole))
    naive_reading = _same_value(spans[0]["correction"], spans[1]["correction"], set(card.symbols))
    assert naive_reading is False
    assert "m_t / (1 - beta1^t)" in filled_prompt(card)


# -- any answer in any operator context, by Hypothesis -----------------------------------

_ATOMS = st.sampled_from(["b", "c", "x", "2", "3"])


def _joined(parts: list[str], operators: list[str]) -> st.SearchStrategy[str]:
    """The parts joined by operators drawn from ``operators``."""
    between = st.lists(st.sampled_from(operators), min_size=len(parts) - 1, max_size=len(parts) - 1)
    return between.map(
        lambda ops: parts[0] + "".join(op + part for op, part in zip(ops, parts[1:], strict=True))
    )


def _expressions() -> st.SearchStrategy[str]:
    """Answer text from a small grammar, brackets only where the text needs them."""

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        bracketed = inner.map(lambda e: f"({e})")
        call = inner.map(lambda e: f"sqrt({e})")
        factor = st.one_of(_ATOMS, bracketed, call)
        power = st.tuples(factor, st.sampled_from(["2", "3"])).map(lambda t: f"{t[0]}^{t[1]}")
        term = st.lists(st.one_of(factor, power), min_size=1, max_size=3).flatmap(
            lambda factors: _joined(factors, [" * ", " / ", " "])
        )
        total = st.lists(term, min_size=1, max_size=3).flatmap(
            lambda terms: _joined(terms, [" + ", " - "])
        )
        negated = total.map(lambda e: f"-{e}")
        return st.one_of(term, total, negated, power)

    return st.recursive(_ATOMS, extend, max_leaves=6)


_CONTEXTS = [
    ("", ""), ("a + ", ""), ("a - ", ""), ("a − ", ""), ("a * ", ""), ("a · ", ""),
    ("a / ", ""), ("a ÷ ", ""), ("a^", ""), ("a ", ""), ("", " + a"), ("", " - a"),
    ("", " * a"), ("", " / a"), ("", "^2"), ("", " a"), ("a / ", " + a"), ("a * ", "^3"),
    ("sqrt(", ")"), ("a - ", " - a"),
]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(answer=_expressions(), context=st.sampled_from(_CONTEXTS))
def test_any_answer_in_any_context_means_the_whole_answer(answer, context):
    before, after = context
    filled = card(f"y = {before}{{{{g}}}}{after}", answer, symbols="a b c x")
    printed = filled_prompt(filled).removeprefix("y = ")
    reference = f"{before}({answer}){after}"
    verdict = _same_value(printed, reference, {"a", "b", "c", "x"})
    assume(verdict is not None)
    assert verdict, f"{printed!r} does not mean {reference!r}"
