"""Follow-up answers checked on their key points (issue 28).

A key point is covered when the answer says every one of its concept groups
(negation noticed, see :mod:`quizzer.answers.concepts`) or when a formula in
the answer is judged equal to the point's ``formula`` under the card's
symbols. Precision comes first: a point is covered only on that evidence, a
formula only where it reads and is not denied ("not sqrt(d_k)"), and every
formula is judged by the bounded public judge, so no answer can hang a check.

The grade proposed from the coverage: every point → good, some → hard,
none → again.

Library use::

    from quizzer.answers.keypoints import check_follow_up
    result = check_follow_up(card, 1, "the variance is d_k so divide by its std")
    result.covered, result.missed, result.grade
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from quizzer.answers import CardJudge, functions, judge_bounded
from quizzer.answers.concepts import ConceptMatcher, ends_denied, stem
from quizzer.answers.words import MAX_ANSWER_LENGTH, Vocabulary
from quizzer.cards.model import Blank, Card, KeyPoint
from quizzer.errors import QuizzerError

Grade = Literal["again", "hard", "good"]

#: Formulas read from one answer at most, and the time each may take to judge:
#: a check stays well under a second whatever is typed.
MAX_FORMULAS = 24
FORMULA_SECONDS = 1.0
#: All formulas of one point together: past this, the rest count as not said.
CHECK_SECONDS = 3.0
MAX_FORMULA_LENGTH = 80


class UnknownFollowUp(QuizzerError):
    """The card has no follow-up with that number, or it has no key points to check."""


@dataclass(frozen=True)
class FollowUpCheck:
    """Which key points of follow-up ``follow_up`` (1-based) an answer covers."""

    card: str
    follow_up: int
    covered: tuple[str, ...]
    missed: tuple[str, ...]

    @property
    def grade(self) -> Grade:
        """The proposed grade: all covered → good, some → hard, none → again."""
        if not self.missed:
            return "good"
        return "hard" if self.covered else "again"

    def lines(self) -> list[str]:
        """The check as plain lines: each point ✓ or ✗, then the proposed grade."""
        marks = [f"✓ {p}" for p in self.covered] + [f"✗ {p}" for p in self.missed]
        return [*marks, f"proposed grade: {self.grade}"]

    def to_dict(self) -> dict[str, Any]:
        """The contract's JSON object (DESIGN.md, item 24)."""
        return {
            "card": self.card,
            "follow_up": self.follow_up,
            "covered": list(self.covered),
            "missed": list(self.missed),
            "grade": self.grade,
        }


def check_follow_up(
    card: Card, number: int, text: str, checker: KeyPointChecker | None = None
) -> FollowUpCheck:
    """Check ``text`` as the answer to follow-up ``number`` (1-based) of ``card``.

    Raises :class:`UnknownFollowUp` when there is no such follow-up or it has
    no key points. Pass a ``checker`` built once per card to judge many answers.
    """
    if not 1 <= number <= len(card.follow_ups):
        count = len(card.follow_ups)
        raise UnknownFollowUp(
            f"card '{card.id}' has {count} follow-up{'s' if count != 1 else ''}, not {number}"
        )
    points = card.follow_ups[number - 1].key_points
    if not points:
        raise UnknownFollowUp(f"follow-up {number} of card '{card.id}' has no key points")
    checker = checker or KeyPointChecker(card)
    found = [(point.point, checker.covered(point, text)) for point in points]
    return FollowUpCheck(
        card.id,
        number,
        tuple(p for p, yes in found if yes),
        tuple(p for p, yes in found if not yes),
    )


