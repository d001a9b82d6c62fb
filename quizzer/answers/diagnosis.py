"""Why a wrong answer is wrong: a catalogue of claims, each checked before it is said.

A diagnosis ("off by a constant factor", "a and b are swapped", "a term is
missing") is stated only when it holds at every sample point where both
sides are real, the two sides are real at the same points, and there are
at least :data:`~quizzer.answers.values.MIN_DIAGNOSIS_POINTS` such points.
The catalogue, in the order it is tried:

1. a decimal that is an exact constant correctly rounded (``0.33 x`` for x/3);
2. relations of the values: matrix against number, sign, constant factor,
   very close, reciprocal, square, square root, constant offset;
3. symbols the answer needs and yours lacks, or the other way round;
4. the expected answer transformed as people get it wrong
   (:mod:`quizzer.answers.mutants`: a root or power dropped, a term or factor
   missing, two symbols swapped, n ± 1, another log base, a transpose);
5. yours with one part removed being the answer (an extra term or factor);
6. yours written as the answer is, but for one part: an operator, a number,
   a symbol or a function ("yours has n + 2 where the answer has n + 1").
   True by construction: putting the answer's part in place of yours gives
   the answer's own tree.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from quizzer.answers import numeric
from quizzer.answers.mutants import Mutant, mutants, to_text
from quizzer.answers.syntax import Binary, Call, Const, Neg, Node, Num, Transpose
from quizzer.answers.tree import numbers_in
from quizzer.answers.values import close, holds_everywhere, real_pairs, same_values

GENERIC = "not equivalent to the expected answer"
TINY = "very close to the answer, but not equal: they differ at 50 digits"
#: Relative difference below which two values are "very close".
VERY_CLOSE = 1e-6

ValuesOf = Callable[[Node], "list[Any] | None"]


@dataclass
class Expectation:
    """The expected answer of a blank as the diagnosis needs it, mutants computed once."""

    tree: Node
    values: list[Any]
    integers: frozenset[str] = frozenset()
    matrices: frozenset[str] = frozenset()
    #: The values of each mutant of the expected answer (by its index), once needed.
    mutant_values: dict[int, list[Any] | None] = field(default_factory=dict)
    _all: list[Mutant] | None = None

    def each_mutant(
        self, values_of: ValuesOf, kinds: set[str] | None = None
    ) -> Iterator[tuple[Mutant, list[Any] | None]]:
        """Each mutant with its values (None where it means nothing), of ``kinds`` only if given."""
        if self._all is None:
            self._all = list(mutants(self.tree, integers=self.integers, matrices=self.matrices))
        for index, mutant in enumerate(self._all):
            if kinds is not None and mutant.kind not in kinds:
                continue
            if index not in self.mutant_values:
                self.mutant_values[index] = values_of(mutant.tree)
            yield mutant, self.mutant_values[index]


# -- constants ----------------------------------------------------------------------


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


def decimal_places(value: Fraction) -> int | None:
    """How many decimal places a terminating decimal has (0.64 -> 2); None if it is not one."""
    for places in range(0, 60):
        if (value * 10**places).denominator == 1:
            return places
    return None


def significant_digits(value: Fraction, places: int) -> int:
    whole = abs(value.numerator * 10**places // value.denominator)
    return len(str(whole)) if whole else 0


def rounds_to(exact: Any, typed: Fraction, places: int) -> bool:
    """``typed`` is ``exact`` correctly rounded to ``places`` decimal places, or is the
    float nearest to it as a computer prints it (1.4142135623730951 for sqrt(2))."""
    if isinstance(exact, Fraction):
        nearest_exact = round(exact * 10**places)  # exact arithmetic, half to even
        return Fraction(nearest_exact, 10**places) == typed
    with mpmath.workdps(places + 30):
        scaled = mpmath.mpf(exact) * mpmath.mpf(10) ** places
        nearest = int(mpmath.nint(scaled))
        if Fraction(nearest, 10**places) == typed:
            return True
    # the float nearest to it as Python prints it (repr: shortest round trip)
    return places >= 12 and Fraction(repr(float(exact))) == typed


_NAMED = (
    (mpmath.pi, Const("pi"), "pi"),
    (mpmath.e, Const("e"), "e"),
    (mpmath.log(2), Call("log", (Num(Fraction(2)),)), "log(2)"),
    (mpmath.log(10), Call("log", (Num(Fraction(10)),)), "log(10)"),
    (mpmath.sqrt(mpmath.pi), Call("sqrt", (Const("pi"),)), "sqrt(pi)"),
)


def constants_near(value: float) -> list[tuple[Any, Node, str]]:
    """Exact constants a decimal may stand for: (value, tree, name)."""
    candidates: list[tuple[Any, Node, str]] = []
    with mpmath.workdps(80):
        for exact, tree, name in _NAMED:
            multiple = Fraction(value / float(exact)).limit_denominator(6)
            if multiple != 0:
                scaled = tree if multiple == 1 else Binary("*", Num(multiple), tree)
                text = name if multiple == 1 else f"{multiple}·{name}"
                candidates.append((mpmath.mpf(multiple.numerator) / multiple.denominator * exact,
                                   scaled, text))  # fmt: skip
        square = Fraction(value * value).limit_denominator(4)
        if square != 0 and not _is_square(square):
            root: Node = Call("sqrt", (Num(square),))
            exact = mpmath.sqrt(mpmath.mpf(square.numerator) / square.denominator)
            text = f"sqrt({square})"
            if value < 0:
                root, exact, text = Binary("*", Num(Fraction(-1)), root), -exact, f"-{text}"
            candidates.append((exact, root, text))
        fraction = Fraction(value).limit_denominator(12)
        if fraction != 0:
            candidates.append((fraction, Num(fraction), str(fraction)))
    return candidates


def _is_square(value: Fraction) -> bool:
    return all(math.isqrt(n) ** 2 == n for n in (value.numerator, value.denominator))


def _replace_number(node: Node, old: Fraction, new: Node) -> Node:
    if isinstance(node, Num):
        return new if node.value == old else node
    if isinstance(node, Binary):
        return Binary(node.op, _replace_number(node.left, old, new),
                      _replace_number(node.right, old, new))  # fmt: skip
    if isinstance(node, Call):
        return Call(node.function, tuple(_replace_number(a, old, new) for a in node.args))
    operand = getattr(node, "operand", None)
    if operand is not None:
        return type(node)(_replace_number(operand, old, new))  # type: ignore[call-arg]
    return node


def rounded_constant(answer: Node, expected_values: list[Any], values_of: ValuesOf) -> str | None:
    """ "is a constant rounded?", said only when a decimal typed in the answer is an
    exact constant correctly rounded to the digits typed, and the answer with that
    constant in its place is the expected answer at every point."""
    for number in numbers_in(answer):
        places = decimal_places(number)
        if not places or Fraction(number).limit_denominator(12) == number:
            continue  # a whole number, or a decimal that is itself a small fraction (0.25)
        for exact, tree, name in constants_near(float(number)):
            if Fraction(exact) == number if isinstance(exact, Fraction) else False:
                continue
            if not rounds_to(exact, number, places):
                continue
            values = values_of(_replace_number(answer, number, tree))
            if values is not None and same_values(expected_values, values):
                typed = _decimal_text(number, places)
                return (f"very close, but not exactly the answer: is a constant rounded?"
                        f" ({typed} looks like {name})")  # fmt: skip
    return None


def _decimal_text(value: Fraction, places: int) -> str:
    sign = "-" if value < 0 else ""
    scaled = abs(value.numerator) * 10**places // value.denominator
    whole, fraction = divmod(scaled, 10**places)
    return f"{sign}{whole}.{fraction:0{places}d}"


# -- relations of the values ----------------------------------------------------------


_close = close


def _relative_difference(e: Any, a: Any) -> float:
    e_array, a_array = np.asarray(e, dtype=float), np.asarray(a, dtype=float)
    scale = max(float(np.linalg.norm(e_array)), float(np.linalg.norm(a_array)))
    return 0.0 if scale == 0 else float(np.linalg.norm(e_array - a_array)) / scale


def common_factor(pairs: Sequence[tuple[Any, Any]]) -> float | None:
    """c when the answer is c times the expected value at every point (0 where it is 0)."""
    factors = []
    try:
        for e, a in pairs:
            e_array, a_array = np.asarray(e, dtype=float), np.asarray(a, dtype=float)
            norm = float(np.vdot(e_array, e_array))
            if norm == 0:
                if float(np.vdot(a_array, a_array)) != 0:
                    return None  # c times 0 is 0: a value where the answer is 0 rules it out
                continue
            factor = float(np.vdot(e_array, a_array)) / norm
            if not np.allclose(factor * e_array, a_array, rtol=1e-9, atol=0):
                return None
            factors.append(factor)
    except (OverflowError, TypeError, ValueError, FloatingPointError):
        return None
    if len(factors) < len(pairs) // 2 + 1 or not factors:
        return None
    if any(abs(f - factors[0]) > 1e-9 * abs(factors[0]) for f in factors):
        return None
    return factors[0]


def common_offset(pairs: Sequence[tuple[Any, Any]]) -> float | None:
    """c when the answer is the expected value plus c at every point."""
    try:
        offsets = [float(a) - float(e) for e, a in pairs]
    except (OverflowError, TypeError, ValueError):
        return None
    # where the values are huge, floats cannot resolve an offset: those points
    # neither support nor refute it, the others decide
    slack = [1e-15 * max(abs(float(e)), abs(float(a))) for e, a in pairs]
    resolved = [o for o, s in zip(offsets, slack, strict=True) if s < 1e-9]
    if len(resolved) < 2:
        return None
    first = resolved[0]
    if all(
        abs(o - first) <= 1e-9 * (1 + abs(first)) + s for o, s in zip(offsets, slack, strict=True)
    ):
        return first
    return None


def value_relations(expected: list[Any], answer: list[Any]) -> str | None:
    """The first relation of the values that holds at every point (sign, factor...)."""
    return _value_relations(expected, answer)


def _value_relations(expected: list[Any], answer: list[Any]) -> str | None:
    pairs = real_pairs(expected, answer)
    if pairs is None or len(pairs) < 3:
        return None
    expected_matrix = numeric.is_matrix(pairs[0][0])
    answer_matrix = numeric.is_matrix(pairs[0][1])
    if expected_matrix and not answer_matrix:
        return "the answer is a matrix; yours is a single number"
    if answer_matrix and not expected_matrix:
        return "the answer is a single number; yours is a matrix"

    def everywhere(relation: Callable[[Any, Any], bool]) -> bool:
        return holds_everywhere(expected, answer, relation)

    if everywhere(lambda e, a: _close(-e, a)):
        return "right size, wrong sign"
    if everywhere(lambda e, a: _relative_difference(e, a) <= VERY_CLOSE):
        return TINY
    factor = common_factor(pairs)
    if factor is not None and factor != 0 and abs(factor - 1) > VERY_CLOSE:
        name = describe_constant(factor) or f"about {factor:.6g}"
        return f"off by a constant factor: yours is {name} times the answer"
    if expected_matrix:
        return None
    if everywhere(lambda e, a: _close(1 / e, a)):
        return "that is the reciprocal of the answer (upside down)"
    if everywhere(lambda e, a: _close(e * e, a)):
        return "that is the square of the answer"
    if everywhere(lambda e, a: a >= 0 and _close(e, a * a)):
        return "that is the square root of the answer"
    offset = common_offset(pairs)
    if offset is not None and abs(offset) > VERY_CLOSE:
        name = describe_constant(offset) or f"about {offset:.6g}"
        if name.startswith(("-", "about -")):
            less = name.replace("-", "", 1)
            return f"off by a constant: yours is {less} less than the answer"
        return f"off by a constant: yours is {name} more than the answer"
    return None


# -- the catalogue -------------------------------------------------------------------

_EXTRA = {
    "drop-term": "yours has an extra term: {part}",
    "drop-factor": "yours has an extra factor: {part}",
    "drop-root": "yours takes a square root the answer does not",
    "drop-power": "yours has a power the answer does not",
    "drop-transpose": "yours has a transpose the answer does not",
}


def diagnose(
    expectation: Expectation,
    answer: Node,
    answer_values: list[Any],
    values_of: ValuesOf,
    *,
    expected_symbols: set[str],
    answer_symbols: set[str],
) -> str:
    """Why ``answer`` is not the expected answer: the first claim of the catalogue that holds."""
    expected = expectation.values
    with np.errstate(all="ignore"):
        found = rounded_constant(answer, expected, values_of)
        # another log base is also a constant factor: the base is the better news
        for mutant, values in expectation.each_mutant(values_of, kinds={"log-base"}):
            if found is None and values is not None and same_values(values, answer_values):
                found = mutant.feedback
        found = found or _value_relations(expected, answer_values)
    if found:
        return found
    missing = sorted(expected_symbols - answer_symbols)
    extra = sorted(answer_symbols - expected_symbols)
    if missing:
        return f"the answer depends on {', '.join(missing)}; yours does not"
    if extra:
        return f"yours uses {', '.join(extra)}, which the answer does not need"
    with np.errstate(all="ignore"):
        for mutant, values in expectation.each_mutant(values_of):
            if values is not None and same_values(values, answer_values):
                return mutant.feedback
        for mutant in mutants(answer, integers=expectation.integers, matrices=expectation.matrices):
            if mutant.kind not in _EXTRA:
                continue
            values = values_of(mutant.tree)
            if values is not None and same_values(expected, values):
                part = mutant.feedback.split(": ", 1)[-1]
                return _EXTRA[mutant.kind].format(part=part)
    return one_difference(expectation.tree, answer) or GENERIC


def _difference(expected: Node, answer: Node) -> tuple[Node, Node] | None:
    """The one smallest part where two trees differ, or None when they do not (or
    differ in more than one place)."""
    if expected == answer:
        return None
    pairs: list[tuple[Node, Node]] = []
    if isinstance(expected, Binary) and isinstance(answer, Binary) and expected.op == answer.op:
        pairs = [(expected.left, answer.left), (expected.right, answer.right)]
    elif isinstance(expected, Neg | Transpose) and type(expected) is type(answer):
        pairs = [(expected.operand, answer.operand)]
    elif (
        isinstance(expected, Call)
        and isinstance(answer, Call)
        and expected.function == answer.function
        and len(expected.args) == len(answer.args)
    ):
        pairs = list(zip(expected.args, answer.args, strict=True))
    differing = [(e, a) for e, a in pairs if e != a]
    if not pairs:
        return expected, answer
    if len(differing) != 1:
        return (expected, answer) if len(differing) > 1 else None
    inner = _difference(*differing[0])
    return inner if inner is not None else differing[0]


def one_difference(expected: Node, answer: Node) -> str | None:
    """ "yours has X where the answer has Y", when that one part is all that differs."""
    found = _difference(expected, answer)
    if found is None:
        return None
    wanted, given = found
    if (
        isinstance(wanted, Binary)
        and isinstance(given, Binary)
        and (wanted.left, wanted.right) == (given.left, given.right)
    ):
        part = to_text(wanted.right)
        if {wanted.op, given.op} == {"+", "-"}:
            return f"a sign is wrong in yours: the answer {_VERB[wanted.op]} {part}"
        if {wanted.op, given.op} == {"*", "/"}:
            return f"upside down in yours: the answer {_VERB[wanted.op]} {part}"
    if found == (expected, answer):
        return None  # all of it differs: nothing to point at
    return f"yours has {to_text(given)} where the answer has {to_text(wanted)}"


_VERB = {"+": "adds", "-": "subtracts", "*": "multiplies by", "/": "divides by"}


def domain_gap(
    answer_gaps: Sequence[int],
    expected_gaps: Sequence[int],
    points: Sequence[numeric.Point],
    names: Sequence[str],
) -> str | None:
    """Where one side is real and the other is not, said as a region when one sign
    of one symbol covers it ("yours is not defined for x < 0"); None otherwise."""
    if answer_gaps:
        where = _where(list(answer_gaps), points, names)
        return None if where is None else f"yours is not defined {where}, where the answer is"
    if expected_gaps:
        where = _where(list(expected_gaps), points, names)
        return None if where is None else f"yours has values {where}, where the answer has none"
    return None


def _where(indices: list[int], points: Sequence[numeric.Point], names: Sequence[str]) -> str | None:
    for name in names:
        values = [points[i].floats.get(name) for i in indices]
        if not all(isinstance(v, float) for v in values):
            continue
        if all(v < 0 for v in values):  # type: ignore[operator]
            return f"for {name} < 0"
        if all(v > 0 for v in values):  # type: ignore[operator]
            return f"for {name} > 0"
    example = points[indices[0]].floats
    shown = ", ".join(f"{n} = {example[n]:.4g}" for n in names if isinstance(example.get(n), float))
    return f"at {shown}" if shown else None
