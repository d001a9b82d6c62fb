"""What ``validate`` checks about a card's answers, using the judge itself.

Every answer and ``wrong`` entry must read with the card's symbols; no
``wrong`` entry may be equivalent to the answer; and every ``examples``
entry (the card's own tests, as in STACK's question tests) must judge as
declared.
"""

from __future__ import annotations

from quizzer.answers import judge_bounded
from quizzer.answers.judge import CardJudge, is_phrase, normalise_words
from quizzer.answers.syntax import (
    AnswerError,
    CircularDefinition,
    SymbolTable,
    parse,
    tokenize,
)
from quizzer.cards.model import Card, CardProblem
from quizzer.cards.names import is_notation


def answer_problems(card: Card, judge: CardJudge | None = None) -> list[CardProblem]:
    """Problems with a card's answers, each located at the entry concerned."""
    judge = judge or CardJudge(card)
    problems = symbol_problems(card, judge.table)
    for name, blank in card.blanks.items():
        where = ("blanks", name)
        try:
            parse(blank.answer, judge.table)
        except AnswerError as error:
            if not is_phrase(blank.answer):
                problems.append(
                    CardProblem((*where, "answer"), f"answer does not read: {error.message}")
                )
                continue
        for index, phrase in enumerate(blank.also):
            if not normalise_words(phrase):
                problems.append(CardProblem((*where, "also", index), "an accepted phrase is empty"))
        for index, entry in enumerate(blank.wrong):
            verdict = judge_bounded(judge, name, entry.answer)
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
            verdict = judge_bounded(judge, name, example.answer)
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
