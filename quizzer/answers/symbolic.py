"""The answer tree as a SymPy expression: for reading it back and for exact checks.

SymPy objects are built node by node from quizzer's own tree, never from
text. The tree's size limits (all in :mod:`quizzer.answers.limits`) keep
SymPy's automatic evaluation cheap.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

import sympy
from sympy.printing.precedence import PRECEDENCE
from sympy.printing.pretty.pretty import PrettyPrinter
from sympy.printing.pretty.stringpict import prettyForm
from sympy.printing.str import StrPrinter

from quizzer.answers.functions import BY_NAME
from quizzer.answers.limits import (
    MAX_DIGITS,
    MAX_EXPONENT,
    MAX_FACTORIAL,
    PRINT_DIGITS,
    ROOT_DIGITS,
)
from quizzer.answers.reading import Series
from quizzer.answers.syntax import (
    PLAIN_ARITHMETIC,
    Binary,
    Call,
    Const,
    Neg,
    Node,
    Num,
    Sym,
    SymbolTable,
    TooLarge,
    Transpose,
)
from quizzer.answers.tree import Fold, fold


@lru_cache(maxsize=256)
def _symbol(name: str, kind: str) -> sympy.Symbol:
    if kind == "matrix":
        return sympy.Symbol(name, commutative=False)
    if kind == "positive":
        return sympy.Symbol(name, positive=True)
    return sympy.Symbol(name, real=True)


def symbol_kind(table: SymbolTable, name: str) -> str:
    if name in table.matrices:
        return "matrix"
    return "positive" if name in table.positives else "real"


@cache
def _sympy_function(name: str) -> Any:
    return BY_NAME[name].sympy(sympy)


class _ToSympy(Fold[Any]):
    def __init__(self, table: SymbolTable) -> None:
        self.table = table

    def num(self, node: Num) -> Any:
        return sympy.Rational(node.value.numerator, node.value.denominator)

    def sym(self, node: Sym) -> Any:
        return _symbol(node.name, symbol_kind(self.table, node.name))

    def const(self, node: Const) -> Any:
        return sympy.pi if node.name == "pi" else sympy.E

    def neg(self, node: Neg, operand: Any) -> Any:
        return -operand

    def transpose(self, node: Transpose, operand: Any) -> Any:
        return sympy.transpose(operand)

    def binary(self, node: Binary, left: Any, right: Any) -> Any:
        if node.op in PLAIN_ARITHMETIC:
            return PLAIN_ARITHMETIC[node.op](left, right)
        if node.op == "/":
            return left / right
        _check_power(left, right)
        return left**right

    def call(self, node: Call, args: list[Any]) -> Any:
        if node.function == "factorial":
            _check_factorial(args[0])
        for arg in args:
            _check_digits(arg)
        return _sympy_function(node.function)(*args)

    def series(self, node: Series, low: Any, high: Any, term: Callable[[Node], Any]) -> Any:
        variable = fold(Sym(node.variable), self)
        limits = (variable, low, sympy.oo if high is None else high)
        form = sympy.Sum if node.kind == "sum" else sympy.Product
        return form(term(Sym(node.variable)), limits)


def to_sympy(node: Node, table: SymbolTable) -> Any:
    """Build the SymPy expression for a tree. Raises TooLarge past the limits."""
    return fold(node, _ToSympy(table))


# SymPy evaluates powers and factorials of numbers exactly, as it builds them,
# in big-integer code that no timer signal can interrupt. The tree's own
# limits bound most of that, but they estimate values (max(1e-6, 1/1e-6) was
# taken for about 1, so its factorial of a million ran for 19 s, found by
# atheris). Here the real numbers are known: price them before SymPy starts.


def _digits(number: Any) -> float:
    height = max(abs(number.p), number.q)
    return height.bit_length() * math.log10(2)


def _largest_digits(expr: Any) -> float:
    """Digits of the longest number in an expression (SymPy splits powers of products)."""
    if expr.is_Rational:
        return _digits(expr)
    return max((_digits(atom) for atom in expr.atoms(sympy.Rational)), default=0.0)


def _check_digits(argument: Any) -> None:
    if _largest_digits(argument) > ROOT_DIGITS:
        raise TooLarge("too large to judge")


def _check_factorial(argument: Any) -> None:
    if argument.is_Number and abs(argument) > MAX_FACTORIAL:
        raise TooLarge("factorial too large to judge")


def _check_power(base: Any, exponent: Any) -> None:
    if not exponent.is_Rational:
        return  # a symbolic exponent: SymPy leaves the power alone
    if abs(exponent) > MAX_EXPONENT:
        raise TooLarge("exponent too large to judge")
    if exponent.q != 1:
        _check_digits(base)  # roots of big numbers, also inside products: sqrt(10^999 x)
    digits = _largest_digits(base)
    if digits > 0.5 and abs(exponent) * digits > MAX_DIGITS:
        raise TooLarge("answer too large to judge")


def has_huge_number(expr: Any, digits: int = PRINT_DIGITS) -> bool:
    """True when printing ``expr`` would write a number of more than ``digits`` digits."""
    return any(_digits(atom) > digits for atom in expr.atoms(sympy.Rational))


class _PlainPrinter(StrPrinter):
    """SymPy's str form, with transposes written K^T as learners write them."""

    def _print_transpose(self, expr: Any) -> str:
        return f"{self.parenthesize(expr.args[0], PRECEDENCE['Pow'])}^T"


class _PrettyPrinter(PrettyPrinter):
    def _print_transpose(self, expr: Any) -> Any:
        base = self._print(expr.args[0])
        if expr.args[0].is_Atom is False:
            base = prettyForm(*base.parens())
        return base ** prettyForm("T")


def plain(expr: Any) -> str:
    """One-line form, e.g. ``sqrt(d_k)``."""
    return _PlainPrinter({"order": None}).doprint(expr)


@cache
def warm() -> None:
    """Load what SymPy's printers load on first use (the pretty printer imports
    ``sympy.physics.units`` on the first product it prints: ~0.5 s), so that it
    happens outside any time limit: an import cut short leaves SymPy half-loaded."""
    x, y = sympy.symbols("x y")
    pretty(2 * x * y / (x + 1))
    plain(2 * x * y / (x + 1))


def pretty(expr: Any) -> str:
    """SymPy's Unicode pretty form (may span several lines)."""
    return _PrettyPrinter({"use_unicode": True, "wrap_line": False}).doprint(expr)


def same_after_normalising(a: Any, b: Any) -> bool:
    """Cheap exact check: equal once SymPy has put both in canonical form."""
    if a == b:
        return True
    try:
        difference = a - b
    except TypeError:
        return False
    return difference == 0


def canonical(expr: Any) -> str:
    """An exact, unambiguous text of an expression (for fingerprints)."""
    try:
        return sympy.srepr(expr)
    except ValueError:
        # An integer past Python's 4,300-digit limit on int -> str (factorial(2000)*x);
        # the answer limits allow 20,000 digits, so allow them for this one text.
        import sys

        previous = getattr(sys, "get_int_max_str_digits", lambda: 0)()
        if not previous:  # Python without the limit: the first failure was not it
            raise
        sys.set_int_max_str_digits(max(previous, 2 * MAX_DIGITS))
        try:
            return sympy.srepr(expr)
        finally:
            sys.set_int_max_str_digits(previous)
