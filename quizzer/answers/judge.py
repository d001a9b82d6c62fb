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

import decimal
import hashlib
import math
import re
import sys
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, Literal

import numpy as np

from quizzer.answers import functions, numeric
from quizzer.answers.deadline import JUDGE_SECONDS, BudgetSpent, JudgeTimeout, budget, deadline
from quizzer.answers.syntax import (
    MAX_LITERAL_DIGITS,
    AnswerError,
    Node,
    SymbolTable,
    TooLarge,
    expand_definitions,
    parse,
)
from quizzer.answers.tree import functions_used, numbers_in, symbols_used
from quizzer.answers.words import WordJudge, expected_kind
from quizzer.cards.model import Blank, Card
from quizzer.names import is_notation

POINTS = 12
#: Points where both sides are real that an "equal" verdict needs at least.
MIN_VALID_POINTS = 4
#: Of those, points that must be confirmed at 50 digits: a fixed minimum, never zero.
MIN_CONFIRMED = 4
#: Points drawn only when the first ones leave too few where both sides are real.
MORE_POINTS = 36
#: Wall-clock share of each SymPy step (read-back, exact check) of a judgement.
SYMPY_SECONDS = 0.5
#: Points with float values on both sides that a computed diagnosis needs.
MIN_DIAGNOSIS_POINTS = 3

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


class _Mark:
    """Why a point has no float value: it is not real there, or floats overflow."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


UNDEFINED = _Mark("UNDEFINED")
OVERFLOW = _Mark("OVERFLOW")


@dataclass
class _Expected:
    """An expression with its float values at the card's sample points."""

    tree: Node
    values: list[Any]  # one per point: a value, UNDEFINED or OVERFLOW
    #: 50-digit values, computed when first needed: point index -> value or None.
    precise: dict[int, Any] = field(default_factory=dict)
    #: Its SymPy form (None where SymPy could not build it in time), once tried.
    sympy_form: Any = None
    sympy_tried: bool = False


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


@dataclass
class Comparison:
    """How two expressions compare over the sample points."""

    #: True: equal (confirmed at 50 digits); False: they differ; None: undecided.
    equal: bool | None
    valid: int = 0  # points where both sides are real
    confirmed: int = 0  # of those, points confirmed at 50 digits
    #: Points where the expected value is real but the answer's is not.
    answer_undefined: int = 0
    expected_undefined: int = 0
    #: Points where floats were not enough and 50 digits were out of reach.
    out_of_reach: int = 0


def symbol_domains(card: Card) -> dict[str, numeric.Domain]:
    """Where each symbol's sample values come from, from its declared domain."""
    domains = {}
    for name, symbol in card.symbols.items():
        low, high = symbol.range if symbol.range is not None else (None, None)
        if symbol.positive:
            low = 0.0 if low is None else max(low, 0.0)
        domains[name] = numeric.Domain(
            matrix=symbol.matrix,
            identity=symbol.identity,
            integer=symbol.integer,
            low=low,
            high=high,
        )
    return domains


def forbidden_names(blank: Blank, table: SymbolTable) -> dict[str, str]:
    """Canonical function or symbol name -> the forbidden word as the card spells it."""
    names = {}
    for word in blank.forbid:
        canonical = functions.canonical_name(word) or table.symbol(word) or word
        names[canonical] = word
    return names


def forbidden_in(tree: Node, blank: Blank, table: SymbolTable) -> list[str]:
    """The forbidden words an answer uses, as the card spells them."""
    names = forbidden_names(blank, table)
    used = functions_used(tree) | symbols_used(tree)
    return [word for name, word in names.items() if name in used]


