"""The typical wrong answers of an answer tree, and a tree written back as text.

One list of transformations serves two readers: the diagnosis of a wrong
answer (is the learner's answer the expected one with a root dropped, two
symbols swapped, another log base?) and ``quizzer audit`` (does the judge
refuse each of them?). Each mutant carries the sentence a learner is told
when their answer is that mutant, so a diagnosis is only ever a claim that
has been checked against the values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from quizzer.answers.syntax import Binary, Call, Const, Neg, Node, Num, Sym, Transpose
from quizzer.answers.tree import symbols_used

#: How many mutants of one kind a tree gives at most: a long sum has many
#: terms, and the diagnosis must stay cheap.
MAX_PER_KIND = 6

#: The logarithms a learner confuses, by canonical name.
LOG_BASES = ("log", "lg", "lb")
_LOG_WORDS = {"log": "the natural log", "lg": "log base 10", "lb": "log base 2"}


@dataclass(frozen=True)
class Mutant:
    """One typical wrong answer: the tree, its kind and what a learner is told."""

    tree: Node
    kind: str
    feedback: str


# -- writing a tree back as text --------------------------------------------------

#: Numbers past this many bits are not written out (Python refuses 4,300 digits).
_HUGE_BITS = 4000
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "^": 4}


def to_text(node: Node) -> str:
    """``node`` as an answer the parser reads back to the same tree's value."""
    return _text(node, 0)


def _text(node: Node, outer: int) -> str:
    if isinstance(node, Num):
        value = node.value
        if max(value.numerator.bit_length(), value.denominator.bit_length()) > _HUGE_BITS:
            return "(a huge number)"  # feedback only: a card's answer is never this large
        text = str(value.numerator) if value.denominator == 1 else f"{value}"
        needs = value < 0 or value.denominator != 1
        return f"({text})" if needs and outer > 0 else text
    if isinstance(node, Sym | Const):
        return node.name
    if isinstance(node, Neg):
        text = f"-{_text(node.operand, 3)}"
        return f"({text})" if outer > 1 else text
    if isinstance(node, Transpose):
        return f"{_text(node.operand, 5)}ᵀ"
    if isinstance(node, Call):
        return f"{node.function}({', '.join(_text(arg, 0) for arg in node.args)})"
    assert isinstance(node, Binary)
    own = _PRECEDENCE[node.op]
    if node.op == "^":
        text = f"{_text(node.left, 5)}^{_text(node.right, 5)}"
    else:
        # the right side of - and / binds tighter: a - (b - c), a / (b * c)
        right_outer = own + 1 if node.op in "-/" else own
        text = f"{_text(node.left, own)} {node.op} {_text(node.right, right_outer)}"
    return f"({text})" if own < outer or (own == outer and outer == 4) else text


# -- parts of a tree ---------------------------------------------------------------


def terms(node: Node) -> list[tuple[int, Node]]:
    """The terms of a sum, each with its sign: a - b + c -> [(+1, a), (-1, b), (+1, c)]."""
    if isinstance(node, Binary) and node.op in "+-":
        right = terms(node.right)
        if node.op == "-":
            right = [(-sign, term) for sign, term in right]
        return terms(node.left) + right
    if isinstance(node, Neg):
        return [(-sign, term) for sign, term in terms(node.operand)]
    return [(1, node)]


def factors(node: Node) -> list[tuple[int, Node]]:
    """The factors of a product, each with its power: a b / c -> [(1, a), (1, b), (-1, c)]."""
    if isinstance(node, Binary) and node.op in "*/":
        right = factors(node.right)
        if node.op == "/":
            right = [(-power, factor) for power, factor in right]
        return factors(node.left) + right
    return [(1, node)]


def sum_of(parts: Sequence[tuple[int, Node]]) -> Node:
    first_sign, first = parts[0]
    tree: Node = first if first_sign > 0 else Neg(first)
    for sign, term in parts[1:]:
        tree = Binary("+" if sign > 0 else "-", tree, term)
    return tree


def product_of(parts: Sequence[tuple[int, Node]]) -> Node:
    tree: Node | None = None
    for power, factor in parts:
        if tree is None:
            tree = factor if power > 0 else Binary("/", Num(Fraction(1)), factor)
        else:
            tree = Binary("*" if power > 0 else "/", tree, factor)
    return tree if tree is not None else Num(Fraction(1))


def replace_each(node: Node, change: Callable[[Node], Node | None]) -> Iterator[Node]:
    """``node`` with one subtree changed, for each subtree ``change`` gives a replacement for."""
    replacement = change(node)
    if replacement is not None:
        yield replacement
    if isinstance(node, Neg | Transpose):
        for inner in replace_each(node.operand, change):
            yield type(node)(inner)
    elif isinstance(node, Binary):
        for left in replace_each(node.left, change):
            yield Binary(node.op, left, node.right)
        for right in replace_each(node.right, change):
            yield Binary(node.op, node.left, right)
    elif isinstance(node, Call):
        for index, arg in enumerate(node.args):
            for inner in replace_each(arg, change):
                args = list(node.args)
                args[index] = inner
                yield Call(node.function, tuple(args))


