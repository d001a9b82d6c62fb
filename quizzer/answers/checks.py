"""What ``validate`` checks about a card's answers, using the judge itself.

Every answer and ``wrong`` entry must read with the card's symbols; no
``wrong`` entry may be equivalent to the answer; and every ``examples``
entry (the card's own tests, as in STACK's question tests) must judge as
declared.
"""

from __future__ import annotations

from quizzer.answers import functions, judge_bounded, numeric
from quizzer.answers.judge import (
    MIN_VALID_POINTS,
    UNDEFINED,
    CardJudge,
    forbidden_in,
    is_phrase,
    normalise_words,
)
from quizzer.answers.syntax import (
    AnswerError,
    CircularDefinition,
    Node,
    SymbolTable,
    parse,
    tokenize,
)
from quizzer.cards.model import Blank, Card, CardProblem
from quizzer.names import is_notation


def answer_problems(card: Card, judge: CardJudge | None = None) -> list[CardProblem]:
    """Problems with a card's answers, each located at the entry concerned."""
    judge = judge or CardJudge(card)
    problems = symbol_problems(card, judge.table)
    for name, blank in card.blanks.items():
        where = ("blanks", name)
        problems.extend(_forbid_problems(judge, name, blank))
        try:
            tree = parse(blank.answer, judge.table)
        except AnswerError as error:
            if not is_phrase(blank.answer):
                problems.append(
                    CardProblem((*where, "answer"), f"answer does not read: {error.message}")
                )
                continue
        else:
            problems.extend(_value_problems(judge, name, tree))
        for index, phrase in enumerate(blank.also):
            if not normalise_words(phrase):
                problems.append(CardProblem((*where, "also", index), "an accepted phrase is empty"))
        for index, entry in enumerate(blank.wrong):
            verdict = judge_bounded(
                judge, name, entry.answer, read_back=False
            )  # validation needs the decision, not the read-back
            if verdict.status in ("unreadable", "too_large"):
                problems.append(
                    CardProblem(
                        (*where, "wrong", index, "answer"),
                        f"wrong answer does not read: {verdict.feedback}",
                    )
                )
            elif verdict.correct:
                problems.append(
                    CardProblem(
                        (*where, "wrong", index, "answer"),
                        f"wrong answer '{entry.answer}' is equivalent to the answer",
                    )
                )
        for index, example in enumerate(blank.examples):
            verdict = judge_bounded(judge, name, example.answer, read_back=False)
            if verdict.correct != example.correct:
                judged = "right" if verdict.correct else "wrong"
                declared = "right" if example.correct else "wrong"
                why = f" ({verdict.feedback})" if verdict.feedback and not verdict.correct else ""
                problems.append(
                    CardProblem(
                        (*where, "examples", index),
                        f"example '{example.answer}' is judged {judged}"
                        f" but declared {declared}{why}",
                    )
                )
    return problems


def symbol_problems(card: Card, table: SymbolTable) -> list[CardProblem]:
    """Notations that do not read, and definitions that do not read, use
    undeclared names or go round in a circle."""
    problems: list[CardProblem] = []
    for name, symbol in card.symbols.items():
        for index, alias in enumerate(symbol.aliases):
            if not is_notation(alias):
                continue
            try:
                tokenize(alias)
            except AnswerError as error:
                problems.append(
                    CardProblem(
                        ("symbols", name, "aliases", index),
                        f"notation does not read: {error.message}",
                    )
                )
        if symbol.value is not None:
            try:
                table.expand(name)
            except CircularDefinition as error:
                problems.append(CardProblem(("symbols", name, "value"), error.message))
            except AnswerError as error:
                problems.append(
                    CardProblem(
                        ("symbols", name, "value"), f"definition does not read: {error.message}"
                    )
                )
    return problems


def _forbid_problems(judge: CardJudge, name: str, blank: Blank) -> list[CardProblem]:
    """Each forbidden word must name a function or a symbol, and the answer use none."""
    problems = []
    for index, word in enumerate(blank.forbid):
        if functions.canonical_name(word) is None and word not in judge.table.canonical:
            problems.append(
                CardProblem(
                    ("blanks", name, "forbid", index),
                    f"'{word}' is neither an answer function nor a symbol of this card",
                )
            )
    try:
        used = forbidden_in(parse(blank.answer, judge.table, expand=False), blank, judge.table)
    except AnswerError:
        return problems  # reported where the answer is checked
    if used:
        problems.append(
            CardProblem(
                ("blanks", name, "answer"),
                f"the answer uses {', '.join(used)}, which this blank forbids",
            )
        )
    return problems


def _value_problems(judge: CardJudge, name: str, tree: Node) -> list[CardProblem]:
    """The answer must have a value, and a real one at enough of the sample points."""
    where = ("blanks", name, "answer")
    try:
        values = judge.values_of(tree)
    except numeric.NotDefined as error:
        return [CardProblem(where, f"answer cannot be evaluated: {error}")]
    real = sum(value is not UNDEFINED for value in values)
    if real < MIN_VALID_POINTS:
        return [
            CardProblem(
                where,
                f"the answer is real at only {real} of {len(values)} sample points: give its"
                " symbols the domain they mean (range: [lo, hi], positive, integer)",
            )
        ]
    return []