class CardJudge:
    """Judges answers to one card's blanks. Build once per card; judge many times.

    ``seed`` fixes the random points, so a judgement is reproducible.
    """

    def __init__(self, card: Card, *, seed: int = 0, points: int = POINTS) -> None:
        self.card = card
        self.seed = seed
        self.table = symbol_table(card)
        rng = np.random.default_rng(seed)
        self.points = numeric.sample_points(symbol_domains(card), rng, points)
        self._more_points: list[numeric.Point] | None = None
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
            except numeric.NotDefined as error:
                expected, problem = None, str(error)
            wrong = []
            for entry in blank.wrong:
                try:
                    wrong.append((self._expected(entry.answer), entry.feedback))
                except (AnswerError, numeric.NotDefined):
                    continue  # `validate` reports it; judging carries on without it
            synonyms = [list(group) for group in self.card.synonyms]
            self._blanks[name] = _CompiledBlank(name, blank, expected, problem, wrong, synonyms)
        return self._blanks[name]

    def _expected(self, text: str) -> _Expected:
        tree = parse(text, self.table)
        return _Expected(tree, self.values_of(tree))

    def all_points(self) -> list[numeric.Point]:
        """The sample points and :data:`MORE_POINTS` more, drawn from the seed alone.

        The extra points are used only when the first ones leave too few
        where both sides are real (``log((1+x)/(1-x))`` is real for |x| < 1
        only), so a verdict never depends on what was judged before it.
        """
        if self._more_points is None:
            rng = np.random.default_rng([self.seed, 1])
            domains = symbol_domains(self.card)
            self._more_points = numeric.sample_points(domains, rng, MORE_POINTS)
        return self.points + self._more_points

    def values_of(self, tree: Node, *, more: bool = False) -> list[Any]:
        """Float values at every point (UNDEFINED or OVERFLOW where there is none).

        Raises :class:`numeric.NotDefined` when the tree means nothing for
        its kinds of values (division by a matrix).
        """
        values = []
        for point in self.all_points() if more else self.points:
            try:
                values.append(numeric.evaluate(tree, point))
            except numeric.Overflow:
                values.append(OVERFLOW)
            except numeric.Undefined:
                values.append(UNDEFINED)
        return values

    def _precise(self, tree: Node, index: int) -> Any:
        """The 50-digit value at point ``index``, or None where it has none."""
        try:
            return numeric.evaluate(tree, self.all_points()[index], precise=True)
        except (numeric.Undefined, numeric.Overflow, numeric.NotDefined):
            return None

    def _precise_expected(self, expected: _Expected, index: int) -> Any:
        if index not in expected.precise:
            expected.precise[index] = self._precise(expected.tree, index)
        return expected.precise[index]

    def fingerprint(self, name: str) -> str:
        """A short hash of what blank ``name`` means, not how it is spelled.

        ``sqrt(d_k)`` and ``d_k^(1/2)`` share a fingerprint; ``d_k`` does not.
        """
        compiled = self.compiled(name)
        basis = f"words:{normalise_words(compiled.blank.answer)}"
        if compiled.expected is not None:
            expr = self._expected_sympy(compiled.expected)
            if expr is not None:
                from quizzer.answers import symbolic

                basis = symbolic.canonical(expr)
        return hashlib.sha256(basis.encode("utf-8")).hexdigest()[:16]

    # -- the judgement -------------------------------------------------------

    def judge(self, name: str, text: str, *, read_back: bool = True) -> Verdict:
        """Judge ``text`` as the answer to blank ``name``.

        Without ``read_back`` the verdict does not need SymPy: the decision is
        numeric (quizzer's own tree, evaluated), and ``interpreted``/``pretty``
        are left out. The first answer of a session is judged so while SymPy
        is still loading, and ``validate`` never shows the read-back; SymPy is
        then needed only for what numbers could not decide.
        """
        if name not in self.card.blanks:
            raise KeyError(name)
        given = text.strip()
        if not given:
            return Verdict(name, text, False, "unanswered", feedback="not answered")
        compiled = self.compiled(name)
        matched = compiled.words.match(given)
        if matched is not None:
            note = f"accepted — spelled '{matched.phrase}'" if matched.typo else None
            phrase = matched.phrase
            return Verdict(name, text, True, "correct", phrase, phrase, note, "words")
        if compiled.is_word_blank:
            return self._word_miss(compiled, text)
        try:
            # not stripped: columns count in what was typed
            written = parse(text, self.table, expand=False)
            tree = expand_definitions(written, self.table)  # p -> sigmoid(z)
            interpreted, pretty, expr = self._read_back(tree) if read_back else (None, None, None)
            if read_back and written is not tree:  # show p - y as typed, not written out
                interpreted, pretty, _ = self._read_back(written)
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

        def wrong(feedback: str, decided_by: str = "numeric") -> Verdict:
            return Verdict(name, text, False, "wrong", interpreted, pretty, feedback, decided_by)

        if compiled.expected is None:
            return wrong(f"this blank's own answer cannot be judged: {compiled.problem}", "card")
        forbidden = forbidden_in(written, compiled.blank, self.table)
        if forbidden:
            named = ", ".join(forbidden)
            return wrong(
                f"uses {named}, which this blank forbids: write it in other terms", "forbid"
            )
        try:
            values = self.values_of(tree)
            comparison = self.compare(compiled.expected, tree, values)
            if comparison.equal is None and comparison.valid < MIN_VALID_POINTS:
                values = self.values_of(tree, more=True)
                comparison = self.compare(compiled.expected, tree, values)
        except numeric.NotDefined as error:
            return wrong(self._same_as_a_wrong_entry(compiled.blank, tree) or str(error))
        if comparison.equal is None and expr is None and not read_back:
            expr = self._sympy(tree)  # only a proof can decide now: load SymPy after all
        if comparison.equal:
            exact = read_back and self._proved_equal(expr, compiled.expected)
            how = "symbolic" if exact else "numeric"
            return Verdict(name, text, True, "correct", interpreted, pretty, None, how)
        if comparison.equal is None and self._proved_equal(expr, compiled.expected):
            # Symbolic proof may confirm what the points could not decide; it
            # never overrules a disagreement.
            return Verdict(name, text, True, "correct", interpreted, pretty, None, "symbolic")
        if comparison.equal is None:
            return wrong(self._undecided(compiled.expected.tree, tree, comparison))
        return wrong(self._diagnose(compiled, tree, values, expr, tidy=read_back))

    def _same_as_a_wrong_entry(self, blank: Blank, tree: Node) -> str | None:
        """The feedback of a ``wrong`` entry written as this very tree (``1/W``).

        Entries with no value (division by a matrix) cannot be matched by
        value; they still teach when the learner writes the same thing.
        """
        for entry in blank.wrong:
            try:
                if parse(entry.answer, self.table) == tree:
                    return entry.feedback
            except AnswerError:
                continue
        return None

    # SymPy only reads answers back and may confirm them: each use gets a share
    # of the time (SYMPY_SECONDS) and costs only its own result when it
    # overruns (sqrt(exp((2-x)^1000)) took SymPy 113 s to build).

    def _proved_equal(self, expr: Any, expected: _Expected) -> bool:
        from quizzer.answers import symbolic

        expected_expr = self._expected_sympy(expected)
        if expected_expr is None or expr is None:
            return False
        try:
            with budget(SYMPY_SECONDS):
                return bool(symbolic.same_after_normalising(expr, expected_expr))
        except BudgetSpent:
            return False

    def _expected_sympy(self, expected: _Expected) -> Any:
        if not expected.sympy_tried:
            expected.sympy_form = self._sympy(expected.tree)
            expected.sympy_tried = True
        return expected.sympy_form

    def _word_miss(self, compiled: _CompiledBlank, text: str) -> Verdict:
        """A word answer that matched no accepted phrase: a known wrong one, or a miss
        that says what kind of answer is wanted."""
        blank = compiled.blank
        accepted = tuple(blank.accepted_forms())
        known = compiled.words.match_wrong(text)
        feedback = next((entry.feedback for entry in blank.wrong if entry.answer == known), None)
        if feedback is None:
            feedback = f"not an accepted answer: {expected_kind(blank.answer, blank.expects)}"
        return Verdict(
            compiled.name, text, False, "wrong", None, None, feedback, "words", accepted=accepted
        )

    def _sympy(self, tree: Node) -> Any:
        from quizzer.answers import symbolic

        try:
            with budget(SYMPY_SECONDS):
                return symbolic.to_sympy(tree, self.table)
        except BudgetSpent:
            return None
        except Exception:  # SymPy refuses some combinations (Max of matrices...)
            return None

    def _read_back(self, tree: Node) -> tuple[str | None, str | None, Any]:
        """The learner's answer as SymPy reads it. Raises TooLarge past the limits."""
        from quizzer.answers import symbolic

        expr = None
        try:
            with budget(SYMPY_SECONDS):
                expr = symbolic.to_sympy(tree, self.table)
                if symbolic.has_huge_number(expr):
                    return None, None, expr  # printing it would cost more than judging it
                return symbolic.plain(expr), symbolic.pretty(expr), expr
        except TooLarge:
            raise
        except BudgetSpent:
            return None, None, expr
        except Exception:  # SymPy refuses some combinations; a printer gap must not
            return None, None, expr  # cost the learner a verdict

    def compare(self, expected: _Expected, tree: Node, values: list[Any]) -> Comparison:
        """Compare an answer's values with the expected ones, point by point.

        A point counts only where both sides are real. Floats that disagree,
        or that overflowed on either side, are compared again at 50 digits
        on both sides before anything is decided; agreement in floats is
        confirmed at 50 digits at :data:`MIN_CONFIRMED` points at least.
        """
        result = Comparison(None)
        agreeing_in_floats = []
        for index, (e, a) in enumerate(
            zip(self._expected_values(expected, values), values, strict=False)
        ):
            if e is UNDEFINED or a is UNDEFINED:
                result.expected_undefined += e is UNDEFINED
                result.answer_undefined += a is UNDEFINED and e is not UNDEFINED
                continue
            if e is not OVERFLOW and a is not OVERFLOW and numeric.values_agree(e, a):
                agreeing_in_floats.append(index)
                continue
            verdict = self._agree_precisely(expected, tree, index)
            if verdict is None:
                result.out_of_reach += 1
                continue
            if not verdict:
                return Comparison(False, result.valid, result.confirmed)
            result.valid += 1
            result.confirmed += 1
        result.valid += len(agreeing_in_floats)
        if result.valid < MIN_VALID_POINTS:
            return result
        for index in _spread_out(agreeing_in_floats):
            if result.confirmed >= MIN_CONFIRMED:
                break
            verdict = self._agree_precisely(expected, tree, index)
            if verdict is False:
                return Comparison(False, result.valid, result.confirmed)
            result.confirmed += verdict is True
        result.equal = True if result.confirmed >= MIN_CONFIRMED else None
        return result

    def _expected_values(self, expected: _Expected, values: list[Any]) -> list[Any]:
        """The expected values at as many points as ``values`` has."""
        if len(expected.values) < len(values):
            try:
                expected.values = self.values_of(expected.tree, more=True)
            except numeric.NotDefined:  # only at the extra points: they do not count
                expected.values += [UNDEFINED] * (len(values) - len(expected.values))
        return expected.values

    def _agree_precisely(self, expected: _Expected, tree: Node, index: int) -> bool | None:
        """Agreement at 50 digits at one point; None where either side has no value there."""
        precise_expected = self._precise_expected(expected, index)
        if precise_expected is None:
            return None
        precise_answer = self._precise(tree, index)
        if precise_answer is None:
            return None
        return numeric.values_agree(precise_expected, precise_answer, precise=True)

    def _undecided(self, expected: Node, tree: Node, comparison: Comparison) -> str:
        """Why no verdict of "equal" could be reached: say so, never guess."""
        if comparison.valid >= MIN_VALID_POINTS:
            return "could not confirm it at 50 digits: its values are too large to check"
        undefined = max(comparison.answer_undefined, comparison.expected_undefined)
        if comparison.out_of_reach > undefined:
            return "its values are too large to evaluate at most points: cannot compare"
        if comparison.answer_undefined >= comparison.expected_undefined:
            names = sorted(symbols_used(tree))
            whose = "yours is"
        else:
            names = sorted(symbols_used(expected))
            whose = "the expected answer is"
        values = f" of {', '.join(names)}" if names else ""
        return f"{whose} undefined or not real for most values{values}: cannot compare"

    # -- feedback --------------------------------------------------------------

    def _diagnose(
        self,
        compiled: _CompiledBlank,
        tree: Node,
        values: list[Any],
        expr: Any,
        *,
        tidy: bool = True,
    ) -> str:
        """Why an answer is wrong. Without ``tidy``, no SymPy (symbols as the trees name them)."""
        for wrong, feedback in compiled.wrong:
            if self.compare(wrong, tree, values).equal:
                return feedback
        expected = compiled.expected
        assert expected is not None
        pairs = [
            (e, a)
            for e, a in zip(self._expected_values(expected, values), values, strict=False)
            if not isinstance(e, _Mark) and not isinstance(a, _Mark)
        ]
        with np.errstate(all="ignore"):
            return diagnose(
                pairs,
                _symbols_of(expected.tree, self._expected_sympy(expected) if tidy else None),
                _symbols_of(tree, expr),
                rounded_constants(tree),
            )


