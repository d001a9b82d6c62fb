"""A long fuzzing campaign over the answer parser and judge (not part of the suite).

    python fuzz/campaign.py --inputs 100000

Feeds random structured expressions and random text to the parser and the
judge and reports: inputs tried, exceptions other than quizzer's own (should
be 0), the slowest judgement, and how the verdicts were distributed.
"""

from __future__ import annotations

import argparse
import collections
import random
import string
import time

from quizzer.answers import judge_bounded
from quizzer.answers.judge import CardJudge
from quizzer.answers.syntax import AnswerError, parse
from quizzer.cards.deck import deck_sources, load_deck

ATOMS = [
    "x",
    "d_k",
    "Q",
    "K",
    "V",
    "0",
    "1",
    "2",
    "0.5",
    "1e3",
    "pi",
    "e",
    "9^9",
    "√d_k",
    r"\sqrt{d_k}",
    "|d_k|",
    "dk!",
    "10^10",
    "-1",
    "(",
    ")",
    "^T",
    "'",
]
OPS = ["+", "-", "*", "/", "^", "**", " ", "·", "×", "ᵀ", "²", ","]
FUNCS = [
    "sqrt",
    "exp",
    "log",
    "ln",
    "sin",
    "tanh",
    "sigmoid",
    "softmax",
    "abs",
    "max",
    "min",
    "factorial",
    r"\frac",
    r"\log",
    r"\left(",
    r"\right)",
]


def random_expression(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if depth > 6 or roll < 0.3:
        return rng.choice(ATOMS)
    if roll < 0.6:
        return (
            random_expression(rng, depth + 1) + rng.choice(OPS) + random_expression(rng, depth + 1)
        )
    if roll < 0.8:
        return f"{rng.choice(FUNCS)}({random_expression(rng, depth + 1)})"
    return "(" + random_expression(rng, depth + 1) + ")"


def random_text(rng: random.Random) -> str:
    alphabet = string.printable + "√·×ᵀ²⁻¹πθβ\\{}"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    card = load_deck(deck_sources()).find("attention").card
    judge = CardJudge(card)
    statuses: collections.Counter[str] = collections.Counter()
    escaped: list[tuple[str, str]] = []
    slowest = (0.0, "")
    started = time.perf_counter()
    for index in range(args.inputs):
        text = random_expression(rng) if index % 2 == 0 else random_text(rng)
        try:
            parse(text, judge.table)
        except AnswerError:
            pass
        except Exception as error:  # anything else is a bug
            escaped.append((text, repr(error)))
        if index % 10 == 0:  # judging is slower: judge a tenth of the inputs
            begin = time.perf_counter()
            try:
                verdict = judge_bounded(judge, "scale", text)
                statuses[verdict.status] += 1
            except Exception as error:
                escaped.append((text, repr(error)))
            elapsed = time.perf_counter() - begin
            slowest = max(slowest, (elapsed, text))
    total = time.perf_counter() - started
    print(f"inputs parsed: {args.inputs}, judged: {sum(statuses.values())} in {total:.1f} s")
    print(f"exceptions other than quizzer's own: {len(escaped)}")
    for text, error in escaped[:10]:
        print(f"  {text!r}: {error}")
    print(f"slowest judgement: {slowest[0] * 1000:.1f} ms for {slowest[1][:60]!r}")
    print("verdicts: " + ", ".join(f"{k} {v}" for k, v in statuses.most_common()))


if __name__ == "__main__":
    main()