def substitute(node: Node, values: Mapping[str, Node]) -> Node:
    """``node`` with each symbol named in ``values`` replaced at once (a swap stays a swap)."""
    if isinstance(node, Sym):
        return values.get(node.name, node)
    if isinstance(node, Neg | Transpose):
        return type(node)(substitute(node.operand, values))
    if isinstance(node, Binary):
        return Binary(node.op, substitute(node.left, values), substitute(node.right, values))
    if isinstance(node, Call):
        return Call(node.function, tuple(substitute(arg, values) for arg in node.args))
    return node


# -- the mutants -------------------------------------------------------------------


def _first(items: Iterator[Mutant]) -> Iterator[Mutant]:
    for count, item in enumerate(items):
        if count >= MAX_PER_KIND:
            return
        yield item


def mutants(
    tree: Node, *, integers: frozenset[str] = frozenset(), matrices: frozenset[str] = frozenset()
) -> Iterator[Mutant]:
    """The typical wrong answers of ``tree``, most common first.

    ``integers`` and ``matrices`` name the card's integer and matrix symbols
    (n ± 1 is a mistake only in a count; a transpose only of a matrix).
    """
    two = Num(Fraction(2))
    whole_matrix = bool(symbols_used(tree) & matrices)
    yield Mutant(Neg(tree), "sign", "right size, wrong sign")
    if not whole_matrix:
        yield Mutant(Binary("/", Num(Fraction(1)), tree), "reciprocal",
                     "that is the reciprocal of the answer (upside down)")  # fmt: skip
        yield Mutant(Binary("^", tree, two), "square", "that is the square of the answer")
        yield Mutant(Call("sqrt", (tree,)), "root", "that is the square root of the answer")
    yield Mutant(Binary("*", two, tree), "factor", "off by a factor: yours is 2 times the answer")
    yield Mutant(Binary("/", tree, two), "factor",
                 "off by a factor: yours is 1/2 times the answer")  # fmt: skip
    yield from _first(_swapped_symbols(tree, matrices))
    yield from _first(_off_by_one(tree, integers))
    yield from _first(_other_log_bases(tree))
    yield from _first(_dropped_roots(tree))
    yield from _first(_dropped_powers(tree))
    yield from _first(_dropped_terms(tree))
    yield from _first(_dropped_factors(tree))
    yield from _first(_flipped_terms(tree))
    yield from _first(_inverted_factors(tree))
    if whole_matrix:
        yield Mutant(Transpose(tree), "transpose", "that is the transpose of the answer")
        yield from _first(_dropped_transposes(tree))


def _dropped_roots(tree: Node) -> Iterator[Mutant]:
    def drop(node: Node) -> Node | None:
        return node.args[0] if isinstance(node, Call) and node.function == "sqrt" else None

    for changed in replace_each(tree, drop):
        yield Mutant(changed, "drop-root", "a square root is missing from yours")
    half = Fraction(1, 2)

    def drop_half(node: Node) -> Node | None:
        if isinstance(node, Binary) and node.op == "^" and node.right == Num(half):
            return node.left
        return None

    for changed in replace_each(tree, drop_half):
        yield Mutant(changed, "drop-root", "a square root is missing from yours")


def _dropped_powers(tree: Node) -> Iterator[Mutant]:
    def drop(node: Node) -> Node | None:
        if isinstance(node, Binary) and node.op == "^" and node.right != Num(Fraction(1, 2)):
            return node.left
        return None

    for changed in replace_each(tree, drop):
        yield Mutant(changed, "drop-power", "a power is missing from yours")


def _dropped_terms(tree: Node) -> Iterator[Mutant]:
    def drop(node: Node) -> Iterator[tuple[Node, Node]]:
        parts = terms(node)
        if len(parts) < 2:
            return
        for index, (_, term) in enumerate(parts):
            yield sum_of(parts[:index] + parts[index + 1 :]), term

    for whole, inner_tree in _at_each_node(tree, drop):
        yield Mutant(whole, "drop-term", f"a term is missing from yours: {to_text(inner_tree)}")


def _dropped_factors(tree: Node) -> Iterator[Mutant]:
    def drop(node: Node) -> Iterator[tuple[Node, Node]]:
        parts = factors(node)
        if len(parts) < 2:
            return
        for index, (_, factor) in enumerate(parts):
            if isinstance(factor, Num):
                continue  # a dropped number is a constant factor, said more precisely
            yield product_of(parts[:index] + parts[index + 1 :]), factor

    for whole, inner_tree in _at_each_node(tree, drop):
        yield Mutant(whole, "drop-factor", f"a factor is missing from yours: {to_text(inner_tree)}")