def judge_in_this_thread(
    judge: CardJudge,
    blank: str,
    text: str,
    seconds: float = JUDGE_SECONDS,
    *,
    read_back: bool = True,
) -> Verdict:
    """``judge.judge(blank, text)`` under :func:`deadline`, limits turned into verdicts."""
    try:
        with deadline(seconds):
            return judge.judge(blank, text, read_back=read_back)
    except JudgeTimeout:
        return Verdict(
            blank, text, False, "too_large", feedback="took too long to judge", decided_by="limits"
        )
    except (RecursionError, MemoryError):
        return Verdict(
            blank,
            text,
            False,
            "too_large",
            feedback="answer too complex to judge",
            decided_by="limits",
        )


def _spread_out(indices: list[int]) -> list[int]:
    """Every index, reordered so that the first few cover the kinds of points.

    Points take magnitudes of four kinds in turn (whole, below 1, 1 to 20,
    20 to 1,000: :func:`numeric.magnitude_kind`): one point of each kind
    comes first, so confirming the first few at 50 digits looks at every
    kind of magnitude.
    """
    first: list[int] = []
    for kind in range(4):
        first.extend([index for index in indices if index % 4 == kind][:1])
    return first + [index for index in indices if index not in first]


def _symbols_of(tree: Node, expr: Any) -> set[str]:
    """The symbols a value depends on: after SymPy's tidying when it read the
    tree (so n^0 uses no n), else the symbols the tree names."""
    if expr is None:
        return set(symbols_used(tree))
    return {str(symbol) for symbol in expr.free_symbols}


