"""The card template written by ``quizzer new``: every section, commented."""

from __future__ import annotations

import textwrap

from quizzer.cards.sections import SECTIONS, STRICT_SECTIONS, Section

PLACEHOLDER = "TODO"


def card_template(card_id: str, blanks: int, schema_ref: str) -> str:
    """A new card that loads as it is and tells its author what each field is for.

    It uses ``TODO`` placeholders, which ``validate --strict`` refuses, so a
    template cannot be published by accident.
    """
    names = ["answer"] if blanks == 1 else [f"part{i}" for i in range(1, blanks + 1)]
    gaps = " + ".join(f"{{{{{name}}}}}" for name in names)
    blank_sections = "\n".join(_blank(name) for name in names)
    return f"""\
# yaml-language-server: $schema={schema_ref}
# A quizzer card. Run `quizzer validate --strict {card_id}.yaml` until it is clean,
# and `quizzer quiz --no-record {card_id}.yaml` to try it. See docs/writing-cards.md.

id: {card_id}                 # unique across all decks, lower-case kebab-case
title: {PLACEHOLDER} the name of the idea
tags: []                      # lower-case kebab-case, e.g. [training, optimisers]

# The question. Each {{{{name}}}} is a blank, answered in this order.
prompt: "y = {gaps}"

# Every name an answer may use. positive: sampled from positive numbers only;
# matrix: a random matrix (so A B is not B A); aliases: other spellings.
symbols:
  x: {{meaning: {PLACEHOLDER} what x stands for}}
  n: {{positive: true, aliases: [N], meaning: {PLACEHOLDER} a positive count}}

blanks:
{blank_sections}

# Teaching sections, in the order learners read them. `validate --strict` requires
# {_strict_list()}.
{_teaching_sections()}"""


def _blank(name: str) -> str:
    return f"""\
  {name}:
    answer: n * x               # answer syntax: Python, ^, implicit products, Unicode, LaTeX
    also: []                    # accepted words, e.g. [value matrix]
    hint: {PLACEHOLDER} a nudge that does not give the answer away
    wrong:                      # known mistakes, matched by value, each with teaching feedback
      - {{answer: x, feedback: {PLACEHOLDER} why forgetting n is wrong}}
      - {{answer: n + x, feedback: {PLACEHOLDER} why adding is wrong}}
    examples:                   # the card's own tests: run by `quizzer validate`
      - {{answer: "x n", correct: true}}
      - {{answer: "N*x", correct: true}}
      - {{answer: "x", correct: false}}"""


def _strict_list() -> str:
    return ", ".join(STRICT_SECTIONS)


def _teaching_sections() -> str:
    return "\n".join(_section(section) for section in SECTIONS) + "\n"


def _section(section: Section) -> str:
    """The section as YAML, its placeholder saying what to write (from the sections table)."""
    todo = f"{PLACEHOLDER} {section.about}"
    if section.kind == "prose":
        return f"{section.field}: |\n  {todo}."
    if section.kind == "code":
        comment = "\n".join(f"  # {line}" for line in textwrap.wrap(f"{todo}.", 76))
        return f"""\
{section.field}: |
{comment}
  import numpy as np

  n, x = 3.0, np.array([1.0, 2.0])
  y = n * x
  assert np.allclose(y, [3.0, 6.0])"""
    if section.kind == "list":
        return f"{section.field}:\n  - {todo}."
    if section.kind == "follow_ups":
        return f"""\
{section.field}:
  - question: {PLACEHOLDER} what would an interviewer ask next?
    approach: {PLACEHOLDER} how a strong candidate answers.
    # What a good answer must say, checked on the learner's typed answer. Every group
    # of concepts must appear (any one phrase of each); write 2+ examples each way.
    # Try one: quizzer check CARD --follow-up 1 -a "your answer"
    key_points:
      - point: {PLACEHOLDER} a larger slope makes the line steeper
        concepts: [[slope, gradient], [steeper, rises faster]]
        examples:
          - {{answer: "a bigger gradient means the line is steeper", covered: true}}
          - {{answer: "the line rises faster when the slope grows", covered: true}}
          - {{answer: "the slope does not change how steep it is", covered: false}}
          - {{answer: "the intercept moves the line up", covered: false}}"""
    if section.kind == "sources":
        return f"""\
{section.field}:               # {section.about}
  - title: {PLACEHOLDER} the primary paper or textbook
    authors: {PLACEHOLDER} e.g. Vaswani et al.
    url: https://example.org/{PLACEHOLDER.lower()}"""
    return f"{section.field}: []                   # {section.about}"
