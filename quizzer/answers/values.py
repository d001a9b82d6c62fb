"""An expression's float values at the sample points, and relations between two lists of them.

A value is a float or a float matrix, or a mark saying why there is none:
:data:`UNDEFINED` (not real there) or :data:`OVERFLOW` (floats could not
hold it; 50 digits may). Relations between value lists are what the
diagnosis of a wrong answer rests on: a relation holds only when it holds at
every point where both sides are real, and both sides are real at the same
points.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from quizzer.answers import numeric

#: Points with float values on both sides that a computed diagnosis needs.
MIN_DIAGNOSIS_POINTS = 3


class Mark:
    """Why a point has no float value: it is not real there, or floats overflow."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


UNDEFINED = Mark("UNDEFINED")
OVERFLOW = Mark("OVERFLOW")


def real_pairs(expected: list[Any], answer: list[Any]) -> list[tuple[Any, Any]] | None:
    """(expected, answer) at every point where both are real; None when one side is
    real at a point where the other is not (then no relation between them holds)."""
    pairs = []
    for e, a in zip(expected, answer, strict=False):
        if e is OVERFLOW and a is OVERFLOW:
            continue  # both past floats: this point neither supports nor refutes
        if e is OVERFLOW or a is OVERFLOW:
            return None  # past floats on one side only: no relation can be checked here
        if (e is UNDEFINED) != (a is UNDEFINED):
            return None
        if e is not UNDEFINED:
            pairs.append((e, a))
    return pairs


def holds_everywhere(
    expected: list[Any], answer: list[Any], relation: Callable[[Any, Any], bool]
) -> bool:
    """``relation(e, a)`` at every point where both are real, with enough such points."""
    pairs = real_pairs(expected, answer)
    if pairs is None or len(pairs) < MIN_DIAGNOSIS_POINTS:
        return False
    with np.errstate(all="ignore"):
        try:
            return all(relation(e, a) for e, a in pairs)
        except (ZeroDivisionError, OverflowError, ValueError, TypeError, FloatingPointError):
            return False


def close(a: Any, b: Any, rtol: float = 1e-9) -> bool:
    """Equal within a relative tolerance only: 1e-9 is not "close" to 0 (a claim about
    values must not rest on an absolute slack)."""
    if numeric.is_matrix(a) != numeric.is_matrix(b):
        return False
    a_array, b_array = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a_array.shape != b_array.shape:
        return False
    scale = max(float(np.linalg.norm(a_array)), float(np.linalg.norm(b_array)))
    return float(np.linalg.norm(a_array - b_array)) <= rtol * scale


def same_values(expected: list[Any], answer: list[Any]) -> bool:
    """Equal in floats at every point where both are real, undefined at the same points."""
    return holds_everywhere(expected, answer, close)
