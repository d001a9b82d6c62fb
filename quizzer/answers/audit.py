"""``quizzer audit``: a card's answers against their typical mutants and other notations.

For each formula blank, the typical wrong answers of its answer
(:mod:`quizzer.answers.mutants`: a root or power dropped, square,
reciprocal, sign, two symbols swapped, n ± 1, a factor of 2, a term dropped,
another log base, a transpose) are judged as a learner's answers would be:

- a mutant the judge accepts is an error (``mutant-accepted``): the card's
  domain or answer is too loose for the judge to tell them apart. A mutant
  that is truly the same function (swapping the symbols of ``a b``) is
  recognised by a second judge on other and more points and left out;
- a mutant refused with only the generic line is a warning
  (``mutant-generic``), with the feedback it gets;
- the answer as SymPy prints it (``latex()`` with and without
  ``ln_notation``, and ``str``) must be accepted, else ``form-refused``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from quizzer.answers import judge_bounded
from quizzer.answers.diagnosis import GENERIC
from quizzer.answers.judge import CardJudge
from quizzer.answers.mutants import mutants, to_text
from quizzer.answers.syntax import AnswerError, parse
from quizzer.cards.model import Card

Kind = Literal["mutant-accepted", "form-refused", "mutant-generic"]
ERRORS: frozenset[str] = frozenset({"mutant-accepted", "form-refused"})
#: The second judge, that tells a true mutant from the same function written
#: otherwise, samples this many points from its own seed.
WITNESS_POINTS = 48
WITNESS_SEED = 7919


@dataclass(frozen=True)
class AuditProblem:
    """One finding: a mutant accepted, a printed form refused, or generic feedback."""

    card: str
    blank: str
    kind: Kind
    answer: str
    message: str

    @property
    def is_error(self) -> bool:
        return self.kind in ERRORS

    def to_dict(self) -> dict[str, str]:
        return {
            "card": self.card,
            "blank": self.blank,
            "kind": self.kind,
            "answer": self.answer,
            "message": self.message,
        }


@dataclass
class AuditReport:
    """What ``quizzer audit`` found over a set of cards (contract item 17)."""

    cards: int = 0
    problems: list[AuditProblem] = field(default_factory=list)
    #: Mutants judged, and of those refused with only the generic line.
    mutants: int = 0
    generic: int = 0

    @property
    def ok(self) -> bool:
        return not any(problem.is_error for problem in self.problems)

    @property
    def errors(self) -> int:
        return sum(problem.is_error for problem in self.problems)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "cards": self.cards,
            "problems": [problem.to_dict() for problem in self.problems],
        }


def audit_cards(cards: Iterable[Card]) -> AuditReport:
    """Audit every formula blank of ``cards``."""
    report = AuditReport()
    for card in cards:
        report.cards += 1
        audit_card(card, report)
    return report


def audit_card(card: Card, report: AuditReport | None = None) -> AuditReport:
    """Audit one card's formula blanks, adding what is found to ``report``."""
    report = report if report is not None else AuditReport(cards=1)
    judge = CardJudge(card)
    witness = CardJudge(card, seed=WITNESS_SEED, points=WITNESS_POINTS)
    integers = frozenset(n for n, d in judge.domains.items() if d.integer)
    matrices = frozenset(n for n, d in judge.domains.items() if d.matrix)
    for name, blank in card.blanks.items():
        if judge.compiled(name).expected is None:
            continue  # a word blank, or one `validate` already reports
        try:
            tree = parse(blank.answer, judge.table)
        except AnswerError:
            continue

        def problem(kind: Kind, answer: str, message: str, blank_name: str = name) -> None:
            report.problems.append(AuditProblem(card.id, blank_name, kind, answer, message))

        seen = {blank.answer.strip()}
        for mutant in mutants(tree, integers=integers, matrices=matrices):
            text = to_text(mutant.tree)
            if text in seen:
                continue
            seen.add(text)
            verdict = judge_bounded(judge, name, text, read_back=False)
            if verdict.status in ("unreadable", "too_large"):
                continue  # not an answer a learner could judge: nothing to learn from it
            if verdict.correct:
                if judge_bounded(witness, name, text, read_back=False).correct:
                    continue  # the same function written otherwise (a b for b a)
                problem("mutant-accepted", text,
                        f"accepted, but it is a mutant of the answer ({mutant.kind}):"
                        " the card's domain or answer is too loose")  # fmt: skip
                continue
            report.mutants += 1
            if verdict.feedback == GENERIC:
                report.generic += 1
                problem("mutant-generic", text, f"refused with only: {verdict.feedback}")
        # printed as written: a defined symbol (j = i - 1) stays itself, as in the card
        for form in printed_forms(parse(blank.answer, judge.table, expand=False), judge):
            verdict = judge_bounded(judge, name, form)
            if not verdict.correct:
                problem("form-refused", form, f"the answer as SymPy prints it is refused:"
                        f" {verdict.feedback}")  # fmt: skip
    return report


def printed_forms(tree: Any, judge: CardJudge) -> list[str]:
    """The answer as SymPy prints it: LaTeX (with and without ``ln``) and ``str``."""
    import sympy

    from quizzer.answers import symbolic

    try:
        expr = symbolic.to_sympy(tree, judge.table)
        forms = [sympy.latex(expr), sympy.latex(expr, ln_notation=True), str(expr)]
    except Exception:  # SymPy cannot print some forms (softmax of a matrix): nothing to check
        return []
    return list(dict.fromkeys(forms))
