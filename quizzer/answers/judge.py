"""Deciding whether an answer is right, and saying why it is not.

The order of work for one answer:

1. words: the blank's ``also`` list, forgiving case, articles, punctuation
   and one typo in a longer word;
2. parse (:mod:`quizzer.answers.syntax`), with every size limit;
3. numbers: the answer and the expected answer at the same random points
   (:mod:`quizzer.answers.numeric`); answers agreeing in floating point are
   confirmed at 50 digits, so ``0.333333333333333`` is not ``1/3``;
4. feedback for a wrong answer: the card's own ``wrong`` entries first,
   matched by value (so ``d_k^1`` meets the ``d_k`` entry), then a computed
   diagnosis: reciprocal, square, square root, sign, constant factor,
   constant offset, transpose, missing or extra symbols.

SymPy is used to read the answer back (``interpreted``) and as a cheap exact
check; the decision never waits on a simplifier.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, Literal

import numpy as np

from quizzer.answers import numeric, symbolic
from quizzer.answers.syntax import (
    AnswerError,
    Binary,
    Call,
    Neg,
    Node,
    Sym,
    SymbolTable,
    TooLarge,
    Transpose,
    parse,
)
from quizzer.answers.words import WordJudge, accepted_forms, expected_kind
from quizzer.cards.model import Blank, Card
from quizzer.cards.names import is_notation

POINTS = 12
MIN_VALID_POINTS = 4

Status = Literal["correct", "wrong", "unreadable", "too_large", "unanswered"]


@dataclass(frozen=True)
class Verdict:
    """The judgement of one answer to one blank."""

    blank: str
    given: str
    correct: bool
    status: Status
    interpreted: str | None = None
    pretty: str | None = None
    feedback: str | None = None
    decided_by: str | None = None
    #: For unreadable answers: the 1-based column the problem is at.
    column: int | None = None
    #: For word blanks: every accepted form, to show when the answer is revealed.
    accepted: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The contract's per-blank JSON object (DESIGN.md, item 5)."""
        return {
            "blank": self.blank,
            "given": self.given,
            "correct": self.correct,
            "interpreted": self.interpreted,
            "feedback": self.feedback,
        }


def unanswered(blank: str) -> Verdict:
    return Verdict(blank, "", False, "unanswered", feedback="not answered")


def symbol_table(card: Card) -> SymbolTable:
    """The names, notations and definitions an answer to ``card`` may use."""
    canonical: dict[str, str] = {}
    notations: dict[str, str] = {}
    for name, symbol in card.symbols.items():
        canonical[name] = name
        for alias in symbol.aliases:
            (notations if is_notation(alias) else canonical).setdefault(alias, name)
    return SymbolTable(
        canonical=canonical,
        matrices=frozenset(n for n, s in card.symbols.items() if s.matrix),
        positives=frozenset(n for n, s in card.symbols.items() if s.positive),
        notations=notations,
        definitions={n: s.value for n, s in card.symbols.items() if s.value is not None},
    )


# -- words --------------------------------------------------------------------

_ARTICLES = re.compile(r"^(the|a|an)\s+")


def normalise_words(text: str) -> str:
    """Case, spacing, a leading article and trailing punctuation do not matter."""
    words = unicodedata.normalize("NFKC", text).casefold()
    words = re.sub(r"\s+", " ", words).strip()
    words = words.rstrip(".!?;:, ").lstrip()
    return _ARTICLES.sub("", words)


def match_words(text: str, accepted: Sequence[str]) -> tuple[str, bool] | None:
    """The accepted phrase ``text`` matches and whether a typo was forgiven."""
    found = WordJudge(accepted).match(text)
    return None if found is None else (found.phrase, found.typo)


# -- compiled blanks ------------------------------------------------------------


@dataclass
class _Expected:
    """An expression with its values at the card's sample points."""

    tree: Node
    values: list[Any]  # one per point; None where undefined


_PHRASE = re.compile(r"^[\w][\w\s'’-]*$")


def is_phrase(text: str) -> bool:
    """Plain words (``layer norm``, ``Adam``), as opposed to a formula."""
    return bool(_PHRASE.match(text.strip())) and not text.strip().isdigit()


