"""How many plausible wrong answers to the bundled deck get only the generic line.

With ``--rewritten`` the slips are made in the answer as SymPy prints it,
so no slip is the one difference from the card's own tree.

The wrong answers here are NOT the audit's mutants (which the diagnosis
catalogue is built from): they are small slips made one at a time at every
place in the answer's tree — an operator flipped (+/-, */÷), a number
changed, one occurrence of a symbol replaced by another, a function
replaced by a relative (sqrt/log/exp, sin/cos, tanh/sigmoid...), an
exponent changed — so the figure measures unanticipated answers. Answers
the judge accepts (the slip changed nothing) are left out.

    .venv/bin/python bench/generic_feedback.py [--limit-per-blank N]

Prints the share of refused answers whose feedback is "not equivalent to
the expected answer" (issue 22: at most a quarter), and the commonest ones.
"""

from __future__ import annotations

import argparse
import collections
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from quizzer.answers import CardJudge, judge_bounded
from quizzer.answers.diagnosis import GENERIC
from quizzer.answers.mutants import replace_each, to_text
from quizzer.answers.syntax import AnswerError, Binary, Call, Node, Num, Sym, parse
from quizzer.answers.tree import symbols_used
from quizzer.cards.deck import deck_sources, load_deck

_OPERATOR = {"+": "-", "-": "+", "*": "/", "/": "*"}
_RELATIVES = {
    "sqrt": ("log", "exp"),
    "log": ("sqrt", "exp"),
    "exp": ("log", "sqrt"),
    "sin": ("cos",),
    "cos": ("sin",),
    "tanh": ("sigmoid",),
    "sigmoid": ("tanh",),
    "max": ("min",),
    "min": ("max",),
}


def slips(tree: Node) -> Iterator[Node]:
    """Wrong answers one small slip away from ``tree``."""
    names = sorted(symbols_used(tree))

    def flip(node: Node) -> Node | None:
        if isinstance(node, Binary) and node.op in _OPERATOR:
            return Binary(_OPERATOR[node.op], node.left, node.right)
        return None

    def number(node: Node) -> Node | None:
        if isinstance(node, Num) and node.value != 0:
            return Num(node.value + 1 if node.value.denominator == 1 else node.value * 2)
        return None

    def exponent(node: Node) -> Node | None:
        if isinstance(node, Binary) and node.op == "^":
            return Binary("^", node.left, Binary("+", node.right, Num(Fraction(1))))
        return None

    def relative(node: Node) -> Node | None:
        if isinstance(node, Call) and node.function in _RELATIVES and len(node.args) <= 2:
            return Call(_RELATIVES[node.function][0], node.args[:1])
        return None

    for change in (flip, number, exponent, relative):
        yield from replace_each(tree, change)
    for name in names:
        for other in names:
            if other != name:

                def rename(node: Node, name: str = name, other: str = other) -> Node | None:
                    return Sym(other) if node == Sym(name) else None

                yield from replace_each(tree, rename)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit-per-blank", type=int, default=12)
    parser.add_argument(
        "--rewritten",
        action="store_true",
        help="make the slips in the answer as SymPy prints it (str), not as the card"
        " writes it: the slip is then not the one difference from the card's tree",
    )
    args = parser.parse_args()
    deck = load_deck(deck_sources())
    refused = generic = accepted = 0
    examples: collections.Counter[str] = collections.Counter()
    for loaded in deck.cards:
        card = loaded.card
        judge = CardJudge(card)
        for name, blank in card.blanks.items():
            if judge.compiled(name).expected is None:
                continue
            try:
                tree = parse(blank.answer, judge.table)
                if args.rewritten:
                    from quizzer.answers import symbolic

                    tree = parse(str(symbolic.to_sympy(tree, judge.table)), judge.table)
            except (AnswerError, TypeError, ValueError):
                continue
            seen = {blank.answer}
            for wrong in slips(tree):
                text = to_text(wrong)
                if text in seen or len(seen) > args.limit_per_blank:
                    continue
                seen.add(text)
                verdict = judge_bounded(judge, name, text, read_back=False)
                if verdict.status != "wrong":
                    accepted += verdict.correct
                    continue
                refused += 1
                if verdict.feedback == GENERIC:
                    generic += 1
                    examples[f"{card.id}:{name}: {text}"] += 1
    share = generic / refused if refused else 0.0
    print(f"refused {refused} slips; generic feedback for {generic} ({share:.1%});"
          f" {accepted} slips judged right (no change in value)")  # fmt: skip
    for text, _ in examples.most_common(15):
        print("  generic:", text)


if __name__ == "__main__":
    main()