def free_symbols(tree: Node) -> set[str]:
    """The symbols a tree names."""
    return set(symbols_used(tree))


def _all(pairs: list[tuple[Any, Any]], relation: Any) -> bool:
    try:
        return bool(pairs) and all(relation(e, a) for e, a in pairs)
    except (ZeroDivisionError, OverflowError, ValueError, TypeError, FloatingPointError):
        return False


def _nearly(a: Any, b: Any) -> bool:
    """Within a few percent: what a rounded constant does to a value."""
    difference = float(np.linalg.norm(np.asarray(a, dtype=float) - np.asarray(b, dtype=float)))
    scale = max(float(np.linalg.norm(np.asarray(a, dtype=float))), 1e-300)
    return difference <= 0.05 * scale


def _close(a: Any, b: Any) -> bool:
    return numeric.values_agree(a, b)


def common_offset(pairs: list[tuple[Any, Any]]) -> float | None:
    """c when the answer is the expected value plus c at every point."""
    try:
        offsets = [float(a) - float(e) for e, a in pairs]
        if offsets and all(abs(o - offsets[0]) <= 1e-9 * (1 + abs(offsets[0])) for o in offsets):
            return offsets[0]
    except (OverflowError, TypeError, ValueError):
        pass
    return None


def common_factor(pairs: list[tuple[Any, Any]]) -> float | None:
    """c when the answer is c times the expected value at every point."""
    try:
        return _common_factor(pairs)
    except (OverflowError, TypeError, ValueError, FloatingPointError):
        return None


