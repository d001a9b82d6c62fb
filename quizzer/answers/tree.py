"""One way to walk an answer tree, shared by every evaluator.

:func:`fold` visits a tree bottom-up and hands each node, with the results
for its children, to a :class:`Fold`: the float and 50-digit evaluators, the
SymPy read-back, the symbol collector and the exact-rational folder are all
folds, so none of them carries its own ``isinstance`` chain.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Generic, TypeVar

from quizzer.answers.limits import RATIONAL_BITS, RATIONAL_POWER
from quizzer.answers.reading import (
    Binary,
    Call,
    Const,
    Neg,
    Node,
    Num,
    Series,
    Sym,
    Transpose,
    substitute,
)

T = TypeVar("T")


class Fold(Generic[T]):
    """What to make of each kind of node, given what its children made."""

    def num(self, node: Num) -> T:
        raise NotImplementedError

    def sym(self, node: Sym) -> T:
        raise NotImplementedError

    def const(self, node: Const) -> T:
        raise NotImplementedError

    def neg(self, node: Neg, operand: T) -> T:
        raise NotImplementedError

    def transpose(self, node: Transpose, operand: T) -> T:
        raise NotImplementedError

    def binary(self, node: Binary, left: T, right: T) -> T:
        raise NotImplementedError

    def call(self, node: Call, args: list[T]) -> T:
        raise NotImplementedError

    def series(self, node: Series, low: T, high: T | None, term: Callable[[Node], T]) -> T:
        """A sum or product: ``term(n)`` is the body's result with the variable set to ``n``."""
        raise NotImplementedError


def fold(node: Node, visitor: Fold[T]) -> T:
    """The result of ``visitor`` over the tree ``node`` (children first).

    Recursive: the parser's depth limit keeps trees far from Python's.
    """
    if isinstance(node, Num):
        return visitor.num(node)
    if isinstance(node, Sym):
        return visitor.sym(node)
    if isinstance(node, Const):
        return visitor.const(node)
    if isinstance(node, Binary):
        return visitor.binary(node, fold(node.left, visitor), fold(node.right, visitor))
    if isinstance(node, Call):
        return visitor.call(node, [fold(arg, visitor) for arg in node.args])
    if isinstance(node, Neg):
        return visitor.neg(node, fold(node.operand, visitor))
    if isinstance(node, Transpose):
        return visitor.transpose(node, fold(node.operand, visitor))
    if isinstance(node, Series):
        low = fold(node.low, visitor)
        high = None if node.high is None else fold(node.high, visitor)

        def term(value: Node) -> T:
            return fold(substitute(node.body, {node.variable: value}), visitor)

        return visitor.series(node, low, high, term)
    raise TypeError(node)  # pragma: no cover


class _Names(Fold[frozenset[str]]):
    """The symbol names and the function names a tree uses."""

    def __init__(self, functions: bool) -> None:
        self.functions = functions

    def num(self, node: Num) -> frozenset[str]:
        return frozenset()

    const = num  # type: ignore[assignment]

    def sym(self, node: Sym) -> frozenset[str]:
        return frozenset() if self.functions else frozenset((node.name,))

    def neg(self, node: Neg, operand: frozenset[str]) -> frozenset[str]:
        return operand

    transpose = neg  # type: ignore[assignment]

    def binary(self, node: Binary, left: frozenset[str], right: frozenset[str]) -> frozenset[str]:
        return left | right

    def call(self, node: Call, args: list[frozenset[str]]) -> frozenset[str]:
        own = frozenset((node.function,)) if self.functions else frozenset()
        return own.union(*args)

    def series(
        self,
        node: Series,
        low: frozenset[str],
        high: frozenset[str] | None,
        term: Callable[[Node], frozenset[str]],
    ) -> frozenset[str]:
        body = term(Num(Fraction(0)))  # the bound variable is no symbol of the card
        return low | (high or frozenset()) | body


def symbols_used(tree: Node) -> frozenset[str]:
    """The canonical names of the symbols in a tree."""
    return fold(tree, _Names(functions=False))


def functions_used(tree: Node) -> frozenset[str]:
    """The canonical names of the functions a tree calls."""
    return fold(tree, _Names(functions=True))


_ARITHMETIC: dict[str, Callable[[Fraction, Fraction], Fraction]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
}


class _Rational(Fold["Fraction | None"]):
    def num(self, node: Num) -> Fraction | None:
        return node.value if _small(node.value) else None

    def sym(self, node: Sym) -> Fraction | None:
        return None

    const = sym  # type: ignore[assignment]

    def neg(self, node: Neg, operand: Fraction | None) -> Fraction | None:
        return None if operand is None else -operand

    def transpose(self, node: Transpose, operand: Fraction | None) -> Fraction | None:
        return operand

    def binary(
        self, node: Binary, left: Fraction | None, right: Fraction | None
    ) -> Fraction | None:
        if left is None or right is None:
            return None
        if node.op in _ARITHMETIC:
            result = _ARITHMETIC[node.op](left, right)
        elif node.op == "/":
            if right == 0:
                return None
            result = left / right
        else:
            if right.denominator != 1 or abs(right) > RATIONAL_POWER or (left == 0 and right < 0):
                return None
            result = left ** int(right)
        return result if _small(result) else None

    def call(self, node: Call, args: list[Fraction | None]) -> Fraction | None:
        return None

    def series(
        self,
        node: Series,
        low: Fraction | None,
        high: Fraction | None,
        term: Callable[[Node], Fraction | None],
    ) -> Fraction | None:
        return None


def _small(value: Fraction) -> bool:
    return max(value.numerator.bit_length(), value.denominator.bit_length()) <= RATIONAL_BITS


def rational_value(tree: Node) -> Fraction | None:
    """The exact value of a small constant tree of rationals (``1/3``, ``-(2/4)``), else None."""
    return fold(tree, _Rational())


class _Numbers(Fold[list[Fraction]]):
    def num(self, node: Num) -> list[Fraction]:
        return [node.value]

    def sym(self, node: Sym) -> list[Fraction]:
        return []

    const = sym  # type: ignore[assignment]

    def neg(self, node: Neg, operand: list[Fraction]) -> list[Fraction]:
        return operand

    transpose = neg  # type: ignore[assignment]

    def binary(self, node: Binary, left: list[Fraction], right: list[Fraction]) -> list[Fraction]:
        return left + right

    def call(self, node: Call, args: list[list[Fraction]]) -> list[Fraction]:
        return [number for arg in args for number in arg]

    def series(
        self,
        node: Series,
        low: list[Fraction],
        high: list[Fraction] | None,
        term: Callable[[Node], list[Fraction]],
    ) -> list[Fraction]:
        return low + (high or []) + term(Sym(node.variable))


def numbers_in(tree: Node) -> list[Fraction]:
    """Every number literal of a tree, in order."""
    return fold(tree, _Numbers())
