"""The answer tree as a SymPy expression: for reading it back and for exact checks.

SymPy objects are built node by node from quizzer's own tree, never from
text. The tree's size limits (see :mod:`quizzer.answers.syntax`) keep
SymPy's automatic evaluation cheap.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import sympy
from sympy.printing.precedence import PRECEDENCE
from sympy.printing.pretty.pretty import PrettyPrinter
from sympy.printing.pretty.stringpict import prettyForm
from sympy.printing.str import StrPrinter

from quizzer.answers.syntax import (
    MAX_DIGITS,
    MAX_EXPONENT,
    MAX_FACTORIAL,
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

_softmax = sympy.Function("softmax")


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


def to_sympy(node: Node, table: SymbolTable) -> Any:
    """Build the SymPy expression for a tree."""
    if isinstance(node, Num):
        return sympy.Rational(node.value.numerator, node.value.denominator)
    if isinstance(node, Sym):
        return _symbol(node.name, symbol_kind(table, node.name))
    if isinstance(node, Const):
        return sympy.pi if node.name == "pi" else sympy.E
    if isinstance(node, Neg):
        return -to_sympy(node.operand, table)
    if isinstance(node, Transpose):
        return sympy.transpose(to_sympy(node.operand, table))
    if isinstance(node, Binary):
        left, right = to_sympy(node.left, table), to_sympy(node.right, table)
        if node.op == "+":
            return left + right
        if node.op == "-":
            return left - right
        if node.op == "*":
            return left * right
        if node.op == "/":
            return left / right
        _check_power(left, right)
        return left**right
    if isinstance(node, Call):
        args = [to_sympy(arg, table) for arg in node.args]
        if node.function == "factorial":
            _check_factorial(args[0])
        return _FUNCTIONS[node.function](*args)
    raise TypeError(node)  # pragma: no cover


# SymPy evaluates powers and factorials of numbers exactly, as it builds them,
# in big-integer code that no timer signal can interrupt. The tree's own
# limits bound most of that, but they estimate values (max(1e-6, 1/1e-6) was
# taken for about 1, so its factorial of a million ran for 19 s, found by
# atheris). Here the real numbers are known: check them before SymPy starts.


def _check_factorial(argument: Any) -> None:
    if argument.is_Number and abs(argument) > MAX_FACTORIAL:
        raise TooLarge("factorial too large to judge")


def _check_power(base: Any, exponent: Any) -> None:
    if not (base.is_Rational and exponent.is_Rational):
        return
    if abs(exponent) > MAX_EXPONENT:
        raise TooLarge("exponent too large to judge")
    height = max(abs(base.p), base.q)
    if height > 1 and abs(exponent) * math.log10(height) > MAX_DIGITS:
        raise TooLarge("answer too large to judge")


_FUNCTIONS: dict[str, Any] = {
    "sqrt": sympy.sqrt,
    "exp": sympy.exp,
    "log": sympy.log,
    "sin": sympy.sin,
    "cos": sympy.cos,
    "tan": sympy.tan,
    "tanh": sympy.tanh,
    "sigmoid": lambda x: 1 / (1 + sympy.exp(-x)),
    "softmax": _softmax,
    "abs": sympy.Abs,
    "max": sympy.Max,
    "min": sympy.Min,
    "factorial": sympy.factorial,
}


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
    return sympy.srepr(expr)