@dataclass
class _CompiledBlank:
    name: str
    blank: Blank
    expected: _Expected | None
    problem: str | None  # why the expected answer itself could not be read
    wrong: list[tuple[_Expected, str]] = field(default_factory=list)
    synonyms: list[list[str]] = field(default_factory=list)

    @property
    def is_word_blank(self) -> bool:
        """A blank whose answer is a phrase rather than a formula."""
        return self.expected is None and is_phrase(self.blank.answer)

    @property
    def accepted_words(self) -> list[str]:
        words = list(self.blank.also)
        return [self.blank.answer, *words] if self.is_word_blank else words

    @cached_property
    def words(self) -> WordJudge:
        """The blank's phrases, right and known-wrong, as words are matched."""
        wrong = [entry.answer for entry in self.blank.wrong] if self.is_word_blank else []
        return WordJudge(self.accepted_words, wrong, self.synonyms)


class CardJudge:
    """Judges answers to one card's blanks. Build once per card; judge many times.

    ``seed`` fixes the random points, so a judgement is reproducible.
    """

    def __init__(self, card: Card, *, seed: int = 0, points: int = POINTS) -> None:
        self.card = card
        self.seed = seed
        self.table = symbol_table(card)
        rng = np.random.default_rng(seed)
        self.points = numeric.sample_points(self.table, rng, points)
        self._blanks: dict[str, _CompiledBlank] = {}

    # compiled lazily: a session judges one blank at a time
    def compiled(self, name: str) -> _CompiledBlank:
        if name not in self._blanks:
            blank = self.card.blanks[name]
            try:
                expected: _Expected | None = self._expected(blank.answer)
                problem = None
            except AnswerError as error:
                expected, problem = None, error.message
            wrong = []
            for entry in blank.wrong:
                try:
                    wrong.append((self._expected(entry.answer), entry.feedback))
                except AnswerError:
                    continue  # `validate` reports it; judging carries on without it
            synonyms = [list(group) for group in self.card.synonyms]
            self._blanks[name] = _CompiledBlank(name, blank, expected, problem, wrong, synonyms)
        return self._blanks[name]

    def _expected(self, text: str) -> _Expected:
        tree = parse(text, self.table)
        return _Expected(tree, [self._value_at(tree, p) for p in self.points])

    def _value_at(self, tree: Node, point: numeric.Point) -> Any:
        try:
            return numeric.evaluate(tree, point)
        except numeric.Overflow:
            try:
                return numeric.evaluate(tree, point, precise=True)
            except (numeric.Overflow, numeric.Undefined, numeric.NotDefined):
                return None
        except numeric.Undefined:
            return None

    def fingerprint(self, name: str) -> str:
        """A short hash of what blank ``name`` means, not how it is spelled.

        ``sqrt(d_k)`` and ``d_k^(1/2)`` share a fingerprint; ``d_k`` does not.
        """
        compiled = self.compiled(name)
        basis = f"words:{normalise_words(compiled.blank.answer)}"
        if compiled.expected is not None:
            expr = self._sympy(compiled.expected.tree)
            if expr is not None:
                basis = symbolic.canonical(expr)
        return hashlib.sha256(basis.encode("utf-8")).hexdigest()[:16]

    # -- the judgement -------------------------------------------------------

    def judge(self, name: str, text: str) -> Verdict:
        """Judge ``text`` as the answer to blank ``name``."""
        if name not in self.card.blanks:
            raise KeyError(name)
        given = text.strip()
        if not given:
            return Verdict(name, text, False, "unanswered", feedback="not answered")
        compiled = self.compiled(name)
        words = compiled.words.match(given)
        if words is not None:
            note = f"accepted — spelled '{words.phrase}'" if words.typo else None
            return Verdict(name, text, True, "correct", words.phrase, words.phrase, note, "words")
        if compiled.is_word_blank:
            return self._word_miss(compiled, text)
        try:
            tree = parse(text, self.table)  # not stripped: columns count in what was typed
        except TooLarge as error:
            return Verdict(
                name, text, False, "too_large", feedback=error.message, decided_by="limits"
            )
        except AnswerError as error:
            return Verdict(
                name,
                text,
                False,
                "unreadable",
                feedback=error.message,
                decided_by="parser",
                column=error.column,
            )
        try:
            interpreted, pretty, expr = self._read_back(tree)
        except TooLarge as error:
            return Verdict(
                name, text, False, "too_large", feedback=error.message, decided_by="limits"
            )
        if compiled.expected is None:
            return Verdict(
                name,
                text,
                False,
                "wrong",
                interpreted,
                pretty,
                f"this blank's own answer cannot be read: {compiled.problem}",
            )
        try:
            values = [self._value_at(tree, p) for p in self.points]
        except numeric.NotDefined as error:
            return Verdict(name, text, False, "wrong", interpreted, pretty, str(error), "numeric")
        agreement = self._agree(compiled.expected, tree, values)
        if agreement is True:
            expected_expr = self._sympy(compiled.expected.tree)
            exact = (
                expected_expr is not None
                and expr is not None
                and (symbolic.same_after_normalising(expr, expected_expr))
            )
            return Verdict(
                name,
                text,
                True,
                "correct",
                interpreted,
                pretty,
                None,
                "symbolic" if exact else "numeric",
            )
        if agreement is None:  # too few points where both are defined
            expected_expr = self._sympy(compiled.expected.tree)
            if (
                expected_expr is not None
                and expr is not None
                and (symbolic.same_after_normalising(expr, expected_expr))
            ):
                return Verdict(name, text, True, "correct", interpreted, pretty, None, "symbolic")
        feedback = self._diagnose(compiled, tree, values)
        return Verdict(name, text, False, "wrong", interpreted, pretty, feedback, "numeric")

    def _word_miss(self, compiled: _CompiledBlank, text: str) -> Verdict:
        """A word answer that matched no accepted phrase: a known wrong one, or a miss
        that says what kind of answer is wanted."""
        blank = compiled.blank
        accepted = tuple(accepted_forms(blank.answer, blank.also))
        known = compiled.words.match_wrong(text)
        feedback = next((entry.feedback for entry in blank.wrong if entry.answer == known), None)
        if feedback is None:
            feedback = f"not an accepted answer: {expected_kind(blank.answer, blank.expects)}"
        return Verdict(
            compiled.name, text, False, "wrong", None, None, feedback, "words", accepted=accepted
        )

    def _sympy(self, tree: Node) -> Any:
        try:
            return symbolic.to_sympy(tree, self.table)
        except Exception:  # SymPy refuses some combinations (Max of matrices...)
            return None

    def _read_back(self, tree: Node) -> tuple[str | None, str | None, Any]:
        """The learner's answer as SymPy reads it. Raises TooLarge past the limits."""
        try:
            expr = symbolic.to_sympy(tree, self.table)
        except TooLarge:
            raise
        except Exception:  # SymPy refuses some combinations (Max of matrices...)
            return None, None, None
        try:
            return symbolic.plain(expr), symbolic.pretty(expr), expr
        except Exception:  # a printer gap must not cost the learner a verdict
            return None, None, expr

    def _agree(self, expected: _Expected, tree: Node, values: list[Any]) -> bool | None:
        """True/False when enough points decide; None when too few are defined."""
        valid = [
            (i, e, a)
            for i, (e, a) in enumerate(zip(expected.values, values, strict=True))
            if e is not None and a is not None
        ]
        if len(valid) < MIN_VALID_POINTS:
            return None
        for _, e, a in valid:
            if not numeric.values_agree(e, a, precise=_is_precise(e) or _is_precise(a)):
                return False
        # Floating point agrees; confirm at 50 digits where the values are scalars,
        # so answers that are merely close (0.333333333333333 for 1/3) are refused.
        checked = 0
        for i, _, a in valid:
            if numeric.is_matrix(a):
                break
            try:
                precise_expected = numeric.evaluate(expected.tree, self.points[i], precise=True)
                precise_answer = numeric.evaluate(tree, self.points[i], precise=True)
            except (numeric.Overflow, numeric.Undefined, numeric.NotDefined):
                continue
            if not numeric.values_agree(precise_expected, precise_answer, precise=True):
                return False
            checked += 1
            if checked == 2:
                break
        return True

    # -- feedback --------------------------------------------------------------

    def _diagnose(self, compiled: _CompiledBlank, tree: Node, values: list[Any]) -> str:
        for wrong, feedback in compiled.wrong:
            if self._agree(wrong, tree, values):
                return feedback
        expected = compiled.expected
        assert expected is not None
        pairs = [
            (e, a)
            for e, a in zip(expected.values, values, strict=True)
            if e is not None and a is not None
        ]
        return diagnose(pairs, self._symbols_of(expected.tree), self._symbols_of(tree))

    def _symbols_of(self, tree: Node) -> set[str]:
        """The symbols a value depends on: after SymPy's tidying, so n^0 uses no n."""
        expr = self._sympy(tree)
        if expr is None:
            return free_symbols(tree)
        return {str(symbol) for symbol in expr.free_symbols}