def _common_factor(pairs: list[tuple[Any, Any]]) -> float | None:
    factors = []
    for e, a in pairs:
        e_array = np.asarray(e, dtype=float)
        a_array = np.asarray(a, dtype=float)
        norm = float(np.vdot(e_array, e_array))
        if norm == 0:
            continue
        factor = float(np.vdot(e_array, a_array)) / norm
        if not np.allclose(factor * e_array, a_array, rtol=1e-9, atol=1e-12):
            return None
        factors.append(factor)
    if not factors or any(abs(f - factors[0]) > 1e-9 * abs(factors[0]) for f in factors):
        return None
    return factors[0]


def describe_constant(value: float) -> str | None:
    """A short name for a real constant: 2, 1/2, -3, sqrt(2), pi, 2*pi."""
    for scale, suffix in ((1.0, ""), (math.pi, "·pi"), (math.sqrt(2), "·sqrt(2)")):
        fraction = Fraction(value / scale).limit_denominator(12)
        if fraction != 0 and abs(float(fraction) * scale - value) <= 1e-9 * abs(value):
            if suffix and fraction == 1:
                return suffix.lstrip("·")
            if suffix and fraction == -1:
                return "-" + suffix.lstrip("·")
            return f"{fraction}{suffix}"
    return None


#: Exact constants a learner may have typed rounded, with their names.
_NAMED_CONSTANTS = (
    (math.pi, "pi"),
    (math.e, "e"),
    (math.log(2), "log(2)"),
    (math.log(10), "log(10)"),
    (math.sqrt(math.pi), "sqrt(pi)"),
)


def _looks_rounded(value: Fraction) -> str | None:
    """The exact constant a decimal looks like a rounding of, or None.

    A decimal with k places stands for c when it is c rounded or cut to k
    places, and c is a small fraction (1/3), a small fraction of pi, e,
    log(2)..., or the square root of a fraction (sqrt(2), sqrt(120)). A
    decimal that is itself a small fraction (0.5, 0.25) is exact, not rounded.
    """
    decimal = float(value)
    if Fraction(value).limit_denominator(12) == value:
        return None
    places = len(str(value.denominator)) - 1  # value is a decimal: 10^k / 2^i 5^j
    step = Fraction(1, 10**places)
    matches = []
    for exact, text in _constants_near(decimal):
        # > 0 when the decimal was cut short; exact arithmetic for fractions
        # (a float constant is taken exactly, with a few ulps of slack)
        difference = abs(Fraction(exact)) - abs(value)
        limit = step
        if not isinstance(exact, Fraction):
            limit += Fraction(4 * sys.float_info.epsilon * abs(decimal))
        if abs(difference) <= limit / 2 or 0 <= difference < limit:
            matches.append((abs(float(difference)), text))
    return min(matches)[1] if matches else None


