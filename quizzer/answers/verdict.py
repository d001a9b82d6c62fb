"""The judgement of one answer to one blank, as every caller receives it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Status = Literal["correct", "wrong", "unreadable", "too_large", "unanswered"]


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """The judgement of one answer to one blank. Built by keyword only."""

    blank: str
    given: str
    correct: bool
    status: Status
    interpreted: str | None = None
    pretty: str | None = None
    feedback: str | None = None
    decided_by: str | None = None
    #: For unreadable answers: the 1-based column the problem is at.
    column: int | None = None
    #: For word blanks: every accepted form, to show when the answer is revealed.
    accepted: tuple[str, ...] = ()

    @classmethod
    def unanswered(cls, blank: str, given: str = "") -> Verdict:
        """Nothing was typed: not correct, and nothing to explain."""
        return cls(
            blank=blank, given=given, correct=False, status="unanswered", feedback="not answered"
        )

    @classmethod
    def too_large(cls, blank: str, given: str, feedback: str) -> Verdict:
        """An answer past a size or time limit: refused quickly, with the reason."""
        return cls(
            blank=blank,
            given=given,
            correct=False,
            status="too_large",
            feedback=feedback,
            decided_by="limits",
        )

    def to_dict(self) -> dict[str, Any]:
        """The contract's per-blank JSON object (DESIGN.md, item 5)."""
        return {
            "blank": self.blank,
            "given": self.given,
            "correct": self.correct,
            "interpreted": self.interpreted,
            "feedback": self.feedback,
        }
