"""Two expressions compared at the card's sample points: the decision of "equal".

Inside the declared symbol domains, two expressions are equal when at every
sample point both are real and agree, or both are not real. A point where
one is real and the other is not counts against the answer; a point out of
reach of 50 digits (too costly) counts for nothing, and when such points are
most of them no verdict of "equal" is given. Agreement in floats is
confirmed at 50 digits and rechecked at 100 (relative, never absolute:
rounding noise shrinks with the digits, a real difference does not);
constant trees of rationals compare exactly. Piecewise answers are compared
again on both sides of their kinks (:mod:`quizzer.answers.kinks`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np

from quizzer.answers import diagnosis, kinks, numeric
from quizzer.answers.syntax import Node
from quizzer.answers.tree import rational_value, symbols_used
from quizzer.answers.values import OVERFLOW, UNDEFINED, Mark
from quizzer.cards.model import Card

POINTS = 12
#: Points where both sides are real that an "equal" verdict needs at least.
MIN_VALID_POINTS = 4
#: Of those, points that must be confirmed at 50 digits: a fixed minimum, never zero.
MIN_CONFIRMED = 4
#: 100-digit rechecks of a 50-digit agreement per comparison (values near zero
#: that only agree once rechecked are rechecked at every point).
MAX_RECHECKS = 1
#: Points drawn only when the first ones leave too few where both sides are real.
MORE_POINTS = 36


@dataclass
class Expected:
    """An expression with its float values at the card's sample points."""

    tree: Node
    values: list[Any]  # one per point: a value, UNDEFINED or OVERFLOW
    #: 50-digit values, computed when first needed: point index -> value or None.
    precise: dict[int, Any] = field(default_factory=dict)
    #: Its SymPy form (None where SymPy could not build it in time), once tried.
    sympy_form: Any = None
    sympy_tried: bool = False
    #: Points either side of its kinks, once found.
    kinks: list[numeric.Point] | None = None
    #: What the diagnosis needs of it (its mutants' values), once a wrong answer asks.
    expectation: diagnosis.Expectation | None = None


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
    #: Points where the expected value is real and the answer's is not (confirmed
    #: at 50 digits), and the other way round.
    answer_gaps: list[int] = field(default_factory=list)
    expected_gaps: list[int] = field(default_factory=list)
    #: Where they differ, when only next to a kink (the sample points all agree):
    #: no claim drawn from the sample points may be said then.
    kink_point: numeric.Point | None = None

    @property
    def mismatched(self) -> bool:
        """One side is real where the other is not: the answer is not the same function."""
        return bool(self.answer_gaps or self.expected_gaps)


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


