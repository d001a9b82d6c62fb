"""Size limits on an answer, checked before anything is computed.

A hostile answer (``9^9^9^9``, ``(10^6)!``) is refused from its tree alone,
working in log10 space on constant sub-trees, so it costs microseconds.
"""

from __future__ import annotations

import math

from quizzer.answers.reading import (
    PLAIN_ARITHMETIC,
    Binary,
    Call,
    Const,
    Neg,
    Node,
    Num,
    Series,
    Sym,
    TooLarge,
    children,
)

# -- limits ---------------------------------------------------------------------

MAX_LENGTH = 1_000  # characters in one answer
MAX_DEPTH = 60  # nested sub-expressions
MAX_NODES = 400  # nodes in the tree
MAX_LITERAL_DIGITS = 60  # digits in one number
MAX_EXPONENT = 10_000  # |n| in x^n; (x-a)^6000 is legitimate
MAX_DIGITS = 20_000  # decimal digits of any constant the tree implies
MAX_FACTORIAL = 2_000
MAX_SERIES_TERMS = 600  # terms of every sum and product in one evaluation, together

#: Exact rational folding (:mod:`quizzer.answers.tree`) gives up past these, so it
#: costs microseconds.
RATIONAL_BITS = 256
RATIONAL_POWER = 64
#: Non-integer powers and functions of rationals with more digits than this are
#: refused by the SymPy read-back: SymPy looks for exact roots and factors in
#: big-integer code that no timer can interrupt (sqrt(10^4000+1) took 14 s; 300
#: digits take about 5 ms).
ROOT_DIGITS = 300
#: Read-backs with longer numbers are not printed: big-integer printing is
#: quadratic, and Python refuses past 4,300 digits anyway.
PRINT_DIGITS = 1_000


def check_size(tree: Node) -> None:
    """Refuse trees whose value would be astronomically large to compute.

    Works in log10 space on constant sub-trees, so ``9^9^9^9`` is refused
    without computing ``9^9``.
    """
    count = 0
    stack = [tree]
    while stack:
        node = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise TooLarge("answer too long to judge")
        stack.extend(children(node))
    _magnitude(tree)


def _magnitude(node: Node) -> float | None:
    """log10 of an upper bound on |value| for constant sub-trees; None if symbolic."""
    if isinstance(node, Num):
        value = node.value
        if value == 0:
            return 0.0
        bits = abs(value.numerator).bit_length() - value.denominator.bit_length() + 1
        return max(bits, 0) * math.log10(2)
    if isinstance(node, Const):
        return 1.0
    if isinstance(node, Sym):
        return None
    if isinstance(node, Series):
        _check_series(node)
    child_sizes = [_magnitude(child) for child in children(node)]
    if any(size is None for size in child_sizes):
        if isinstance(node, Binary) and node.op == "^":
            _check_exponent(node.right, child_sizes[1])
        return None
    sizes = [s for s in child_sizes if s is not None]
    result: float
    if isinstance(node, Binary) and node.op == "^":
        _check_exponent(node.right, sizes[1])
        exponent = _approximate(node.right)
        result = abs(exponent) * max(sizes[0], 1.0) + 1
    elif isinstance(node, Call) and node.function == "factorial":
        _check_factorial(node.args[0], sizes[0])
        argument = _approximate(node.args[0])
        result = math.lgamma(abs(argument) + 2) / math.log(10) + 1
    elif isinstance(node, Call) and node.function == "exp":
        result = min(10 ** min(sizes[0], 6), 1e12) / math.log(10) + 1
    else:
        result = sum(sizes) + 1
    if result > MAX_DIGITS:
        raise TooLarge("answer too large to judge")
    return result


def _check_series(node: Series) -> None:
    """A sum with whole-number limits of more terms than any evaluation may take."""
    if node.high is None or _magnitude(node.low) is None or _magnitude(node.high) is None:
        return
    if abs(_approximate(node.high) - _approximate(node.low)) > MAX_SERIES_TERMS:
        raise TooLarge(f"{node.kind} of too many terms to judge")


def _check_exponent(exponent: Node, size: float | None) -> None:
    if size is not None and size > math.log10(MAX_EXPONENT) + 1:
        raise TooLarge("exponent too large to judge")
    if size is not None and abs(_approximate(exponent)) > MAX_EXPONENT:
        raise TooLarge("exponent too large to judge")


def _check_factorial(argument: Node, size: float) -> None:
    # The size test first, so that _approximate never meets an astronomical argument.
    if size > math.log10(MAX_FACTORIAL) + 1 or abs(_approximate(argument)) > MAX_FACTORIAL:
        raise TooLarge("factorial too large to judge")


def _approximate(node: Node) -> float:
    """A float value for a small constant sub-tree (sizes are already checked)."""
    if isinstance(node, Num):
        return float(node.value)
    if isinstance(node, Const):
        return math.pi if node.name == "pi" else math.e
    if isinstance(node, Neg):
        return -_approximate(node.operand)
    try:
        if isinstance(node, Binary):
            left, right = _approximate(node.left), _approximate(node.right)
            if node.op in PLAIN_ARITHMETIC:
                return float(PLAIN_ARITHMETIC[node.op](left, right))
            if node.op == "/":
                return left / right if right else math.inf
            return abs(left) ** right if left or right > 0 else math.inf
        if isinstance(node, Call):
            # An upper bound on |value|: every argument counts (max(1e-6, 1/1e-6)
            # is a million, not about 1), and exp grows faster than its argument.
            values = [_approximate(argument) for argument in node.args]
            if node.function == "factorial":
                return math.gamma(min(abs(values[0]), 170) + 1)
            if node.function == "exp":
                return math.exp(values[0]) if values[0] < 709 else math.inf
            return sum(abs(value) for value in values) + 1
    except (OverflowError, ZeroDivisionError, ValueError):
        return math.inf
    return 1.0
