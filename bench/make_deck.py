"""Write a synthetic deck of N valid cards, for scale benchmarks.

    python bench/make_deck.py 10000 /tmp/deck10k

Each card is a small but complete card (every teaching section, wrong
entries, examples) with a formula that varies with its index, in folders of
500 cards.
"""

from __future__ import annotations

import argparse
from pathlib import Path

TEMPLATE = """\
id: synthetic-{index}
title: Synthetic card {index}
tags: [synthetic, group-{group}]
prompt: "y = {{{{coefficient}}}} x + {{{{offset}}}}"
symbols:
  x: {{meaning: the input}}
  a: {{positive: true, meaning: a positive scale}}
blanks:
  coefficient:
    answer: {k}*a
    hint: A multiple of a.
    wrong:
      - {{answer: "a", feedback: "Missing the factor {k}."}}
      - {{answer: "{k}/a", feedback: "Multiply, do not divide."}}
    examples:
      - {{answer: "{k} a", correct: true}}
      - {{answer: "a*{k}", correct: true}}
      - {{answer: "a", correct: false}}
  offset:
    answer: sqrt(a) + {m}
    wrong:
      - {{answer: "sqrt(a)", feedback: "Add the constant {m}."}}
      - {{answer: "a + {m}", feedback: "The square root of a."}}
    examples:
      - {{answer: "a^0.5 + {m}", correct: true}}
      - {{answer: "{m} + √a", correct: true}}
      - {{answer: "sqrt(a)", correct: false}}
intuition: A straight line whose slope is {k} times a.
explanation: |
  The slope is **{k} a** and the intercept is **sqrt(a) + {m}**.
limitations: [Only a synthetic example.]
used_in: [quizzer's scale benchmarks]
follow_ups:
  - {{question: "What is y at x = 0?", approach: "The intercept, sqrt(a) + {m}."}}
red_flags: [Forgetting the factor {k}.]
bullets: ["y = {k} a x + sqrt(a) + {m}"]
sources: [{{title: "quizzer bench/make_deck.py"}}]
related: []
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("count", type=int)
    parser.add_argument("folder", type=Path)
    args = parser.parse_args()
    for index in range(args.count):
        group = index // 500
        folder = args.folder / f"part-{group:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        text = TEMPLATE.format(index=index, group=group, k=index % 97 + 2, m=index % 13 + 1)
        (folder / f"synthetic-{index}.yaml").write_text(text, encoding="utf-8")
    print(f"wrote {args.count} cards under {args.folder}")


if __name__ == "__main__":
    main()
