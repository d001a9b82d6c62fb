"""Saying why a wrong answer is wrong: the card's own entries first, then the
checked catalogue of :mod:`quizzer.answers.diagnosis`, the domain and the kinks.

Split out of :mod:`quizzer.answers.judge`, which decides; this module explains.
Every sentence here is a claim the comparison has checked at the sample points.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import mpmath

from quizzer.answers import diagnosis, numeric
from quizzer.answers.comparison import MIN_VALID_POINTS, Comparison, Expected, PointJudge
from quizzer.answers.syntax import Node
from quizzer.answers.tree import symbols_used
from quizzer.answers.values import OVERFLOW, UNDEFINED


class _Compiled(Protocol):
    """What explaining needs of a compiled blank."""

    @property
    def wrong(self) -> Sequence[tuple[Expected, str]]: ...

    @property
    def expected(self) -> Expected | None: ...


class WrongAnswerFeedback(PointJudge):
    """The feedback half of the card judge."""

    def _expected_sympy(self, expected: Expected) -> Any:
        raise NotImplementedError

    def _undecided(self, expected: Node, tree: Node, comparison: Comparison) -> str:
        """Why no verdict of "equal" could be reached: say so, never guess."""
        if comparison.out_of_reach > comparison.valid >= MIN_VALID_POINTS:
            return "could not decide: its values are too large to evaluate at most points"
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

    def _domain_feedback(
        self, compiled: _Compiled, tree: Node, values: list[Any], comparison: Comparison
    ) -> str:
        """Where one side is real and the other is not, said as a region when it is one."""
        for wrong, feedback in compiled.wrong:
            if self.compare(wrong, tree, values).equal:
                return feedback
        assert compiled.expected is not None
        names = sorted(symbols_used(tree) | symbols_used(compiled.expected.tree))
        gaps = [i for i in comparison.answer_gaps if i >= 0]
        others = [i for i in comparison.expected_gaps if i >= 0]
        if comparison.answer_undefined * 2 > len(values) - comparison.expected_undefined:
            undecided = self._undecided(compiled.expected.tree, tree, comparison)
            return undecided.replace(": cannot compare", "")
        region = diagnosis.domain_gap(gaps, others, self.all_points(), names)
        if region is not None:
            return region
        if not gaps and not others:  # found at a kink point only
            return "yours differs from the answer on one side of a kink (max, abs, clip...)"
        return "yours is not real at some points where the answer is, or the other way round"

    def _held_at_kinks(
        self, expected: Expected, tree: Node, ours: list[Any], theirs: list[Any], found: str
    ) -> str:
        """``found``, unless it is a relation of the values (wrong sign, a factor...)
        that fails beside a kink: the sample points may all lie on one side of it
        (abs(x - 1000) against x - 1000 is "wrong sign" only below 1000)."""
        if diagnosis.value_relations(ours, theirs) != found:
            return found  # a structural claim: true by construction
        points = self.kinks_of(expected, tree)
        if not points:
            return found
        try:
            more_ours, more_theirs = (self._values_at(t, points) for t in (expected.tree, tree))
        except numeric.NotDefined:
            return found
        if diagnosis.value_relations(ours + more_ours, theirs + more_theirs) == found:
            return found
        return "yours agrees with the answer on one side of a kink (max, abs, clip...) only"

    def _kink_feedback(self, compiled: _Compiled, tree: Node, found: Comparison) -> str:
        """The answer agrees at every sample point and differs only next to a kink of
        a max, abs, clip...: claims drawn from the sample points (a constant factor,
        "very close") would be false, so say where it differs instead."""
        expected = compiled.expected
        assert expected is not None and found.kink_point is not None
        for wrong, feedback in compiled.wrong:
            if self.compare(wrong, tree, self._values_or_none(wrong.tree) or []).equal:
                return feedback
        point = found.kink_point
        named = sorted(symbols_used(tree) | symbols_used(expected.tree))
        shown = [(n, point.floats.get(n)) for n in named]
        where = ", ".join(f"{n} = {v:.6g}" for n, v in shown if isinstance(v, float)) or "a point"
        theirs, ours = (self._precise_at(t, found.kink_point) for t in (tree, expected.tree))
        if isinstance(theirs, mpmath.mpf) and isinstance(ours, mpmath.mpf):
            return (
                f"yours differs from the answer at {where}: yours is {mpmath.nstr(theirs, 6)}, "
                f"the answer {mpmath.nstr(ours, 6)}"
            )
        return f"yours differs from the answer at {where} (one side of a max, abs, clip...)"

    def _diagnose(
        self,
        compiled: _Compiled,
        tree: Node,
        values: list[Any] | None,
        expr: Any,
        *,
        tidy: bool = True,
    ) -> str:
        """Why an answer is wrong. Without ``tidy``, no SymPy (symbols as the trees name them)."""
        if values is None:
            values = self._values_or_none(tree) or []
        for wrong, feedback in compiled.wrong:
            if self.compare(wrong, tree, values).equal:
                return feedback
        expected = compiled.expected
        assert expected is not None
        if expected.expectation is None:
            expected.expectation = diagnosis.Expectation(
                expected.tree,
                expected.values,
                integers=frozenset(n for n, d in self.domains.items() if d.integer),
                matrices=frozenset(n for n, d in self.domains.items() if d.matrix),
            )
        expectation = expected.expectation
        expectation.values = self._expected_values(expected, values)[: len(values)]
        if len(values) > len(self.points):
            values = values[: len(self.points)]
            expectation.values = expectation.values[: len(self.points)]
        found = diagnosis.diagnose(
            expectation,
            tree,
            values,
            self._values_or_none,
            expected_symbols=_symbols_of(
                expected.tree, self._expected_sympy(expected) if tidy else None
            ),
            answer_symbols=_symbols_of(tree, expr),
        )
        if found != diagnosis.GENERIC:
            return self._held_at_kinks(expected, tree, expectation.values, values, found)
        # No claim holds where both are real; where only one is, that is the news
        gaps = Comparison(False)
        for index, (e, a) in enumerate(zip(expectation.values, values, strict=False)):
            if (e is UNDEFINED) != (a is UNDEFINED) and OVERFLOW not in (e, a):
                (gaps.answer_gaps if a is UNDEFINED else gaps.expected_gaps).append(index)
                gaps.answer_undefined += a is UNDEFINED
            gaps.expected_undefined += e is UNDEFINED
        return self._domain_feedback(compiled, tree, values, gaps) if gaps.mismatched else found


def _symbols_of(tree: Node, expr: Any) -> set[str]:
    """The symbols a value depends on: after SymPy's tidying when it read the
    tree (so n^0 uses no n), else the symbols the tree names."""
    if expr is None:
        return set(symbols_used(tree))
    return {str(symbol) for symbol in expr.free_symbols}
