"""``quizzer check``: judging a card's answers, or one follow-up answer, without a session.

Nothing is saved. The command reads the answers from its options (or, for a
follow-up, from standard input) and prints what these return.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from quizzer.errors import QuizzerError

if TYPE_CHECKING:
    from quizzer.answers import Verdict
    from quizzer.answers.keypoints import FollowUpCheck
    from quizzer.app.workspace import Workspace
    from quizzer.cards.model import Card


@dataclass(frozen=True)
class AnswersChecked:
    """Each blank's verdict, in blank order (a blank without an answer is unanswered)."""

    card: Card
    verdicts: list[Verdict]

    @property
    def correct(self) -> bool:
        return all(verdict.correct for verdict in self.verdicts)

    def to_dict(self) -> dict[str, Any]:
        """DESIGN.md contract item 5: ``{"card", "correct", "blanks": [...]}``."""
        return {
            "card": self.card.id,
            "correct": self.correct,
            "blanks": [verdict.to_dict() for verdict in self.verdicts],
        }


def check_answers(workspace: Workspace, name: str, answers: Sequence[str]) -> AnswersChecked:
    """Judge ``answers``, in blank order, against the card ``name`` (an id or a file).

    Raises:
        QuizzerError: An unknown card, or more answers than blanks.
    """
    from quizzer.answers import CardJudge, judge_bounded, unanswered
    from quizzer.app.choosing import card_named

    loaded = card_named(workspace, name)
    names = list(loaded.card.blanks)
    if len(answers) > len(names):
        raise QuizzerError(
            f"card '{loaded.id}' has {len(names)} blank{'' if len(names) == 1 else 's'}"
            f" ({', '.join(names)}) but {len(answers)} answers were given"
        )
    judge = CardJudge(loaded.card)
    verdicts = [
        judge_bounded(judge, blank, answers[index]) if index < len(answers) else unanswered(blank)
        for index, blank in enumerate(names)
    ]
    return AnswersChecked(loaded.card, verdicts)


def check_follow_up(workspace: Workspace, name: str, number: int, text: str) -> FollowUpCheck:
    """Check ``text`` against the key points of follow-up ``number`` (1-based) of ``name``."""
    from quizzer.answers.keypoints import check_follow_up as check
    from quizzer.app.choosing import card_named

    return check(card_named(workspace, name).card, number, text)