def _is_precise(value: Any) -> bool:
    return not isinstance(value, (complex, np.ndarray, np.complexfloating))


def free_symbols(tree: Node) -> set[str]:
    found: set[str] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Sym):
            found.add(node.name)
        elif isinstance(node, Binary):
            stack.extend((node.left, node.right))
        elif isinstance(node, (Neg, Transpose)):
            stack.append(node.operand)
        elif isinstance(node, Call):
            stack.extend(node.args)
    return found


def _all(pairs: list[tuple[Any, Any]], relation: Any) -> bool:
    try:
        return bool(pairs) and all(relation(e, a) for e, a in pairs)
    except (ZeroDivisionError, OverflowError, ValueError, TypeError, FloatingPointError):
        return False


def _close(a: Any, b: Any) -> bool:
    return numeric.values_agree(a, b, precise=_is_precise(a) or _is_precise(b))


def common_offset(pairs: list[tuple[Any, Any]]) -> complex | None:
    """c when the answer is the expected value plus c at every point."""
    try:
        offsets = [complex(a) - complex(e) for e, a in pairs]
        if offsets and all(abs(o - offsets[0]) <= 1e-9 * (1 + abs(offsets[0])) for o in offsets):
            return offsets[0]
    except (OverflowError, TypeError, ValueError):
        pass
    return None


