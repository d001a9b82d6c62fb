"""A typed follow-up answer checked on its key points, and the grade that check proposes.

Quiz and drill both ask a card's follow-ups; after the learner types an
answer, its key points are checked (:mod:`quizzer.answers.keypoints`) and a
grade is proposed from the coverage, which the learner takes with Enter or
changes with a key. An empty answer, or a follow-up without key points,
proposes nothing: the learner grades themself as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quizzer.cards.model import Card
from quizzer.study.items import Grade

if TYPE_CHECKING:
    from quizzer.answers.keypoints import FollowUpCheck, KeyPointChecker

#: The check's grade as a rating: every point → Good, some → Hard, none → Again.
_GRADES = {"good": Grade.GOOD, "hard": Grade.HARD, "again": Grade.AGAIN}


def proposed_grade(check: FollowUpCheck) -> Grade:
    """The rating a check proposes (see :attr:`FollowUpCheck.grade`)."""
    return _GRADES[check.grade]


class FollowUpChecks:
    """Checks follow-up answers for one session; each card's checker is built once."""

    def __init__(self) -> None:
        self._checkers: dict[str, KeyPointChecker] = {}

    def check(self, card: Card, index: int, text: str) -> FollowUpCheck | None:
        """``text`` checked against follow-up ``index`` (0-based) of ``card``.

        Returns:
            The covered and missed points, or None when there is nothing to
            check: an empty answer, or a follow-up without key points.
        """
        if not text.strip() or not card.follow_ups[index].key_points:
            return None
        # Loaded on the first check: the formula judge brings SymPy with it.
        from quizzer.answers.keypoints import KeyPointChecker, check_follow_up

        checker = self._checkers.get(card.id)
        if checker is None or checker.card is not card:
            checker = self._checkers[card.id] = KeyPointChecker(card)
        return check_follow_up(card, index + 1, text, checker)
