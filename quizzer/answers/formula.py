"""A prompt with its answers in place, bracketed where the operators around a gap need it.

``m_t / {{correction}}`` with the answer ``1 - beta1^t`` must read
``m_t / (1 - beta1^t)``, not ``m_t / 1 - beta1^t``. Every view that prints a
filled formula (the terminal, the drill's cheat sheets, Markdown, Anki) goes
through :func:`fitted_answers` or :func:`filled_prompt`.

An answer is read with quizzer's own answer parser to find its loosest
operator; the prompt text on either side of the gap says how tightly the gap
is bound. Importing the parser loads the ``quizzer.answers`` package (and so
SymPy), which is why it happens inside the functions: ``list`` and ``--help``
never come here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import IntEnum

from quizzer.cards.model import GAP, Card


class Binding(IntEnum):
    """How loosely an expression holds together, by its loosest top-level operator.

    A gap asks for at least some binding; an answer that binds more loosely is
    put in brackets.
    """

    NEGATED = 0  # -x
    SUM = 1  # a + b, a - b
    PRODUCT = 2  # a b, a * b, a / b
    POWER = 3  # a ^ b
    ATOM = 4  # a name, a number, f(x), (a + b), Aᵀ


#: Words that act as an operator on the gap that follows them (as prose, in a prompt).
_PROSE_OPERATORS = {"divided by": Binding.POWER, "times": Binding.PRODUCT}
_DIVIDE = "/÷"
_MULTIPLY = "*·×⋅∙⊙@"
_SUBTRACT = "-−–"
_TIGHT_AFTER = ("^", "√")  # the gap is an exponent or a radicand
_TIGHT_BEFORE = ("^", "ᵀ", "'", "!", *"⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺")  # the gap is a base or an operand of ᵀ, !
_WORD_BEFORE = re.compile(r"(\S+)\s*$")
_WORD_AFTER = re.compile(r"^\s*(\S+)")


def fitted_answers(card: Card, answers: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each answer as it must be written in its gap: in brackets where precedence needs them.

    Args:
        card: the card whose prompt holds the gaps.
        answers: text for some or all blanks; by default each blank's own answer.

    Returns:
        The same blanks, each answer bracketed or as given.
    """
    if answers is None:
        answers = {name: blank.answer for name, blank in card.blanks.items()}
    names = _symbol_names(card)
    fitted = dict(answers)
    for match in GAP.finditer(card.prompt):
        name = match.group(1)
        if name not in answers:
            continue
        before, after = card.prompt[: match.start()], card.prompt[match.end() :]
        needed = max(_needed_after(before, names), _needed_before(after, names))
        if _binding(card, answers[name]) < needed:
            fitted[name] = f"({answers[name]})"
    return fitted


def filled_prompt(card: Card, answers: Mapping[str, str] | None = None) -> str:
    """The prompt with every answer in place, bracketed where precedence needs it."""
    fitted = fitted_answers(card, answers)
    return GAP.sub(lambda m: fitted.get(m.group(1), m.group(0)), card.prompt)


def _binding(card: Card, answer: str) -> Binding:
    """The loosest operator at the top of ``answer``; a phrase counts as one atom."""
    from quizzer.answers.judge import symbol_table
    from quizzer.answers.syntax import AnswerError, Binary, Neg, parse

    if _wholly_bracketed(answer.strip()):
        return Binding.ATOM
    try:
        tree = parse(answer, symbol_table(card))
    except AnswerError:
        return Binding.ATOM  # words ("running averages") are not an expression
    if isinstance(tree, Neg) or answer.lstrip().startswith(("-", "−", "–")):
        # -b * b parses as (-b) * b, but its text still opens with a minus: after
        # "a " it would read as a subtraction.
        return Binding.NEGATED
    if isinstance(tree, Binary):
        return {"+": Binding.SUM, "-": Binding.SUM, "^": Binding.POWER}.get(
            tree.op, Binding.PRODUCT
        )
    return Binding.ATOM


def _wholly_bracketed(text: str) -> bool:
    """Whether one pair of brackets encloses all of ``text``: ``(a + b)``, not ``(a) + (b)``."""
    if len(text) < 2 or text[0] not in "([" or text[-1] != {"(": ")", "[": "]"}[text[0]]:
        return False
    depth = 0
    for index, char in enumerate(text):
        depth += char in "(["
        depth -= char in ")]"
        if depth == 0 and index < len(text) - 1:
            return False
    return True


def _needed_after(before: str, names: set[str]) -> Binding:
    """How tightly the text before a gap binds the answer that follows it."""
    text = before.rstrip()
    if not text:
        return Binding.NEGATED
    for words, binding in _PROSE_OPERATORS.items():
        if text.endswith(words):
            return binding
    last = text[-1]
    if text.endswith(_TIGHT_AFTER) or text.endswith("**"):
        return Binding.ATOM
    if last in _DIVIDE:
        return Binding.POWER  # a / (b c): the whole product is the divisor
    if last in _MULTIPLY or last in _SUBTRACT:
        return Binding.PRODUCT  # a · (b + c), a − (b − c), a · (−b)
    if last == "+":
        return Binding.SUM  # a + (−b)
    if before[-1].isspace() and _is_operand(_WORD_BEFORE.search(text), names, last=True):
        return Binding.PRODUCT  # juxtaposed: "Σ_x {{term}}", "softmax(...) {{values}}"
    return Binding.NEGATED  # "=", "(", ",", ... or prose: nothing binds the gap


def _needed_before(after: str, names: set[str]) -> Binding:
    """How tightly the text after a gap binds the answer before it."""
    text = after.lstrip()
    if not text:
        return Binding.NEGATED
    if text.startswith(_TIGHT_BEFORE) or text.startswith("**"):
        return Binding.ATOM
    if text[0] in _DIVIDE or text[0] in _MULTIPLY:
        return Binding.PRODUCT  # (a + b) / c
    if after[0].isspace() and _is_operand(_WORD_AFTER.search(text), names, last=False):
        return Binding.PRODUCT
    return Binding.NEGATED


def _is_operand(word: re.Match[str] | None, names: set[str], *, last: bool) -> bool:
    """Whether a neighbouring word is part of the formula (so the gap is multiplied by it).

    An English word ("costs", "FLOPs") is prose; a symbol of the card, a
    subscripted or Greek name, a number or a bracket is part of the formula.
    """
    if word is None:
        return False
    token = word.group(1)
    edge = token[-1] if last else token[0]
    if edge in ",;:.=≈<>≤≥←→":
        return False
    bare = token.strip("()[]{}.,;:")
    if bare in names:
        return True
    if bare.isascii() and bare.isalpha() and len(bare) > 1:
        return False  # a prose word
    return edge.isalnum() or edge in ")]}ᵀ'" or not edge.isascii()


def _symbol_names(card: Card) -> set[str]:
    return {alias for name, s in card.symbols.items() for alias in (name, *s.aliases)}
