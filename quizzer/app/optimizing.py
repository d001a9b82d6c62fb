"""``quizzer optimize``: fit FSRS to the learner's reviews, save the fit, reschedule."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from quizzer.errors import QuizzerError

if TYPE_CHECKING:
    from quizzer.app.workspace import Workspace
    from quizzer.progress.optimizer import Fit
    from quizzer.progress.parameters import SavedParameters


@dataclass(frozen=True)
class OptimizeReport:
    """The fit, whether it was saved, and how many cards were rescheduled with it."""

    fit: Fit
    saved: bool
    rescheduled: int
    desired_retention: float
    tag: str | None

    def to_dict(self) -> dict[str, Any]:
        """DESIGN.md's contract item 21, exactly."""
        fit = self.fit
        return {
            "reviews": fit.reviews,
            "cards": fit.cards,
            "parameters": fit.parameters,
            "log_loss_before": fit.before.log_loss,
            "log_loss_after": fit.after.log_loss,
            "rmse_before": fit.before.rmse,
            "rmse_after": fit.after.rmse,
            "saved": self.saved,
        }


def optimize(workspace: Workspace, tag: str | None = None) -> OptimizeReport:
    """Fit FSRS to the reviews (of cards tagged ``tag``), save it and reschedule every card.

    Raises:
        NotEnoughHistory: too few reviews (exit 1); nothing is created or changed.
        QuizzerError: no card has ``tag`` (exit 2).
    """
    from quizzer.progress.optimizer import MIN_REVIEWS, NotEnoughHistory, fit, save_and_reschedule
    from quizzer.progress.parameters import desired_retention

    card_ids = None
    if tag is not None:
        from quizzer.app.choosing import load

        card_ids = {c.id for c in load(workspace).cards if tag in c.tags}
        if not card_ids:
            raise QuizzerError(f"no card has the tag {tag!r}")
    with workspace.existing_progress() as store:
        if store is None:
            raise NotEnoughHistory(f"optimize needs at least {MIN_REVIEWS} reviews (you have 0)")
        result = fit(store, card_ids)
        retention = desired_retention(store)
        changed = save_and_reschedule(store, result, retention, workspace.clock(), tag)
    return OptimizeReport(result, True, changed, retention, tag)


def saved(workspace: Workspace) -> SavedParameters | None:
    """The parameters ``optimize`` saved (None: FSRS's defaults), for ``quizzer config``."""
    from quizzer.progress.parameters import saved_parameters

    with workspace.existing_progress() as store:
        return saved_parameters(store)