def common_factor(pairs: list[tuple[Any, Any]]) -> complex | None:
    """c when the answer is c times the expected value at every point."""
    try:
        return _common_factor(pairs)
    except (OverflowError, TypeError, ValueError):
        return None


def _common_factor(pairs: list[tuple[Any, Any]]) -> complex | None:
    factors = []
    for e, a in pairs:
        e_array = np.asarray(e, dtype=complex)
        a_array = np.asarray(a, dtype=complex)
        norm = complex(np.vdot(e_array, e_array))
        if abs(norm) == 0:
            continue
        factor = complex(np.vdot(e_array, a_array)) / norm
        if not np.allclose(factor * e_array, a_array, rtol=1e-9, atol=1e-12):
            return None
        factors.append(factor)
    if not factors or any(abs(f - factors[0]) > 1e-9 * abs(factors[0]) for f in factors):
        return None
    return factors[0]


def describe_constant(value: complex) -> str | None:
    """A short name for a real constant: 2, 1/2, -3, sqrt(2), pi, 2*pi."""
    if abs(value.imag) > 1e-9 * max(1.0, abs(value)):
        return None
    real = value.real
    for scale, suffix in ((1.0, ""), (np.pi, "·pi"), (np.sqrt(2), "·sqrt(2)")):
        fraction = Fraction(real / scale).limit_denominator(12)
        if fraction != 0 and abs(float(fraction) * scale - real) <= 1e-9 * abs(real):
            if suffix and fraction == 1:
                return suffix.lstrip("·")
            if suffix and fraction == -1:
                return "-" + suffix.lstrip("·")
            return f"{fraction}{suffix}"
    return None


def diagnose(
    pairs: list[tuple[Any, Any]], expected_symbols: set[str], answer_symbols: set[str]
) -> str:
    """Why an answer is wrong, computed from its values against the expected ones."""
    if pairs:
        expected_matrix = numeric.is_matrix(pairs[0][0])
        answer_matrix = numeric.is_matrix(pairs[0][1])
        if expected_matrix and not answer_matrix:
            return "the answer is a matrix; yours is a single number"
        if answer_matrix and not expected_matrix:
            return "the answer is a single number; yours is a matrix"
        if expected_matrix and _all(pairs, lambda e, a: _close(e.T, a)):
            return "that is the transpose of the answer"
        if _all(pairs, lambda e, a: _close(-e, a)):
            return "right size, wrong sign"
        factor = common_factor(pairs)
        if factor is not None:
            if abs(factor - 1) < 1e-6:
                return "very close, but not exactly the answer: is a constant rounded?"
            name = describe_constant(factor)
            if name:
                return f"off by a constant factor: yours is {name} times the answer"
            return "off by a constant factor"
        if not expected_matrix:
            if _all(pairs, lambda e, a: _close(1 / e, a)):
                return "that is the reciprocal of the answer (upside down)"
            if _all(pairs, lambda e, a: _close(e * e, a)):
                return "that is the square of the answer"
            if _all(pairs, lambda e, a: _close(e, a * a)):
                return "that is the square root of the answer"
            offset = common_offset(pairs)
            if offset is not None:
                name = describe_constant(offset)
                if name is None:
                    return "off by a constant"
                if name.startswith("-"):
                    return f"off by a constant: yours is {name[1:]} less than the answer"
                return f"off by a constant: yours is {name} more than the answer"
    missing = sorted(expected_symbols - answer_symbols)
    extra = sorted(answer_symbols - expected_symbols)
    if missing:
        return f"the answer depends on {', '.join(missing)}; yours does not"
    if extra:
        return f"yours uses {', '.join(extra)}, which the answer does not need"
    return "not equivalent to the expected answer"
