"""Evaluating an answer tree at a point, in floating point or at high precision.

Numeric agreement at random points is how WeBWorK, Numbas and KAS decide
equivalence: it is fast, it never hangs, and it sees identities no simplifier
can prove. Scalars are complex, so ``log`` and roots of negative numbers give
values instead of failing. Matrix symbols are random square matrices, so
``Q Kᵀ`` and ``K Qᵀ`` differ. When floating point overflows (``(x - a)^6000``)
the same point is evaluated again with mpmath, whose exponents do not overflow.
"""

from __future__ import annotations

import cmath
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

from quizzer.answers.syntax import Binary, Call, Const, Neg, Node, Num, Sym, SymbolTable, Transpose

MATRIX_SIZE = 3
FLOAT_RTOL = 1e-9
MP_DIGITS = 50
MP_RTOL = mpmath.mpf(10) ** -40
#: Beyond these magnitudes mpmath would need millions of digits (exp(exp(1e10)),
#: 10^(10^20)): such points are skipped rather than computed.
MP_ARGUMENT_LIMIT = 1e6
MP_LOG_MAGNITUDE_LIMIT = 1e7


class Undefined(Exception):
    """The expression has no value at this point (a pole, a log of zero, ...)."""


class Overflow(Exception):
    """Floating point could not hold the value; try again with mpmath."""


class NotDefined(Exception):
    """The expression means nothing for these kinds of values (a matrix square root...)."""


Value = Any  # complex, mpmath.mpc or a numpy matrix


@dataclass(frozen=True)
class Point:
    """Values for every symbol of a card, both as floats and at high precision."""

    floats: Mapping[str, Value]
    exact: Mapping[str, Value]


def sample_points(table: SymbolTable, rng: np.random.Generator, count: int) -> list[Point]:
    """Random points respecting each symbol's assumptions.

    Integers and non-integers alternate (as KAS does), and real symbols take
    both signs, so ``sqrt(x^2)`` is told apart from ``x``.
    """
    points = []
    for trial in range(count):
        floats: dict[str, Value] = {}
        exact: dict[str, Value] = {}
        for name in table.names:
            if name in table.matrices:
                matrix = rng.standard_normal((MATRIX_SIZE, MATRIX_SIZE)).astype(complex)
                floats[name] = exact[name] = matrix
                continue
            if name in table.positives:
                value = (
                    float(rng.integers(1, 20)) if trial % 2 == 0 else math.exp(rng.uniform(-3, 4))
                )
            elif trial % 2 == 0:
                value = float(rng.integers(1, 10)) * (1 if rng.random() < 0.5 else -1)
            else:
                value = float(rng.uniform(-5, 5))
            floats[name] = complex(value)
            exact[name] = mpmath.mpc(value)
        points.append(Point(floats, exact))
    return points


def is_matrix(value: Value) -> bool:
    return isinstance(value, np.ndarray)


