"""Deciding whether an answer is right, and saying why it is not.

The order of work for one answer:

1. words: the blank's ``also`` list, forgiving case, articles, punctuation
   and one typo in a longer word;
2. parse (:mod:`quizzer.answers.syntax`), with every size limit;
3. numbers: the answer and the expected answer at the same random points
   (:mod:`quizzer.answers.numeric`); answers agreeing in floating point are
   confirmed at 50 digits, so ``0.333333333333333`` is not ``1/3``;
4. the domain: a point where one side is real and the other is not counts
   against the answer ("yours is not defined for x < 0"); a point skipped for
   size or cost counts for nothing;
5. on a constant blank, a decimal that is the exact value correctly rounded
   to the digits typed is right (:func:`rounded_decimal`);
6. feedback for a wrong answer: the card's own ``wrong`` entries first,
   matched by value (so ``d_k^1`` meets the ``d_k`` entry), then the
   checked catalogue of :mod:`quizzer.answers.diagnosis`.

SymPy is used to read the answer back (``interpreted``) and as a cheap exact
check; the decision never waits on a simplifier.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

import mpmath

from quizzer.answers import diagnosis, functions, numeric
from quizzer.answers.comparison import (
    MIN_CONFIRMED,
    MIN_VALID_POINTS,
    POINTS,
    Comparison,
    Expected,
    exact_comparison,
    symbol_domains,
)
from quizzer.answers.concepts import MeaningJudge
from quizzer.answers.deadline import JUDGE_SECONDS, BudgetSpent, JudgeTimeout, budget, deadline
from quizzer.answers.explaining import WrongAnswerFeedback
from quizzer.answers.syntax import (
    AnswerError,
    Node,
    SymbolTable,
    TooLarge,
    expand_definitions,
    parse,
)
from quizzer.answers.tree import functions_used, rational_value, symbols_used
from quizzer.answers.values import MIN_DIAGNOSIS_POINTS, OVERFLOW, UNDEFINED
from quizzer.answers.verdict import Status, Verdict
from quizzer.answers.words import WordJudge, expected_kind, normalise_words
from quizzer.cards.model import Blank, Card
from quizzer.names import is_notation

#: Wall-clock share of each SymPy step (read-back, exact check) of a judgement.
SYMPY_SECONDS = 0.5
_WRONG_SIGN = "right size, wrong sign"
#: Significant digits a rounded decimal on a constant blank needs.
MIN_ROUNDED_DIGITS = 2

__all__ = [
    "MIN_CONFIRMED",
    "MIN_DIAGNOSIS_POINTS",
    "MIN_VALID_POINTS",
    "OVERFLOW",
    "UNDEFINED",
    "Comparison",
    "Status",
    "Verdict",
    "symbol_domains",
]


def unanswered(blank: str) -> Verdict:
    """The verdict for a blank with no answer."""
    return Verdict.unanswered(blank)


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


def _constant(expected: Expected | None) -> float | None:
    """The expected value when it is the same number at every point, else None."""
    values = expected.values if expected is not None else []
    first = values[0] if values else None
    if isinstance(first, float) and all(value == first for value in values):
        return first
    return None


def match_words(text: str, accepted: Sequence[str]) -> tuple[str, bool] | None:
    """The accepted phrase ``text`` matches and whether a typo was forgiven."""
    found = WordJudge(accepted).match(text)
    return None if found is None else (found.phrase, found.typo)


# -- compiled blanks ------------------------------------------------------------


_PHRASE = re.compile(r"^[\w][\w\s'’-]*$")


def is_phrase(text: str) -> bool:
    """Plain words (``layer norm``, ``Adam``), as opposed to a formula."""
    return bool(_PHRASE.match(text.strip())) and not text.strip().isdigit()


@dataclass
class _CompiledBlank:
    name: str
    blank: Blank
    expected: Expected | None
    problem: str | None  # why the expected answer itself could not be read
    wrong: list[tuple[Expected, str]] = field(default_factory=list)
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
        return MeaningJudge(self.accepted_words, wrong, self.synonyms, self.blank.concepts)


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


class CardJudge(WrongAnswerFeedback):
    """Judges answers to one card's blanks. Build once per card; judge many times.

    ``seed`` fixes the random points, so a judgement is reproducible.
    """

    def __init__(self, card: Card, *, seed: int = 0, points: int = POINTS) -> None:
        super().__init__(symbol_domains(card), seed=seed, points=points)
        self.card = card
        self.table = symbol_table(card)
        self._blanks: dict[str, _CompiledBlank] = {}

    # compiled lazily: a session judges one blank at a time
    def compiled(self, name: str) -> _CompiledBlank:
        if name not in self._blanks:
            blank = self.card.blanks[name]
            try:
                expected: Expected | None = self._expected(blank.answer)
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

    def _expected(self, text: str) -> Expected:
        tree = parse(text, self.table)
        return Expected(tree, self.values_of(tree))

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
            return Verdict.unanswered(name, text)
        compiled = self.compiled(name)
        matched = compiled.words.match(given)
        if matched is not None:
            note = f"accepted — spelled '{matched.phrase}'" if matched.typo else None
            phrase = matched.phrase
            return Verdict(
                blank=name,
                given=text,
                correct=True,
                status="correct",
                interpreted=phrase,
                pretty=phrase,
                feedback=note,
                decided_by="words",
            )
        if compiled.is_word_blank:
            return self._word_miss(compiled, text)
        # A number with a unit is judged by value, sign and unit kept (issue 22 item 1).
        number = compiled.words.in_answer_unit(given, _constant(compiled.expected))
        if number is not None:
            found = replace(self.judge(name, number, read_back=read_back), given=text)
            in_unit = None if found.correct else self._rounded_in_unit(compiled, given)
            return found if in_unit is None else replace(found, **in_unit)
        try:
            # not stripped: columns count in what was typed
            written = parse(text, self.table, expand=False)
            tree = expand_definitions(written, self.table)  # p -> sigmoid(z)
            interpreted, pretty, expr = self._read_back(tree) if read_back else (None, None, None)
            if read_back and written is not tree:  # show p - y as typed, not written out
                interpreted, pretty, _ = self._read_back(written)
        except TooLarge as error:
            return Verdict.too_large(name, text, error.message)
        except AnswerError as error:
            return Verdict(
                blank=name,
                given=text,
                correct=False,
                status="unreadable",
                feedback=error.message,
                decided_by="parser",
                column=error.column,
            )

        def verdict(correct: bool, feedback: str | None, decided_by: str) -> Verdict:
            return Verdict(
                blank=name,
                given=text,
                correct=correct,
                status="correct" if correct else "wrong",
                interpreted=interpreted,
                pretty=pretty,
                feedback=feedback,
                decided_by=decided_by,
            )

        if compiled.expected is None:
            return verdict(
                False, f"this blank's own answer cannot be judged: {compiled.problem}", "card"
            )
        forbidden = forbidden_in(written, compiled.blank, self.table)
        if forbidden:
            named = ", ".join(forbidden)
            return verdict(
                False, f"uses {named}, which this blank forbids: write it in other terms", "forbid"
            )
        rounded = self._rounded_decimal(compiled, tree, given)
        if rounded is not None:
            return verdict(rounded != _WRONG_SIGN, rounded, "rounded")
        exact = exact_comparison(compiled.expected.tree, tree)
        if exact is not None:
            return verdict(
                exact, None if exact else self._diagnose(compiled, tree, None, expr), "exact"
            )
        try:
            values = self.values_of(tree)
            comparison = self.compare(compiled.expected, tree, values)
            if comparison.equal is None and comparison.valid < MIN_VALID_POINTS:
                values = self.values_of(tree, more=True)
                comparison = self.compare(compiled.expected, tree, values)
            if comparison.equal:
                comparison = self._compare_at_kinks(compiled.expected, tree, comparison)
        except numeric.NotDefined as error:
            return verdict(
                False, self._same_as_a_wrong_entry(compiled.blank, tree) or str(error), "numeric"
            )
        if comparison.equal is None and expr is None and not read_back:
            expr = self._sympy(tree)  # only a proof can decide now: load SymPy after all
        if comparison.equal:
            proved = read_back and self._proved_equal(expr, compiled.expected)
            return verdict(True, None, "symbolic" if proved else "numeric")
        if comparison.mismatched:
            return verdict(
                False, self._domain_feedback(compiled, tree, values, comparison), "domain"
            )
        if comparison.equal is None and self._proved_equal(expr, compiled.expected):
            # Symbolic proof may confirm what the points could not decide; it
            # never overrules a disagreement.
            return verdict(True, None, "symbolic")
        if comparison.equal is None:
            return verdict(
                False, self._undecided(compiled.expected.tree, tree, comparison), "numeric"
            )
        if comparison.kink_point is not None:
            return verdict(False, self._kink_feedback(compiled, tree, comparison), "numeric")
        return verdict(
            False, self._diagnose(compiled, tree, values, expr, tidy=read_back), "numeric"
        )

    def _rounded_decimal(self, compiled: _CompiledBlank, tree: Node, given: str) -> str | None:
        """On a constant blank, the note for a decimal that is the exact value correctly
        rounded to the digits typed (``0.64`` for log(4) - 3/4); None otherwise."""
        expected = compiled.expected
        if expected is None or compiled.blank.exact or symbols_used(expected.tree):
            return None
        typed = rational_value(tree)
        written = _DECIMAL_TYPED.match(given)
        if typed is None or not written:
            return None
        places = len(written.group(1).partition(".")[2])  # as typed: 3.14159265358980 has 14
        if not places or diagnosis.significant_digits(typed, places) < MIN_ROUNDED_DIGITS:
            return None
        point = self.points[0]
        value = self._precise_at(expected.tree, point)
        if value is None or value is UNDEFINED or numeric.is_matrix(value):
            return None
        if rational_value(expected.tree) == typed:
            return None
        if diagnosis.rounds_to(-value, typed, places):
            return _WRONG_SIGN
        if not diagnosis.rounds_to(value, typed, places):
            return None
        with mpmath.workdps(numeric.MP_DIGITS):
            shown = mpmath.nstr(value, max(places + 2, 4), strip_zeros=False)
        return f"exactly {compiled.blank.answer.strip()} = {shown}…"

    def _rounded_in_unit(self, compiled: _CompiledBlank, given: str) -> dict[str, Any] | None:
        """A decimal typed in another unit than the answer's that is the exact value,
        in that unit, correctly rounded to the digits typed (``2.15 GB`` for 2 GiB,
        which is 2.147… GB): the fields that make the verdict right."""
        expected = compiled.expected
        factor = compiled.words.unit_factor(given, _constant(expected))
        typed = _DECIMAL_IN_QUANTITY.search(given)
        if expected is None or compiled.blank.exact or factor in (None, 1) or not typed:
            return None
        assert factor is not None
        places = len(typed.group(1).partition(".")[2])
        value = self._precise_at(expected.tree, self.points[0])
        number = Fraction(typed.group(0).replace("\u2212", "-").replace(" ", ""))
        if not places or value in (None, UNDEFINED) or numeric.is_matrix(value):
            return None
        if diagnosis.significant_digits(number, places) < MIN_ROUNDED_DIGITS:
            return None
        with mpmath.workdps(numeric.MP_DIGITS):
            in_unit = mpmath.mpf(value) / mpmath.mpf(factor.numerator) * factor.denominator
            if not diagnosis.rounds_to(in_unit, number, places):
                return None
            shown = mpmath.nstr(in_unit, max(places + 2, 4), strip_zeros=False)
        unit = given[typed.end() :].strip()
        return {
            "correct": True,
            "status": "correct",
            "feedback": f"exactly {shown}… {unit}",
            "decided_by": "rounded",
        }

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

    def _proved_equal(self, expr: Any, expected: Expected) -> bool:
        from quizzer.answers import symbolic

        expected_expr = self._expected_sympy(expected)
        if expected_expr is None or expr is None:
            return False
        try:
            with budget(SYMPY_SECONDS):
                return bool(symbolic.same_after_normalising(expr, expected_expr))
        except BudgetSpent:
            return False

    def _expected_sympy(self, expected: Expected) -> Any:
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
            blank=compiled.name,
            given=text,
            correct=False,
            status="wrong",
            feedback=feedback,
            decided_by="words",
            accepted=accepted,
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


#: The decimal in a quantity as typed (``2.15`` in ``about 2.15 GB``).
_DECIMAL_IN_QUANTITY = re.compile(r"[+\-−]?\s*(\d+\.\d*|\.\d+)")
#: A decimal as typed: digits with a point, an optional sign, nothing else.
_DECIMAL_TYPED = re.compile(r"^[+\-−]?\s*(\d+\.\d*|\.\d+)$")


def judge_in_this_thread(
    judge: CardJudge,
    blank: str,
    text: str,
    seconds: float = JUDGE_SECONDS,
    *,
    read_back: bool = True,
) -> Verdict:
    """``judge.judge(blank, text)`` under :func:`deadline`, limits turned into verdicts."""
    if read_back:
        # Loading SymPy is no part of judging an answer: it must not use up
        # the answer's time (or be cut short half-way by its budget).
        from quizzer.answers import symbolic

        symbolic.warm()
    try:
        with deadline(seconds):
            return judge.judge(blank, text, read_back=read_back)
    except JudgeTimeout:
        return Verdict.too_large(blank, text, "took too long to judge")
    except (RecursionError, MemoryError):
        return Verdict.too_large(blank, text, "answer too complex to judge")


def free_symbols(tree: Node) -> set[str]:
    """The symbols a tree names."""
    return set(symbols_used(tree))
