"""What reading an answer makes: the tree's nodes, and the errors that say why not.

Nodes are quizzer's own immutable values; nothing in them was ever evaluated.
The errors carry a message written for the learner and, where one is known,
the column of the answer it points at.
"""

from __future__ import annotations

import difflib
import operator
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from quizzer.answers.words import within_one_edit

# -- errors ---------------------------------------------------------------------


class AnswerError(Exception):
    """An answer that cannot be judged. ``message`` is written for the learner."""

    kind = "unreadable"

    def __init__(self, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


class TooLarge(AnswerError):
    """The answer is beyond the judge's size limits."""

    kind = "too_large"


def did_you_mean(typed: str, known: Iterable[str]) -> str | None:
    """The known word closest to a typo (``sigmiod`` -> ``sigmoid``), if one is close."""
    if len(typed) < 4:
        return None  # two or three letters resemble too many names to guess from
    candidates = [word for word in dict.fromkeys(known) if word != typed]
    # One slip (a swap before a dropped letter: tahn is tanh, not tan) beats a likeness.
    for same_length in (True, False):
        for word in candidates:
            if (len(word) == len(typed)) is same_length and within_one_edit(typed, word):
                return word
    close = difflib.get_close_matches(typed, candidates, n=1, cutoff=0.75)
    if not close:
        lowered = {word.lower(): word for word in candidates}
        close = [lowered[w] for w in difflib.get_close_matches(typed.lower(), lowered, 1, 0.75)]
    return close[0] if close else None


class UnknownSymbol(AnswerError):
    """A name the card does not declare."""

    def __init__(
        self, name: str, column: int, known: Iterable[str], suggestion: str | None = None
    ) -> None:
        names = ", ".join(known)
        uses = f" (this card uses {names})" if names else " (this card declares no symbols)"
        hint = f"; did you mean '{suggestion}'?" if suggestion else ""
        super().__init__(f"unknown symbol '{name}'{uses}{hint}", column)
        self.name = name
        self.suggestion = suggestion


class CircularDefinition(AnswerError):
    """A defined symbol whose definition leads back to itself."""


# -- the tree -------------------------------------------------------------------


class Node:
    """Base class of expression nodes. Nodes are immutable values."""

    __slots__ = ()


@dataclass(frozen=True)
class Num(Node):
    value: Fraction


@dataclass(frozen=True)
class Sym(Node):
    name: str


@dataclass(frozen=True)
class Const(Node):
    name: str  # "pi" or "e"


@dataclass(frozen=True)
class Neg(Node):
    operand: Node


@dataclass(frozen=True)
class Binary(Node):
    op: str  # one of + - * / ^
    left: Node
    right: Node


#: The operators whose meaning no evaluator changes; '/' and '^' differ (zero
#: divisors, overflow, matrices, size limits), so each evaluator writes its own.
PLAIN_ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul}


@dataclass(frozen=True)
class Transpose(Node):
    operand: Node


@dataclass(frozen=True)
class Call(Node):
    function: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Series(Node):
    """A sum or product over a whole-number variable that is local to ``body``.

    ``high`` is None for a series to infinity (sums only).
    """

    kind: str  # "sum" or "prod"
    variable: str
    low: Node
    high: Node | None
    body: Node


def children(node: Node) -> tuple[Node, ...]:
    """The sub-trees directly under ``node``."""
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, (Neg, Transpose)):
        return (node.operand,)
    if isinstance(node, Call):
        return node.args
    if isinstance(node, Series):
        bounds = (node.low,) if node.high is None else (node.low, node.high)
        return (*bounds, node.body)
    return ()


def free_symbols(tree: Node) -> set[str]:
    """The symbols of ``tree`` that no sum or product binds."""
    if isinstance(tree, Sym):
        return {tree.name}
    if isinstance(tree, Series):
        inner = free_symbols(tree.body) - {tree.variable}
        return inner.union(*(free_symbols(bound) for bound in children(tree)[:-1]))
    return set().union(*(free_symbols(child) for child in children(tree)))


def substitute(node: Node, replacements: Mapping[str, Node]) -> Node:
    """``node`` with each free symbol in ``replacements`` replaced by its tree."""
    if not replacements:
        return node
    if isinstance(node, Sym):
        return replacements.get(node.name, node)
    if isinstance(node, Binary):
        return Binary(
            node.op, substitute(node.left, replacements), substitute(node.right, replacements)
        )
    if isinstance(node, Neg):
        return Neg(substitute(node.operand, replacements))
    if isinstance(node, Transpose):
        return Transpose(substitute(node.operand, replacements))
    if isinstance(node, Call):
        return Call(node.function, tuple(substitute(a, replacements) for a in node.args))
    if isinstance(node, Series):
        inside = {name: tree for name, tree in replacements.items() if name != node.variable}
        high = None if node.high is None else substitute(node.high, replacements)
        return Series(
            node.kind,
            node.variable,
            substitute(node.low, replacements),
            high,
            substitute(node.body, inside),
        )
    return node
