"""The small words of studying: why a session ended, a grade, a follow-up's id."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Literal

EndReason = Literal["finished", "quit", "end of input", "interrupted", "time"]


class Grade(IntEnum):
    """How well a card (or a follow-up) went; the values are FSRS's ratings."""

    AGAIN = 1
    HARD = 2
    GOOD = 3
    EASY = 4

    @property
    def label(self) -> str:
        return self.name.capitalize()


#: The one set of keys that name a grade, at the quiz's rating prompt and the
#: drill's self-grade prompt alike.
GRADE_KEYS: dict[str, Grade] = {
    "1": Grade.AGAIN, "2": Grade.HARD, "3": Grade.GOOD, "4": Grade.EASY,
    "again": Grade.AGAIN, "hard": Grade.HARD, "good": Grade.GOOD, "easy": Grade.EASY,
    "a": Grade.AGAIN, "h": Grade.HARD, "g": Grade.GOOD, "e": Grade.EASY,
    "y": Grade.GOOD, "yes": Grade.GOOD, "n": Grade.AGAIN, "no": Grade.AGAIN,
}  # fmt: skip
GRADE_KEYS_HELP = "y/n, or 1 Again 2 Hard 3 Good 4 Easy"


def parse_grade(text: str) -> Grade | None:
    """The grade a key names, as quiz and drill both read it.

    Args:
        text: What was typed (``3``, ``good``, ``g``, ``y`` ...; case and spaces ignored).

    Returns:
        The grade, or None when the text names none.
    """
    return GRADE_KEYS.get(text.strip().lower())


@dataclass(frozen=True, order=True)
class FollowUpId:
    """A card's follow-up question as a review item of its own.

    Stored under its text form, ``attention#follow-1`` (1-based), which is
    what :func:`str` gives; the fields are what code works with.
    """

    card_id: str
    index: int  # 0-based position in the card's follow_ups

    def __str__(self) -> str:
        return f"{self.card_id}#follow-{self.index + 1}"

    @property
    def number(self) -> int:
        return self.index + 1