def _flipped_terms(tree: Node) -> Iterator[Mutant]:
    def flip(node: Node) -> Iterator[tuple[Node, Node]]:
        parts = terms(node)
        if len(parts) < 2:
            return
        for index, (sign, term) in enumerate(parts):
            yield sum_of([*parts[:index], (-sign, term), *parts[index + 1 :]]), term

    for whole, term in _at_each_node(tree, flip):
        yield Mutant(whole, "term-sign", f"a sign is wrong in yours: the term {to_text(term)}")


def _inverted_factors(tree: Node) -> Iterator[Mutant]:
    def invert(node: Node) -> Iterator[tuple[Node, Node]]:
        parts = factors(node)
        if len(parts) < 2:
            return
        for index, (power, factor) in enumerate(parts):
            if index == 0 and power > 0 and len(parts) == 2 and parts[1][0] < 0:
                continue  # a / b -> 1 / (a b)... keep: b / a is the reciprocal, said already
            yield product_of([*parts[:index], (-power, factor), *parts[index + 1 :]]), factor

    for whole, factor in _at_each_node(tree, invert):
        yield Mutant(whole, "factor-inverted",
                     f"upside down in yours: the factor {to_text(factor)}")  # fmt: skip


def _at_each_node(
    tree: Node, changes: Callable[[Node], Iterator[tuple[Node, Node]]]
) -> Iterator[tuple[Node, Node]]:
    """(tree with one node changed, the part removed) for the top node, then the others."""
    for changed, removed in changes(tree):
        yield changed, removed
    for child, rebuild in _children(tree):
        for changed, removed in _at_each_node(child, changes):
            yield rebuild(changed), removed


def _children(tree: Node) -> list[tuple[Node, Callable[[Node], Node]]]:
    """Each part of ``tree`` to look inside, with how to put a changed part back.

    The parts of a sum or product are its terms or factors (changed as a
    whole by the caller); of anything else, its operands.
    """
    if isinstance(tree, Neg):
        return [(tree.operand, Neg)]
    if isinstance(tree, Transpose):
        return [(tree.operand, Transpose)]
    if isinstance(tree, Call):
        return [(arg, _call_rebuilder(tree, index)) for index, arg in enumerate(tree.args)]
    if isinstance(tree, Binary) and tree.op == "^":
        return [(tree.left, lambda n: Binary("^", n, tree.right)),
                (tree.right, lambda n: Binary("^", tree.left, n))]  # fmt: skip
    if isinstance(tree, Binary):
        parts = terms(tree) if tree.op in "+-" else factors(tree)
        join = sum_of if tree.op in "+-" else product_of
        return [
            (part, _part_rebuilder(parts, index, join)) for index, (_, part) in enumerate(parts)
        ]
    return []


def _call_rebuilder(call: Call, index: int) -> Callable[[Node], Node]:
    return lambda n: Call(call.function, (*call.args[:index], n, *call.args[index + 1 :]))


def _part_rebuilder(
    parts: list[tuple[int, Node]], index: int, join: Callable[[Sequence[tuple[int, Node]]], Node]
) -> Callable[[Node], Node]:
    sign = parts[index][0]
    return lambda n: join([*parts[:index], (sign, n), *parts[index + 1 :]])


def _swapped_symbols(tree: Node, matrices: frozenset[str]) -> Iterator[Mutant]:
    names = sorted(symbols_used(tree))
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            if (first in matrices) != (second in matrices):
                continue
            swapped = substitute(tree, {first: Sym(second), second: Sym(first)})
            yield Mutant(swapped, "swap", f"{first} and {second} are swapped in yours")


def _off_by_one(tree: Node, integers: frozenset[str]) -> Iterator[Mutant]:
    one = Num(Fraction(1))
    for name in sorted(symbols_used(tree) & integers):
        for op, said in (("+", f"{name} + 1"), ("-", f"{name} - 1")):
            changed = substitute(tree, {name: Binary(op, Sym(name), one)})
            yield Mutant(
                changed, "off-by-one", f"off by one: yours has {said} where the answer has {name}"
            )


def _other_log_bases(tree: Node) -> Iterator[Mutant]:
    for base in LOG_BASES:
        for other in LOG_BASES:
            if other == base:
                continue

            def change(node: Node, base: str = base, other: str = other) -> Node | None:
                if isinstance(node, Call) and node.function == base and len(node.args) == 1:
                    return Call(other, node.args)
                return None

            for changed in replace_each(tree, change):
                said = (
                    f"wrong log base: yours is {_LOG_WORDS[other]}, the answer {_LOG_WORDS[base]}"
                )
                yield Mutant(changed, "log-base", said)


def _dropped_transposes(tree: Node) -> Iterator[Mutant]:
    def drop(node: Node) -> Node | None:
        return node.operand if isinstance(node, Transpose) else None

    for changed in replace_each(tree, drop):
        yield Mutant(changed, "drop-transpose", "a transpose is missing from yours")
