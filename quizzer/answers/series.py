"""Sums and products at a sample point: term by term, at a bounded cost.

``\\sum_{i=0}^{n} a_i`` is added up term by term once ``n`` has a value. The
number of terms every series of one evaluation may take together is limited
(:data:`~quizzer.answers.limits.MAX_SERIES_TERMS`), so nested or long sums
are refused as too costly to evaluate rather than run for seconds. A sum to
infinity is evaluated only where its terms shrink fast enough for it to
converge (a ratio below 1, or a power of the index below -1); elsewhere the
point has no value.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from quizzer.answers.limits import MAX_SERIES_TERMS
from quizzer.answers.reading import Binary, Node, Num, Series, free_symbols

#: Where the convergence of a series to infinity is looked at (past its first index).
_PROBES = (64, 65, 256, 257, 1024)

Value = Any


def _terms_left(evaluator: Any, wanted: int) -> None:
    used = getattr(evaluator, "series_terms", 0) + wanted
    if used > MAX_SERIES_TERMS:
        raise evaluator.too_costly("sum or product too long to evaluate")
    evaluator.series_terms = used


def _whole(evaluator: Any, value: Value) -> int:
    if isinstance(value, np.ndarray) or not evaluator.is_whole(value):
        raise evaluator.undefined("the bounds of a sum or product are whole numbers")
    return int(value)


#: Values of series without free symbols (Σ 1/k², the same at every sample point).
_CONSTANT_VALUES: dict[tuple[Series, str, int], Value] = {}


def evaluate_series(
    evaluator: Any, node: Series, low: Value, high: Value | None, term: Callable[[Node], Value]
) -> Value:
    """The value of a sum or product in ``evaluator``'s arithmetic (a numeric fold).

    The evaluator names the errors to raise: ``undefined`` where the series has
    no value, ``too_costly`` past the term budget.
    """
    if free_symbols(node):
        return _evaluate(evaluator, node, low, high, term)
    key = (node, type(evaluator).__name__, mpmath.mp.dps)
    if key not in _CONSTANT_VALUES:
        if len(_CONSTANT_VALUES) > 256:
            _CONSTANT_VALUES.clear()
        _CONSTANT_VALUES[key] = _evaluate(evaluator, node, low, high, term)
    return _CONSTANT_VALUES[key]


def _evaluate(
    evaluator: Any, node: Series, low: Value, high: Value | None, term: Callable[[Node], Value]
) -> Value:
    start = _whole(evaluator, low)
    if high is None:
        return _infinite_sum(evaluator, start, term)
    stop = _whole(evaluator, high)
    _terms_left(evaluator, max(stop - start + 1, 0))
    op = Binary("+" if node.kind == "sum" else "*", node.body, node.body)
    total = evaluator.number(Fraction(0 if node.kind == "sum" else 1))
    for index in range(start, stop + 1):
        total = evaluator.binary(op, total, term(Num(Fraction(index))))
    return total


def _infinite_sum(evaluator: Any, start: int, term: Callable[[Node], Value]) -> Value:
    def at(index: int) -> Value:
        _terms_left(evaluator, 1)
        value = term(Num(Fraction(start + index)))
        if isinstance(value, np.ndarray):
            raise evaluator.undefined("a sum to infinity of matrices is not evaluated")
        return value

    near, after, far, after_far, farthest = (abs(at(index)) for index in _PROBES)
    if far == after_far == farthest == 0:
        return _partial_sum(evaluator, at, _PROBES[-1])  # the terms stop
    if near == 0 or far == 0:
        raise evaluator.undefined("the series does not converge here")
    near_ratio, far_ratio = after / near, after_far / far
    # A geometric series keeps its ratio; a power k^-p has a ratio creeping up to 1.
    if far_ratio < 1 and (1 - far_ratio) > (1 - near_ratio) / 2:
        return _geometric_tail(evaluator, at)
    if math.log(float(far / farthest)) / math.log(4) > 1.05:
        # |a_k| ~ k^-p with p > 1 converges, too slowly to add up: extrapolate.
        with mpmath.workdps(max(mpmath.mp.dps, 20)):
            total = mpmath.nsum(lambda k: mpmath.mpf(at(int(k))), [0, mpmath.inf], method="r")
        return evaluator.checked(_as_arithmetic(evaluator, total))
    raise evaluator.undefined("the series does not converge here")


def _partial_sum(evaluator: Any, at: Callable[[int], Value], count: int) -> Value:
    total = evaluator.number(Fraction(0))
    for index in range(count):
        total = total + at(index)
    return evaluator.checked(total)


def _geometric_tail(evaluator: Any, at: Callable[[int], Value]) -> Value:
    """Terms added until the rest, taken as geometric with the last ratio, is settled."""
    precise = isinstance(evaluator.number(Fraction(1)), mpmath.mpf)
    tolerance = mpmath.mpf(10) ** (5 - mpmath.mp.dps) if precise else 1e-14
    terms: list[Value] = []
    total = evaluator.number(Fraction(0))
    estimate = None
    count = 16
    while True:
        for index in range(len(terms), count):
            terms.append(at(index))
            total = total + terms[-1]
        last, before = terms[-1], terms[-2]
        ratio = last / before if before else 0
        if abs(ratio) >= 1:
            raise evaluator.undefined("the series does not converge here")
        better = total + last * ratio / (1 - ratio)
        if estimate is not None and abs(better - estimate) <= tolerance * max(abs(better), 1e-300):
            return evaluator.checked(better)
        estimate = better
        count *= 2


def _as_arithmetic(evaluator: Any, value: Any) -> Value:
    """``value`` (an mpmath number) in the evaluator's own number type."""
    sample = evaluator.number(Fraction(1))
    return value if isinstance(sample, mpmath.mpf) else float(value)
