"""Evaluating an answer tree at a point, in floating point or at 50 digits.

Numeric agreement at random points is how WeBWorK, Numbas and KAS decide
equivalence: it is fast, it never hangs, and it sees identities no simplifier
can prove.

Answers are real-valued (as in Maxima's ``domain: real``): every value is a
real number or a real matrix, a step whose value is not real (``log`` of a
negative number, an even root of one) makes the point :class:`Undefined`, and
odd roots of negative numbers are real, ``(-8)^(1/3) = -2``. Matrix symbols
are random square matrices, so ``Q Kᵀ`` and ``K Qᵀ`` differ.

Two arithmetics share one tree walk (:func:`quizzer.answers.tree.fold`):
floats (Python floats and float64 numpy matrices), and mpmath numbers at
:data:`MP_DIGITS` digits (object matrices of them), whose exponents never
overflow. Every mpmath step whose cost grows with the size of its argument is
priced before it starts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from quizzer.answers.functions import BY_NAME, Function
from quizzer.answers.reading import Series
from quizzer.answers.series import evaluate_series
from quizzer.answers.syntax import (
    Binary,
    Call,
    Const,
    Neg,
    Node,
    Num,
    Sym,
    SymbolTable,
    Transpose,
)
from quizzer.answers.tree import Fold, fold, rational_value

MATRIX_SIZE = 3
FLOAT_RTOL = 1e-9
MP_DIGITS = 50
#: Agreement at 50 digits is relative, never absolute: 1e-50 is not 0.
MP_RTOL = mpmath.mpf(10) ** -40
#: The precision a 50-digit agreement is rechecked at: rounding noise shrinks
#: with the digits, a real difference (44 nines for 1/2, + 1e-50) does not.
RECHECK_DIGITS = 100
#: Past these magnitudes a 50-digit value would cost digits in proportion to
#: the argument (exp(exp(1e10)), 10^(10^20)): such points are not evaluated.
MP_ARGUMENT_LIMIT = 1e30
MP_LOG_MAGNITUDE_LIMIT = 1e7
#: A matrix power costs log2(n) products; past this its entries are out of reach anyway.
MAX_MATRIX_POWER = 10**6


class Undefined(Exception):
    """The expression has no real value at this point (a pole, log of a negative...)."""


class TooCostly(Undefined):
    """The value exists but would take too many digits to compute at this point."""


class Overflow(Exception):
    """Floating point could not hold a value; evaluate at 50 digits instead."""


class NotDefined(Exception):
    """The expression means nothing for these kinds of values (division by a matrix...)."""


Value = Any  # float or mpmath.mpf, or a numpy matrix of either


@dataclass(frozen=True)
class Domain:
    """Where a symbol's values are drawn from (see the card format's symbol keys)."""

    matrix: bool = False
    identity: bool = False
    integer: bool = False
    #: The open interval the value lies in; None for an open end.
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class Point:
    """Values for every symbol of a card, as floats and as exact mpmath numbers."""

    floats: Mapping[str, Value]
    exact: Mapping[str, Value]


def _spread(rng: np.random.Generator, kind: int) -> float:
    """A positive magnitude of one of four kinds: whole, below 1, 1 to 20, 20 to 1,000."""
    if kind == 0:
        return float(rng.integers(1, 10))
    if kind == 1:
        return float(10 ** rng.uniform(-2, 0))
    if kind == 2:
        return float(10 ** rng.uniform(0, 1.3))
    return float(10 ** rng.uniform(1.3, 3))


def magnitude_kind(trial: int, symbol: int) -> int:
    """Which kind of magnitude symbol number ``symbol`` takes at point ``trial``.

    The first four points give every symbol the same kind (one point of each
    kind); later ones mix them, so that one symbol is large where another is
    small (``max(0, a - b + m)`` is zero only where b > a + m).
    """
    return (trial + symbol * (trial // 4)) % 4


def integer_bounds(domain: Domain) -> tuple[int | None, int | None]:
    """The least and greatest integers inside an open interval (None: unbounded)."""
    low = None if domain.low is None else math.floor(domain.low) + 1
    high = None if domain.high is None else math.ceil(domain.high) - 1
    return low, high


def _draw_integer(domain: Domain, rng: np.random.Generator, kind: int) -> float:
    low, high = integer_bounds(domain)
    step = max(1, round(_spread(rng, kind)))
    if low is not None and high is not None:
        return float(rng.integers(low, high + 1))
    if low is not None:
        return float(low - 1 + step)
    if high is not None:
        return float(high + 1 - step)
    return float(step if rng.random() < 0.5 else -step)


def _draw_real(domain: Domain, rng: np.random.Generator, kind: int) -> float:
    low, high = domain.low, domain.high
    if low is not None and high is not None:
        # Stay clear of the open ends, where formulas often have poles.
        width = high - low
        return float(low + width * rng.uniform(0.02, 0.98))
    magnitude = _spread(rng, kind)
    if low is not None:
        return low + magnitude
    if high is not None:
        return high - magnitude
    return magnitude if rng.random() < 0.5 else -magnitude


def _draw_matrix(domain: Domain, rng: np.random.Generator) -> tuple[Value, Value]:
    if domain.identity:
        return np.eye(MATRIX_SIZE), _exact_matrix(np.eye(MATRIX_SIZE))
    # Entries are floats with few bits, so the exact copy equals them and
    # sums and products stay exact for longer.
    entries = np.round(rng.standard_normal((MATRIX_SIZE, MATRIX_SIZE)) * 64) / 64
    return entries, _exact_matrix(entries)


def _exact_matrix(entries: np.ndarray) -> np.ndarray:
    exact = np.empty(entries.shape, dtype=object)
    for index in np.ndindex(entries.shape):
        exact[index] = mpmath.mpf(float(entries[index]))
    return exact


#: Fixed values for symbols with no declared range, one row per special point,
#: taken in turn by the card's symbols: negative and even whole numbers next to
#: halves tell (a^b)^c from a^(b c); a zero finds what only zero shows.
_UNRESTRICTED = (
    (-2.0, 2.0, 0.5, 3.0, -1.0),
    (3.0, -1.0, 2.0, -0.5, 1.5),
    (0.0, -3.0, 1.0, 0.0, 2.0),
    (-0.5, 1.5, -2.0, 4.0, -3.0),
)
_HALF_LINE = (
    (2.0, 3.0, 0.5, 1.0),
    (1.0, 0.5, 4.0, 2.0),
    (3.0, 1.0, 2.0, 0.25),
    (0.5, 2.0, 1.0, 3.0),
)
#: Where inside a bounded range each special point sits: near each end, the middle.
_RANGE_AT = (0.001, 0.999, 0.5, 0.25)
SPECIAL_POINTS = len(_UNRESTRICTED)


def _special_value(domain: Domain, row: int, symbol: int) -> float:
    low, high = domain.low, domain.high
    if domain.integer:
        low_int, high_int = integer_bounds(domain)
        if low_int is not None and high_int is not None:
            return float(round(low_int + (high_int - low_int) * _RANGE_AT[row]))
        offset = (0, 1, 2, 3)[(row + symbol) % 4]
        if low_int is not None:
            return float(low_int + offset)
        if high_int is not None:
            return float(high_int - offset)
        return float((0, 2, -2, -1, 3)[(row + symbol) % 5])
    if low is not None and high is not None:
        return low + (high - low) * _RANGE_AT[row]
    if low is not None:
        return low + _HALF_LINE[row][symbol % 4]
    if high is not None:
        return high - _HALF_LINE[row][symbol % 4]
    return _UNRESTRICTED[row][symbol % len(_UNRESTRICTED[row])]


def special_points(domains: Mapping[str, Domain], rng: np.random.Generator) -> list[Point]:
    """Points that random draws rarely give: small whole numbers of both signs,
    halves, zero where the domain allows it, both ends of each range."""
    points = []
    for row in range(SPECIAL_POINTS):
        floats: dict[str, Value] = {}
        exact: dict[str, Value] = {}
        for symbol, (name, domain) in enumerate(domains.items()):
            if domain.matrix:
                floats[name], exact[name] = _draw_matrix(domain, rng)
                continue
            value = _special_value(domain, row, symbol)
            floats[name], exact[name] = value, mpmath.mpf(value)
        points.append(Point(floats, exact))
    return points


def has_zero(point: Point) -> bool:
    """A point where some symbol is 0: a gap there may be removable (x/x)."""
    return any(not is_matrix(value) and value == 0 for value in point.floats.values())


def sample_points(
    domains: Mapping[str, Domain] | SymbolTable, rng: np.random.Generator, count: int
) -> list[Point]:
    """Random points inside each symbol's domain, spread over small and large magnitudes.

    Whole numbers and fractions alternate (as KAS does), and symbols without a
    declared sign take both signs, so ``sqrt(x^2)`` is told apart from ``x``.
    A bare :class:`SymbolTable` gives its matrices and positives their domains.
    """
    if isinstance(domains, SymbolTable):
        domains = {
            name: Domain(
                matrix=name in domains.matrices, low=0.0 if name in domains.positives else None
            )
            for name in domains.names
        }
    points = []
    for trial in range(count):
        floats: dict[str, Value] = {}
        exact: dict[str, Value] = {}
        for symbol, (name, domain) in enumerate(domains.items()):
            if domain.matrix:
                floats[name], exact[name] = _draw_matrix(domain, rng)
                continue
            draw = _draw_integer if domain.integer else _draw_real
            value = draw(domain, rng, magnitude_kind(trial, symbol))
            floats[name] = value
            exact[name] = mpmath.mpf(value)
        points.append(Point(floats, exact))
    return points


def is_matrix(value: Value) -> bool:
    return isinstance(value, np.ndarray)


# -- the two arithmetics -----------------------------------------------------------


class _Evaluator(Fold[Value]):
    """Evaluates a tree in one arithmetic; subclasses say which."""

    def __init__(self, values: Mapping[str, Value]) -> None:
        self.values = values

    # numbers and scalars ------------------------------------------------------
    def number(self, value: Fraction) -> Value:
        raise NotImplementedError

    def constant(self, name: str) -> Value:
        raise NotImplementedError

    def checked(self, value: Value) -> Value:
        """``value`` if it is real and finite; raises otherwise."""
        raise NotImplementedError

    def real_power(self, base: Value, exponent: Value) -> Value:
        raise NotImplementedError

    def apply(self, entry: Function, args: list[Value]) -> Value:
        raise NotImplementedError

    def apply_to_matrix(self, entry: Function, args: list[Value]) -> Value:
        raise NotImplementedError

    def matrix_power(self, base: Value, whole: int) -> Value:
        raise NotImplementedError

    def is_whole(self, value: Value) -> bool:
        raise NotImplementedError

    # the fold -------------------------------------------------------------------
    def num(self, node: Num) -> Value:
        return self.number(node.value)

    def sym(self, node: Sym) -> Value:
        return self.values[node.name]

    def const(self, node: Const) -> Value:
        return self.constant(node.name)

    def neg(self, node: Neg, operand: Value) -> Value:
        return -operand

    def transpose(self, node: Transpose, operand: Value) -> Value:
        return operand.T if is_matrix(operand) else operand

    def binary(self, node: Binary, left: Value, right: Value) -> Value:
        op = node.op
        if op == "^":
            return self.power(node, left, right)
        if is_matrix(left) and is_matrix(right) and left.shape != right.shape:
            raise NotDefined("the matrices' shapes do not match")
        if op == "+":
            return self.checked(left + right)
        if op == "-":
            return self.checked(left - right)
        if op == "*":
            both = is_matrix(left) and is_matrix(right)
            return self.checked(left @ right if both else left * right)
        if is_matrix(right):
            raise NotDefined("cannot divide by a matrix")
        if right == 0:
            raise Undefined("division by zero")
        return self.checked(left / right)

    def power(self, node: Binary, base: Value, exponent: Value) -> Value:
        if is_matrix(exponent):
            if isinstance(node.right, Sym) and node.right.name == "T":
                raise NotDefined("^T is a power of the symbol T on this card: write M' or Mᵀ")
            raise NotDefined("cannot raise to a matrix power")
        exact = rational_value(node.right)
        if is_matrix(base):
            if not self.is_whole(exponent):
                raise NotDefined("a matrix can only be raised to a whole power")
            if abs(exponent) > MAX_MATRIX_POWER:
                raise TooCostly("matrix power too large to evaluate")
            return self.checked(self.matrix_power(base, int(exponent)))
        if base == 0 and exponent < 0:
            raise Undefined("zero to a negative power")
        if base >= 0:
            return self.checked(self.real_power(base, exponent))
        if exact is not None:
            # An odd root of a negative number is real: (-8)^(1/3) = -2.
            if exact.denominator % 2 == 0:
                raise Undefined("even root of a negative number")
            magnitude = self.real_power(-base, self.number(exact))
            return self.checked(-magnitude if exact.numerator % 2 else magnitude)
        if not self.is_whole(exponent):
            raise Undefined("negative number to a fractional power")
        return self.checked(self.real_power(base, exponent))

    def call(self, node: Call, args: list[Value]) -> Value:
        entry = BY_NAME[node.function]
        if any(is_matrix(arg) for arg in args):
            if entry.array is None:
                raise NotDefined(f"{entry.name} of a matrix is not defined here")
            return self.checked(self.apply_to_matrix(entry, args))
        return self.checked(self.apply(entry, args))

    undefined, too_costly = Undefined, TooCostly  # what quizzer.answers.series raises

    def series(
        self, node: Series, low: Value, high: Value | None, term: Callable[[Node], Value]
    ) -> Value:
        return evaluate_series(self, node, low, high, term)

    def run(self, node: Node) -> Value:
        try:
            return fold(node, self)
        except ZeroDivisionError:
            raise Undefined("division by zero") from None
        except ValueError as error:  # math's domain errors: not real here
            raise Undefined(str(error)) from None
        except np.linalg.LinAlgError:
            raise Undefined("singular matrix") from None
        except OverflowError:  # a conversion to int or float of a huge number
            raise self.too_large() from None

    def too_large(self) -> Exception:
        raise NotImplementedError


def _with_mpmath_errors(function: Callable[..., Value], *args: Value) -> Value:
    try:
        return function(*args)
    except (ValueError, ZeroDivisionError) as error:  # poles: gamma(-1), cot(0)
        raise Undefined(str(error)) from None


class _FloatEvaluator(_Evaluator):
    """Python floats for scalars (the math module: real only), float64 for matrices."""

    def number(self, value: Fraction) -> Value:
        try:
            return value.numerator / value.denominator
        except OverflowError:
            raise Overflow() from None

    def constant(self, name: str) -> Value:
        return math.pi if name == "pi" else math.e

    def checked(self, value: Value) -> Value:
        if is_matrix(value):
            if value.dtype == object:
                value = value.astype(float)
            if not np.all(np.isfinite(value)):
                raise Overflow()
            return value
        if isinstance(value, complex):  # Python's own ** on a negative base
            raise Undefined("not a real number")
        if math.isinf(value):
            raise Overflow()
        if math.isnan(value):
            raise Undefined("not a number")
        return float(value)

    def real_power(self, base: Value, exponent: Value) -> Value:
        try:
            return math.pow(base, exponent)
        except OverflowError:
            raise Overflow() from None

    def apply(self, entry: Function, args: list[Value]) -> Value:
        try:
            return entry.real(*args)
        except OverflowError:
            raise Overflow() from None

    def apply_to_matrix(self, entry: Function, args: list[Value]) -> Value:
        assert entry.array is not None
        return entry.array(*args)

    def matrix_power(self, base: Value, whole: int) -> Value:
        return np.linalg.matrix_power(base, whole)

    def is_whole(self, value: Value) -> bool:
        return float(value).is_integer()

    def too_large(self) -> Exception:
        return Overflow()


class _PreciseEvaluator(_Evaluator):
    """mpmath numbers at the working precision; matrices are object arrays of them."""

    def number(self, value: Fraction) -> Value:
        return mpmath.mpf(value.numerator) / value.denominator

    def constant(self, name: str) -> Value:
        return +mpmath.pi if name == "pi" else +mpmath.e

    def checked(self, value: Value) -> Value:
        if is_matrix(value):
            return np.frompyfunc(self.checked, 1, 1)(value)
        if isinstance(value, mpmath.mpc):
            if value.imag != 0:
                raise Undefined("not a real number")
            value = value.real
        if not mpmath.isfinite(value):
            raise Undefined("not a finite number")
        return value

    def real_power(self, base: Value, exponent: Value) -> Value:
        if base != 0 and abs(exponent) * abs(mpmath.log(base)) > MP_LOG_MAGNITUDE_LIMIT:
            raise TooCostly("too large to evaluate")
        return mpmath.power(base, exponent)

    def price(self, entry: Function, args: list[Value]) -> None:
        if entry.cheap:
            return
        for arg in args:
            largest = max(abs(a) for a in arg.flat) if is_matrix(arg) else abs(arg)
            if largest > MP_ARGUMENT_LIMIT:
                raise TooCostly(f"{entry.name} of a number too large to evaluate")

    def apply(self, entry: Function, args: list[Value]) -> Value:
        self.price(entry, args)
        return _with_mpmath_errors(entry.precise, *args)

    def apply_to_matrix(self, entry: Function, args: list[Value]) -> Value:
        self.price(entry, args)
        if entry.precise_array is not None:
            return _with_mpmath_errors(entry.precise_array, *args)
        return _with_mpmath_errors(np.frompyfunc(entry.precise, len(args), 1), *args)

    def is_whole(self, value: Value) -> bool:
        return bool(mpmath.isint(value))

    def too_large(self) -> Exception:
        return TooCostly("too large to evaluate")

    def matrix_power(self, base: Value, whole: int) -> Value:
        if whole < 0:
            try:
                inverse = mpmath.inverse(mpmath.matrix(base.tolist()))
            except ZeroDivisionError:
                raise Undefined("singular matrix") from None
            base = np.array(inverse.tolist(), dtype=object)
            whole = -whole
        result = np.empty(base.shape, dtype=object)
        for index in np.ndindex(base.shape):
            result[index] = mpmath.mpf(int(index[0] == index[1]))
        square = base
        while whole:  # by repeated squaring: log2(whole) products
            if whole & 1:
                result = result @ square
            whole >>= 1
            if whole:
                square = square @ square
        return result


def evaluate(node: Node, point: Point, *, precise: bool = False, digits: int = MP_DIGITS) -> Value:
    """The real value of ``node`` at ``point``.

    Raises :class:`Undefined` where the expression has no real value (or
    :class:`TooCostly`, where it would cost too many digits), :class:`Overflow`
    where floats are not enough (evaluate ``precise``), and
    :class:`NotDefined` where the expression is meaningless for its kinds of
    values.
    """
    if precise:
        with mpmath.workdps(digits):
            return _PreciseEvaluator(point.exact).run(node)
    with np.errstate(over="raise", divide="raise", invalid="raise", under="ignore"):
        try:
            return _FloatEvaluator(point.floats).run(node)
        except FloatingPointError as error:
            if "overflow" in str(error):
                raise Overflow() from None
            raise Undefined(str(error)) from None


def values_agree(a: Value, b: Value, *, precise: bool = False) -> bool:
    """Equal within a relative tolerance: 1e-9 for floats, 1e-40 at 50 digits (no absolute
    slack: see :func:`precise_difference` for values that cancel to zero)."""
    if is_matrix(a) or is_matrix(b):
        if not (is_matrix(a) and is_matrix(b)) or a.shape != b.shape:
            return False
        if precise:
            with mpmath.workdps(MP_DIGITS):
                scale = max(max(abs(x) for x in a.flat), max(abs(x) for x in b.flat))
                difference = max(abs(x - y) for x, y in zip(a.flat, b.flat, strict=True))
                return bool(difference <= MP_RTOL * scale)
        with np.errstate(all="ignore"):  # a norm past float range is inf: still ordered
            scale = max(float(np.linalg.norm(a)), float(np.linalg.norm(b)))
            return float(np.linalg.norm(a - b)) <= FLOAT_RTOL * scale + 1e-12
    if precise:
        with mpmath.workdps(MP_DIGITS):
            scale = max(abs(a), abs(b))
            return bool(abs(a - b) <= MP_RTOL * scale)
    scale = max(abs(a), abs(b))
    return bool(abs(a - b) <= FLOAT_RTOL * scale + 1e-12)


def precise_difference(a: Value, b: Value) -> Any:
    """The largest absolute difference of two precise values (entries of matrices)."""
    if is_matrix(a) or is_matrix(b):
        if not (is_matrix(a) and is_matrix(b)) or a.shape != b.shape:
            return mpmath.inf
        return max(abs(x - y) for x, y in zip(a.flat, b.flat, strict=True))
    return abs(a - b)


def largest(value: Value) -> Any:
    """The magnitude of a precise value (its largest entry, for a matrix)."""
    if is_matrix(value):
        return max(abs(x) for x in value.flat)
    return abs(value)