class _Evaluator:
    """Walks a tree with one arithmetic: Python complex + numpy, or mpmath."""

    def __init__(self, values: Mapping[str, Value], precise: bool) -> None:
        self.values = values
        self.precise = precise

    def run(self, node: Node) -> Value:
        try:
            result = self.node(node)
        except (ZeroDivisionError, ValueError) as error:
            raise Undefined(str(error)) from None
        except OverflowError:
            raise Overflow() from None
        except MemoryError:
            raise Undefined("too large to evaluate") from None
        except np.linalg.LinAlgError:
            raise Undefined("singular matrix") from None
        if not self.precise:
            finite = np.all(np.isfinite(result)) if is_matrix(result) else cmath.isfinite(result)
            if not finite:
                raise Overflow()
        return result

    def node(self, node: Node) -> Value:
        if isinstance(node, Num):
            if self.precise:
                return mpmath.mpf(node.value.numerator) / node.value.denominator
            return complex(node.value.numerator / node.value.denominator)
        if isinstance(node, Sym):
            return self.values[node.name]
        if isinstance(node, Const):
            if self.precise:
                return +mpmath.pi if node.name == "pi" else +mpmath.e
            return complex(math.pi if node.name == "pi" else math.e)
        if isinstance(node, Neg):
            return -self.node(node.operand)
        if isinstance(node, Transpose):
            value = self.node(node.operand)
            return value.T if is_matrix(value) else value
        if isinstance(node, Binary):
            return self.binary(node.op, self.node(node.left), self.node(node.right))
        if isinstance(node, Call):
            return self.call(node.function, [self.node(arg) for arg in node.args])
        raise TypeError(node)  # pragma: no cover

    def binary(self, op: str, left: Value, right: Value) -> Value:
        if (is_matrix(left) or is_matrix(right)) and self.precise:
            raise Overflow()  # matrices are only evaluated in floating point
        if op == "+":
            return left + right
        if op == "-":
            return left - right
        if op == "*":
            return left @ right if is_matrix(left) and is_matrix(right) else left * right
        if op == "/":
            if is_matrix(right):
                raise NotDefined("cannot divide by a matrix")
            if right == 0:
                raise ZeroDivisionError("division by zero")
            return left / right
        return self.power(left, right)

    def power(self, base: Value, exponent: Value) -> Value:
        if is_matrix(exponent):
            raise NotDefined("cannot raise to a matrix power")
        if is_matrix(base):
            whole = complex(exponent)
            if whole.imag != 0 or whole.real != round(whole.real):
                raise NotDefined("a matrix can only be raised to a whole power")
            return np.linalg.matrix_power(base, int(whole.real))
        if base == 0 and (exponent.real < 0 if not self.precise else mpmath.re(exponent) < 0):
            raise ZeroDivisionError("zero to a negative power")
        if self.precise:
            size = abs(exponent) * abs(mpmath.log(abs(base))) if base != 0 else 0
            if size > MP_LOG_MAGNITUDE_LIMIT:
                raise Undefined("too large to evaluate")
            return mpmath.power(base, exponent)
        return base**exponent

    def call(self, function: str, args: list[Value]) -> Value:
        if function == "softmax":
            return self.softmax(args[0])
        if function in ("max", "min"):
            return self.extreme(function, args)
        (value,) = args[:1]
        if function == "log" and len(args) == 2:
            return self.unary("log", value) / self.unary("log", args[1])
        if is_matrix(value):
            if self.precise:
                raise Overflow()
            if function not in _ELEMENTWISE:
                raise NotDefined(f"{function} of a matrix is not defined here")
            with np.errstate(all="ignore"):
                return _ELEMENTWISE[function](value)
        return self.unary(function, value)

    def unary(self, function: str, value: Value) -> Value:
        if function == "log" and value == 0:
            raise ZeroDivisionError("log of zero")
        # exp, trigonometric reduction and gamma of huge arguments cost digits in
        # proportion to the argument's size; log, sqrt and abs do not.
        cheap = function in ("log", "sqrt", "abs")
        if self.precise and not cheap and abs(value) > MP_ARGUMENT_LIMIT:
            raise Undefined("too large to evaluate")
        if function == "factorial":
            result = (
                mpmath.gamma(value + 1) if self.precise else mpmath.gamma(mpmath.mpc(value) + 1)
            )
            return result if self.precise else complex(result)
        table = _MPMATH if self.precise else _CMATH
        return table[function](value)

    def softmax(self, value: Value) -> Value:
        if not is_matrix(value):
            return mpmath.mpf(1) if self.precise else complex(1)
        shifted = value - value.real.max(axis=1, keepdims=True)
        weights = np.exp(shifted)
        return weights / weights.sum(axis=1, keepdims=True)

    def extreme(self, function: str, args: list[Value]) -> Value:
        if any(is_matrix(a) for a in args):
            if self.precise:
                raise Overflow()
            pick = np.maximum if function == "max" else np.minimum
            result = np.real(args[0])
            for arg in args[1:]:
                result = pick(result, np.real(arg))
            return np.asarray(result).astype(complex)
        reals = []
        for arg in args:
            imag = mpmath.im(arg) if self.precise else arg.imag
            if abs(imag) > 1e-12 * (1 + abs(arg)):
                raise Undefined(f"{function} of a complex number")
            reals.append(mpmath.re(arg) if self.precise else arg.real)
        chosen = max(reals) if function == "max" else min(reals)
        return mpmath.mpc(chosen) if self.precise else complex(chosen)


def _sigmoid(value: Value, exp: Callable[[Value], Value]) -> Value:
    return 1 / (1 + exp(-value))


_CMATH: dict[str, Callable[[Value], Value]] = {
    "sqrt": cmath.sqrt,
    "exp": cmath.exp,
    "log": cmath.log,
    "sin": cmath.sin,
    "cos": cmath.cos,
    "tan": cmath.tan,
    "tanh": cmath.tanh,
    "abs": lambda v: complex(abs(v)),
    "sigmoid": lambda v: _sigmoid(v, cmath.exp),
}
_MPMATH: dict[str, Callable[[Value], Value]] = {
    "sqrt": mpmath.sqrt,
    "exp": mpmath.exp,
    "log": mpmath.log,
    "sin": mpmath.sin,
    "cos": mpmath.cos,
    "tan": mpmath.tan,
    "tanh": mpmath.tanh,
    "abs": lambda v: mpmath.mpc(abs(v)),
    "sigmoid": lambda v: _sigmoid(v, mpmath.exp),
}
_ELEMENTWISE: dict[str, Callable[[Value], Value]] = {
    "sqrt": np.sqrt,
    "exp": np.exp,
    "log": np.log,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "tanh": np.tanh,
    "abs": lambda v: np.abs(v).astype(complex),
    "sigmoid": lambda v: 1 / (1 + np.exp(-v)),
}


def evaluate(node: Node, point: Point, *, precise: bool = False) -> Value:
    """The value of ``node`` at ``point``.

    Raises :class:`Undefined` where the expression has no value,
    :class:`Overflow` where floating point is not enough (retry ``precise``),
    and :class:`NotDefined` where the expression is meaningless for its kinds
    of values.
    """
    if precise:
        with mpmath.workdps(MP_DIGITS):
            return _Evaluator(point.exact, True).run(node)
    with np.errstate(all="raise"):
        try:
            return _Evaluator(point.floats, False).run(node)
        except FloatingPointError:
            raise Overflow() from None


def values_agree(a: Value, b: Value, *, precise: bool = False) -> bool:
    """Equal within a relative tolerance (tight for mpmath values)."""
    if is_matrix(a) or is_matrix(b):
        if not (is_matrix(a) and is_matrix(b)) or a.shape != b.shape:
            return False
        scale = max(float(np.linalg.norm(a)), float(np.linalg.norm(b)))
        return float(np.linalg.norm(a - b)) <= FLOAT_RTOL * scale + 1e-12
    if precise:
        with mpmath.workdps(MP_DIGITS):
            scale = max(abs(a), abs(b))
            return bool(abs(a - b) <= MP_RTOL * scale + mpmath.mpf(10) ** -45)
    scale = max(abs(a), abs(b))
    return abs(a - b) <= FLOAT_RTOL * scale + 1e-12
