"""Extra sample points on both sides of where a piecewise answer changes formula.

``max(0, r - 5000)`` is 0 at every random point when r is drawn below 1,000:
the term is seen only past its kink. Kinks are found from the tree, for any
function: wherever an argument of a call is 0 (``abs``, ``sign``, ``relu``,
``floor``) or two arguments are equal (``max``, ``min``, ``clip`` at its
bounds). Each such place is located along one symbol by bisection from a
random point, and points are put a little to either side of it, inside the
symbol's domain. Smooth functions get a few harmless extra points; no list
of piecewise functions is kept here, so new registry entries are covered.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import mpmath

from quizzer.answers import numeric
from quizzer.answers.syntax import Binary, Call, Neg, Node, Transpose
from quizzer.answers.tree import symbols_used

#: Kinks looked for per judgement, and float evaluations spent on finding them.
MAX_KINKS = 6
MAX_EVALUATIONS = 150
#: Where to look for a change of sign along a symbol: magnitudes 1e-3 to 1e7.
_SCAN = tuple(10.0**k for k in range(-3, 8))
#: Halvings of a bracket: a decade narrowed to a millionth of itself is close
#: enough, since the points go 5% to either side.
_BISECTIONS = 24


def _calls(node: Node) -> Iterator[Call]:
    if isinstance(node, Call):
        yield node
        for arg in node.args:
            yield from _calls(arg)
    elif isinstance(node, Binary):
        yield from _calls(node.left)
        yield from _calls(node.right)
    elif isinstance(node, Neg | Transpose):
        yield from _calls(node.operand)


def kink_expressions(trees: Sequence[Node], known: Node | None = None) -> list[Node]:
    """Expressions whose zeros are where some call in ``trees`` may change formula
    (leaving out the calls that ``known`` makes too: their kinks are known)."""
    found: list[Node] = []
    made = set(_calls(known)) if known is not None else set()
    for tree in trees:
        for call in _calls(tree):
            if call in made:
                continue
            args = [arg for arg in call.args if symbols_used(arg)]
            found.extend(args)
            found.extend(
                Binary("-", first, second)
                for i, first in enumerate(call.args)
                for second in call.args[i + 1 :]
                if symbols_used(first) | symbols_used(second)
            )
    unique = list(dict.fromkeys(found))
    return unique[:MAX_KINKS]


class _Budget:
    def __init__(self) -> None:
        self.left = MAX_EVALUATIONS

    def value(self, tree: Node, point: numeric.Point) -> float | None:
        if self.left <= 0:
            return None
        self.left -= 1
        try:
            value = numeric.evaluate(tree, point)
        except (numeric.Undefined, numeric.Overflow, numeric.NotDefined):
            return None
        return None if numeric.is_matrix(value) else float(value)


def _with(point: numeric.Point, name: str, value: float) -> numeric.Point:
    return numeric.Point({**point.floats, name: value}, {**point.exact, name: mpmath.mpf(value)})


def _inside(domain: numeric.Domain, value: float) -> bool:
    low_ok = domain.low is None or value > domain.low
    high_ok = domain.high is None or value < domain.high
    return low_ok and high_ok


def _ends(domain: numeric.Domain) -> set[float]:
    """Just inside each end of a range: a kink past every scanned magnitude
    (max(0, x - 9990) on [0, 10000]) is bracketed only by the end."""
    ends = set()
    for end in (domain.low, domain.high):
        if end is not None:
            inward = 1e-9 * max(1.0, abs(end)) * (1 if end == domain.low else -1)
            if _inside(domain, end + inward):
                ends.add(end + inward)
    return ends


def _root(
    tree: Node, point: numeric.Point, name: str, domain: numeric.Domain, budget: _Budget
) -> float | None:
    """Where ``tree`` changes sign along ``name`` from ``point``, by bisection."""
    candidates = sorted({t for s in _SCAN for t in (s, -s) if _inside(domain, t)} | _ends(domain))
    signs: list[tuple[float, float]] = []
    for t in candidates:
        value = budget.value(tree, _with(point, name, t))
        if value is None:
            continue
        if value == 0:
            return t
        if signs and (signs[-1][1] < 0) != (value < 0):
            low, high = signs[-1][0], t
            low_sign = signs[-1][1] < 0
            for _ in range(_BISECTIONS):
                middle = (low + high) / 2
                inner = budget.value(tree, _with(point, name, middle))
                if inner is None:
                    return None
                if (inner < 0) == low_sign:
                    low = middle
                else:
                    high = middle
            return (low + high) / 2
        signs.append((t, value))
    return None


def kink_points(
    trees: Sequence[Node],
    base: Sequence[numeric.Point],
    domains: Mapping[str, numeric.Domain],
    *,
    known: Node | None = None,
) -> list[numeric.Point]:
    """Points on both sides of each kink of ``trees`` (but those of calls ``known``
    makes too), inside the declared domains."""
    points: list[numeric.Point] = []
    budget = _Budget()
    scalars = [name for name, domain in domains.items() if not domain.matrix and not domain.integer]
    for expression in kink_expressions(trees, known):
        names = [name for name in scalars if name in symbols_used(expression)]
        if not names or not base:
            continue
        name, start = names[0], base[len(points) % len(base)]
        root = _root(expression, start, name, domains[name], budget)
        if root is None:
            continue
        step = 0.05 * (abs(root) + 1)
        domain = domains[name]
        for side in (-1, 1):
            value = root + side * step
            end = domain.high if side > 0 else domain.low
            if not _inside(domain, value) and end is not None:
                value = (root + end) / 2  # the kink is near an end: the other side is narrow
            if _inside(domain, value) and value != root:
                points.append(_with(start, name, value))
    return points