class KeyPointChecker:
    """Checks answers against one card's key points. Build once per card."""

    def __init__(self, card: Card) -> None:
        self.card = card
        self.synonyms = [list(group) for group in card.synonyms]
        self.vocabulary = Vocabulary(self.synonyms)
        self._formulas: dict[str, str] = {}  # formula -> its blank in the formula judge
        for follow_up in card.follow_ups:
            for point in follow_up.key_points:
                if point.formula:
                    _, rhs = _sides(point.formula)
                    self._formulas.setdefault(rhs, f"formula-{len(self._formulas)}")
        self._judge: CardJudge | None = None
        self._matchers: dict[tuple[tuple[str, ...], ...], ConceptMatcher] = {}

    def covered(self, point: KeyPoint, text: str) -> bool:
        """``text`` shows ``point``: all its concepts said, or its formula written."""
        text = text[:MAX_ANSWER_LENGTH]
        if not text.strip():
            return False
        if point.concepts and self._matcher(point).covers(text):
            return True
        return point.formula is not None and self._formula_said(point.formula, text)

    def _matcher(self, point: KeyPoint) -> ConceptMatcher:
        key = tuple(tuple(group) for group in point.concepts)
        if key not in self._matchers:
            self._matchers[key] = ConceptMatcher(point.concepts, self.synonyms)
        return self._matchers[key]

    # -- formulas ---------------------------------------------------------------

    @property
    def judge(self) -> CardJudge:
        """A judge of the card's symbols whose blanks are the key points' formulas."""
        if self._judge is None:
            blanks = {
                name: Blank.model_validate({"answer": formula})
                for formula, name in self._formulas.items()
            }
            self._judge = CardJudge(self.card.model_copy(update={"blanks": blanks}))
        return self._judge

    def _formula_said(self, formula: str, text: str) -> bool:
        lhs, rhs = _sides(formula)
        if rhs not in self._formulas:  # a point not of this card's follow-ups
            self._formulas[rhs] = f"formula-{len(self._formulas)}"
            self._judge = None
        blank = self._formulas[rhs]
        started = time.monotonic()
        for left, candidate in list(self._candidates(text))[:MAX_FORMULAS]:
            if time.monotonic() - started > CHECK_SECONDS:
                return False  # precision first: what was not judged is not evidence
            if lhs and not self._names(lhs, left):
                continue
            verdict = judge_bounded(self.judge, blank, candidate, FORMULA_SECONDS, read_back=False)
            if verdict.correct and verdict.decided_by != "words":
                return True
        return False

    def _names(self, lhs: str, left: str) -> bool:
        """Every word of an equation's left side is said before its right side."""
        wanted = {stem(w) for w in self.vocabulary.normalise(lhs).words}
        said = {stem(w) for w in self.vocabulary.normalise(left).words}
        return bool(wanted) and wanted <= said

    def _candidates(self, text: str) -> Iterator[tuple[str, str]]:
        """(what comes before it in its clause, a formula) for each formula in ``text``,
        leaving out formulas a negation denies."""
        for clause in _CLAUSES.split(text):
            pieces = _RELATION.split(clause)
            for index, piece in enumerate(pieces):
                before = " ".join(pieces[:index])
                for start, run in _formula_runs(piece, self._is_formula_word):
                    preceding = f"{before} {piece[:start]}"
                    if ends_denied(preceding, self.vocabulary):
                        continue
                    yield preceding, run

    def _is_formula_word(self, word: str) -> bool:
        if _FORMULA_CHARACTERS.search(word):
            return True
        bare = word.strip(".,;:")
        return (
            bare in self.card.symbols
            or any(bare in s.aliases for s in self.card.symbols.values())
            or functions.canonical_name(bare) is not None
        )


#: Where a formula's clause ends (a full stop is not a decimal point).
_CLAUSES = re.compile(r"[;!?]|\.(?=\s|$)|,\s|\b(?:but|whereas|while|although|though)\b", re.I)
#: What separates a formula from what it is said of: "the std is sqrt(d_k)".
_RELATION = re.compile(
    r"=|≈|≃|~|\b(?:is|are|equals|becomes|gives|like|as|by|of|to|about|around|roughly)\b", re.I
)
_FORMULA_CHARACTERS = re.compile(r"[\d_^*/+()√·×⋅²³ᵀ\\-]")
_OPERATOR = re.compile(r"^[-+*/^×·⋅]$")


def _sides(formula: str) -> tuple[str, str]:
    """``Var(q·k) = d_k`` as ("Var(q·k)", "d_k"); a plain expression has no left side."""
    if "=" in formula:
        lhs, _, rhs = formula.partition("=")
        return lhs.strip(), rhs.strip()
    return "", formula.strip()


def _formula_runs(piece: str, is_formula: Any) -> Iterator[tuple[int, str]]:
    """Maximal runs of formula words in ``piece``, with where each starts."""
    run: list[str] = []
    start = 0
    for match in re.finditer(r"\S+", piece):
        word = match.group()
        if is_formula(word) or (run and _OPERATOR.match(word)):
            if not run:
                start = match.start()
            run.append(word)
            continue
        yield from _run(start, run)
        run = []
    yield from _run(start, run)


def _run(start: int, run: list[str]) -> Iterator[tuple[int, str]]:
    while run and _OPERATOR.match(run[-1]):
        run = run[:-1]
    formula = " ".join(run).strip(".,;:")
    if formula and len(formula) <= MAX_FORMULA_LENGTH:
        yield start, formula
