"""What reading an answer makes: the tree's nodes, and the errors that say why not.

Nodes are quizzer's own immutable values; nothing in them was ever evaluated.
The errors carry a message written for the learner and, where one is known,
the column of the answer it points at.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

# -- errors ---------------------------------------------------------------------

#: The constants an answer may name.
CONSTANTS = ("pi", "e")


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


def edit_distance(a: str, b: str, limit: int) -> int:
    """Edits (insert, delete, replace, swap two neighbours) that turn ``a`` into ``b``;
    ``limit + 1`` as soon as it is sure to be more than ``limit``."""
    if abs(len(a) - len(b)) > limit or len(set(a) ^ set(b)) > 2 * limit:
        return limit + 1  # each edit adds or removes at most one letter of each side
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        current = [i]
        for j, other in enumerate(b, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other))
            if i > 1 and j > 1 and char == b[j - 2] and a[i - 2] == other:
                cost = min(cost, previous2[j - 2] + 1)
            current.append(cost)
        if min(current) > limit:
            return limit + 1  # every alignment already costs more
        previous2, previous = previous, current
    return previous[-1]


def did_you_mean(typed: str, known: Iterable[str]) -> str | None:
    """The known word closest to a typo (``sigmiod`` -> ``sigmoid``), if one is close.

    Only names in ``known`` are suggested, nearest first; among equally near
    ones a slip that keeps the length (a swap: ``tahn`` is ``tanh``, not
    ``tan``) wins, then the order of ``known``: the card's own names before
    the registry's, and the registry's in order of use.
    """
    if len(typed) < 4:
        return None  # two or three letters resemble too many names to guess from
    candidates = [word for word in dict.fromkeys(known) if word != typed]
    allowed = 1 if len(typed) <= 5 else 2
    for folded in (False, True):
        best: tuple[tuple[int, bool, int], str] | None = None
        for rank, word in enumerate(candidates):
            left, right = (typed.lower(), word.lower()) if folded else (typed, word)
            distance = edit_distance(left, right, allowed)
            key = (distance, len(word) != len(typed), rank)
            if distance <= allowed and (best is None or key < best[0]):
                best = (key, word)
        if best is not None:
            return best[1]
    return None


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