class PointJudge:
    """Sample points for a card's symbols, and the comparison of two trees at them.

    ``seed`` fixes the random points, so a judgement is reproducible.
    """

    def __init__(
        self, domains: Mapping[str, numeric.Domain], *, seed: int = 0, points: int = POINTS
    ) -> None:
        self.seed = seed
        self.domains = dict(domains)
        rng = np.random.default_rng(seed)
        self.points = numeric.sample_points(self.domains, rng, points)
        self.points += numeric.special_points(self.domains, rng)
        self._more_points: list[numeric.Point] | None = None
        #: 100-digit rechecks of an agreement made in the comparison under way.
        self._rechecks = 0

    def all_points(self) -> list[numeric.Point]:
        """The sample points and :data:`MORE_POINTS` more, drawn from the seed alone.

        The extra points are used only when the first ones leave too few
        where both sides are real (``log((1+x)/(1-x))`` is real for |x| < 1
        only), so a verdict never depends on what was judged before it.
        """
        if self._more_points is None:
            rng = np.random.default_rng([self.seed, 1])
            self._more_points = numeric.sample_points(self.domains, rng, MORE_POINTS)
        return self.points + self._more_points

    def values_of(self, tree: Node, *, more: bool = False) -> list[Any]:
        """Float values at every point (UNDEFINED or OVERFLOW where there is none).

        Raises :class:`numeric.NotDefined` when the tree means nothing for
        its kinds of values (division by a matrix).
        """
        return self._values_at(tree, self.all_points() if more else self.points)

    def _values_at(self, tree: Node, points: Sequence[numeric.Point]) -> list[Any]:
        values: list[Any] = []
        for point in points:
            try:
                values.append(numeric.evaluate(tree, point))
            except numeric.Overflow:
                values.append(OVERFLOW)
            except numeric.Undefined:
                values.append(UNDEFINED)
        return values

    def _values_or_none(self, tree: Node) -> list[Any] | None:
        try:
            return self.values_of(tree)
        except numeric.NotDefined:
            return None

    @staticmethod
    def _precise_at(tree: Node, point: numeric.Point, digits: int = numeric.MP_DIGITS) -> Any:
        """The precise value at ``point``: a value, UNDEFINED where it is not real,
        or None where it is out of reach (too costly, or meaningless)."""
        try:
            return numeric.evaluate(tree, point, precise=True, digits=digits)
        except (numeric.TooCostly, numeric.Overflow, numeric.NotDefined):
            return None
        except numeric.Undefined:
            return UNDEFINED

    def compare(self, expected: Expected, tree: Node, values: list[Any]) -> Comparison:
        """Compare an answer's values with the expected ones, point by point.

        A point where both sides are real is compared; one where exactly one
        side is real (confirmed at 50 digits) counts against the answer; one
        out of reach of 50 digits counts for nothing. Floats that disagree, or
        that overflowed, are compared again at 50 digits before anything is
        decided; agreement in floats is confirmed at 50 digits at
        :data:`MIN_CONFIRMED` points at least.
        """
        points = self.all_points()
        self._rechecks = 0
        result = Comparison(None)
        agreeing_in_floats = []
        for index, (e, a) in enumerate(
            zip(self._expected_values(expected, values), values, strict=False)
        ):
            if e is UNDEFINED and a is UNDEFINED:
                result.expected_undefined += 1
                continue
            floats_agree = (
                not isinstance(e, Mark) and not isinstance(a, Mark) and numeric.values_agree(e, a)
            )
            if floats_agree:
                agreeing_in_floats.append(index)
                continue
            verdict = self._agree_precisely(expected, tree, points[index], index)
            if verdict == "mismatch":
                if numeric.has_zero(points[index]):
                    continue  # a gap at zero alone may be removable (x/x): it decides nothing
                gaps = result.answer_gaps if a is UNDEFINED else result.expected_gaps
                gaps.append(index)
                result.answer_undefined += a is UNDEFINED
                result.expected_undefined += e is UNDEFINED
                continue
            if verdict is None:
                result.out_of_reach += 1
                continue
            if not verdict:
                return Comparison(False, result.valid, result.confirmed)
            result.valid += 1
            result.confirmed += 1
        if result.mismatched:
            result.equal = False
            return result
        result.valid += len(agreeing_in_floats)
        # a point skipped for size never counts as agreement: with most points out
        # of reach, the few left cannot vouch for the answer
        if result.valid < MIN_VALID_POINTS or result.out_of_reach > result.valid:
            return result
        for index in _spread_out(agreeing_in_floats):
            if result.confirmed >= MIN_CONFIRMED:
                break
            verdict = self._agree_precisely(expected, tree, points[index], index)
            if verdict is False:
                return Comparison(False, result.valid, result.confirmed)
            result.confirmed += verdict is True
        result.equal = True if result.confirmed >= MIN_CONFIRMED else None
        return result

    def kinks_of(self, expected: Expected, tree: Node) -> list[numeric.Point]:
        """Points either side of the kinks of the expected answer and of ``tree``."""
        if expected.kinks is None:
            expected.kinks = kinks.kink_points([expected.tree], self.points, self.domains)
        return expected.kinks + kinks.kink_points(
            [tree], self.points, self.domains, known=expected.tree
        )

    def _compare_at_kinks(self, expected: Expected, tree: Node, found: Comparison) -> Comparison:
        """``found``, unless the two differ on either side of a kink (``max(0, r - 5000)``).

        The expected answer's kinks are found once per blank; an answer's are
        looked for only in calls the expected answer does not make. Floats
        first, 50 digits only where they disagree, as at the sample points.
        """
        points = self.kinks_of(expected, tree)
        if not points:
            return found
        try:
            expected_values = self._values_at(expected.tree, points)
            values = self._values_at(tree, points)
        except numeric.NotDefined:
            return found
        for point, e, a in zip(points, expected_values, values, strict=True):
            if e is UNDEFINED and a is UNDEFINED:
                continue
            if not isinstance(e, Mark) and not isinstance(a, Mark) and numeric.values_agree(e, a):
                continue
            verdict = self._agree_precisely(None, tree, point, None, expected_tree=expected.tree)
            if verdict == "mismatch" and not numeric.has_zero(point):
                return Comparison(False, found.valid, found.confirmed, answer_gaps=[-1])
            if verdict is False:
                return Comparison(False, found.valid, found.confirmed, kink_point=point)
        return found

    def _expected_values(self, expected: Expected, values: list[Any]) -> list[Any]:
        """The expected values at as many points as ``values`` has."""
        if len(expected.values) < len(values):
            try:
                expected.values = self.values_of(expected.tree, more=True)
            except numeric.NotDefined:  # only at the extra points: they do not count
                expected.values += [UNDEFINED] * (len(values) - len(expected.values))
        return expected.values

    def _agree_precisely(
        self,
        expected: Expected | None,
        tree: Node,
        point: numeric.Point,
        index: int | None,
        *,
        expected_tree: Node | None = None,
    ) -> bool | str | None:
        """At one point: True or False (agree or not at 50 digits, rechecked at 100),
        "mismatch" (one side real, the other not), None (out of reach)."""
        if expected is not None and index is not None:
            if index not in expected.precise:
                expected.precise[index] = self._precise_at(expected.tree, point)
            precise_expected = expected.precise[index]
            expected_tree = expected.tree
        else:
            assert expected_tree is not None
            precise_expected = self._precise_at(expected_tree, point)
        if precise_expected is None:
            return None
        precise_answer = self._precise_at(tree, point)
        if precise_answer is None:
            return None
        if (precise_expected is UNDEFINED) or (precise_answer is UNDEFINED):
            return True if precise_expected is precise_answer else "mismatch"
        agreed = numeric.values_agree(precise_expected, precise_answer, precise=True)
        if not agreed and (
            numeric.is_matrix(precise_expected) or numeric.is_matrix(precise_answer)
        ):
            return False
        # Agreement or disagreement alike: decide at more digits. Rounding noise shrinks
        # with the digits (log(1 - sigmoid(s)) at s = 95 keeps 8 of 50); a real
        # difference (1e-50, 44 nines) stays.
        with mpmath.workdps(numeric.RECHECK_DIGITS):
            first = numeric.precise_difference(precise_expected, precise_answer)
            if first == 0:
                return True
            if agreed and self._rechecks >= MAX_RECHECKS:
                return True  # a difference below 50 digits shows at the first points already
            self._rechecks += agreed
            again_expected = self._precise_at(expected_tree, point, numeric.RECHECK_DIGITS)
            again_answer = self._precise_at(tree, point, numeric.RECHECK_DIGITS)
            if again_expected is None or again_answer is None:
                return None
            if again_expected is UNDEFINED or again_answer is UNDEFINED:
                return None
            second = numeric.precise_difference(again_expected, again_answer)
            if second <= first * _NOISE_SHRINKS:
                return True
            if numeric.largest(again_expected) < _TINY and numeric.largest(again_answer) < _TINY:
                # both far below 1: a cancellation past 100 digits (1 - tanh(500)^2 is
                # 1e-434) looks the same as a real difference; this point cannot tell
                return None
            return False


#: Values this small may be what is left of a cancellation of numbers near 1.
_TINY = mpmath.mpf(10) ** -40
#: How much rounding noise shrinks from 50 to 100 digits, at least.
_NOISE_SHRINKS = mpmath.mpf(10) ** -25


def exact_comparison(expected: Node, tree: Node) -> bool | None:
    """For two constant trees of rationals, whether they are exactly equal; None otherwise."""
    if symbols_used(expected) or symbols_used(tree):
        return None
    left, right = rational_value(expected), rational_value(tree)
    if left is None or right is None:
        return None
    return left == right


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