def _constants_near(decimal: float) -> list[tuple[Fraction | float, str]]:
    """Exact constants near a number, named: pi and its kin first, then roots, then fractions."""
    candidates: list[tuple[Fraction | float, str]] = []
    for scale, name in _NAMED_CONSTANTS:
        multiple = Fraction(decimal / scale).limit_denominator(6)
        if multiple != 0:
            text = name if multiple == 1 else f"{multiple}·{name}"
            candidates.append((float(multiple) * scale, text))
    square = Fraction(decimal * decimal).limit_denominator(4)
    if square != 0 and not (_is_square(square.numerator) and _is_square(square.denominator)):
        sign = "-" if decimal < 0 else ""
        candidates.append((math.copysign(math.sqrt(square), decimal), f"{sign}sqrt({square})"))
    fraction = Fraction(decimal).limit_denominator(12)
    if fraction != 0:
        candidates.append((fraction, str(fraction)))
    return candidates


def _is_square(number: int) -> bool:
    return math.isqrt(number) ** 2 == number


def rounded_constants(tree: Node) -> list[tuple[str, str]]:
    """(decimal as typed, exact constant it looks like) for each rounded-looking decimal."""
    found = []
    for number in numbers_in(tree):
        if _is_decimal(number):
            exact = _looks_rounded(number)
            if exact is not None:
                found.append((_decimal_text(number), exact))
    return found


def _is_decimal(value: Fraction) -> bool:
    denominator = value.denominator
    while denominator % 10 == 0:
        denominator //= 10
    while denominator % 2 == 0:
        denominator //= 2
    while denominator % 5 == 0:
        denominator //= 5
    return denominator == 1 and value.denominator > 1


def _decimal_text(value: Fraction) -> str:
    """A terminating decimal written out exactly, as the learner typed it."""
    with decimal.localcontext() as context:
        context.prec = 2 * MAX_LITERAL_DIGITS
        return str(decimal.Decimal(value.numerator) / value.denominator)


_TINY = "very close to the answer, but not equal: they differ at 50 digits"


def diagnose(
    pairs: list[tuple[Any, Any]],
    expected_symbols: set[str],
    answer_symbols: set[str],
    rounded: Sequence[tuple[str, str]] = (),
) -> str:
    """Why an answer is wrong, computed from its values against the expected ones."""
    if rounded and pairs and _all(pairs, _nearly):
        typed, exact = rounded[0]
        return (
            f"very close, but not exactly the answer: is a constant rounded?"
            f" ({typed} looks like {exact})"
        )
    if len(pairs) >= MIN_DIAGNOSIS_POINTS:
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
        if factor is not None and factor != 0:
            if abs(factor - 1) < 1e-6:
                return _TINY
            name = describe_constant(factor) or f"about {factor:.6g}"
            return f"off by a constant factor: yours is {name} times the answer"
        if not expected_matrix:
            if _all(pairs, lambda e, a: _close(1 / e, a)):
                return "that is the reciprocal of the answer (upside down)"
            if _all(pairs, lambda e, a: _close(e * e, a)):
                return "that is the square of the answer"
            if _all(pairs, lambda e, a: _close(e, a * a)):
                return "that is the square root of the answer"
            offset = common_offset(pairs)
            if offset is not None:
                if abs(offset) < 1e-6:
                    return _TINY
                name = describe_constant(offset) or f"about {offset:.6g}"
                if name.startswith(("-", "about -")):
                    less = name.replace("-", "", 1)
                    return f"off by a constant: yours is {less} less than the answer"
                return f"off by a constant: yours is {name} more than the answer"
    missing = sorted(expected_symbols - answer_symbols)
    extra = sorted(answer_symbols - expected_symbols)
    if missing:
        return f"the answer depends on {', '.join(missing)}; yours does not"
    if extra:
        return f"yours uses {', '.join(extra)}, which the answer does not need"
    return "not equivalent to the expected answer"
