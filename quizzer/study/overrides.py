"""Answers the learner counted as right over the judge (``/override``), per card.

Each is a dispute about the card: either the judge is wrong (the author adds
the answer to the blank's ``examples`` as correct, and fixes the card) or the
learner is. :func:`examples_yaml` writes the snippet to paste.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from quizzer.progress.store import Attempt


@dataclass(frozen=True)
class OverriddenAnswer:
    """One answer the judge rejected and the learner counted as right."""

    blank: str
    given: str
    at: datetime


@dataclass(frozen=True)
class CardOverrides:
    """A card's overridden answers, oldest first."""

    card_id: str
    answers: tuple[OverriddenAnswer, ...]

    def examples_yaml(self) -> str:
        """The card's overridden answers as ``examples:`` entries, ready to paste.

        One entry per distinct answer, under its blank, marked ``correct: true``
        as the learner claims; the author decides whether the claim holds.

        Returns:
            A YAML snippet (``blanks:`` down to each example), ending in a newline.
        """
        lines = ["blanks:"]
        by_blank: dict[str, list[str]] = {}
        for answer in self.answers:
            given = by_blank.setdefault(answer.blank, [])
            if answer.given not in given:
                given.append(answer.given)
        for blank, answers in by_blank.items():
            lines += [f"  {_key(blank)}:", "    examples:"]
            lines += [f"      - {{answer: {yaml_quoted(text)}, correct: true}}" for text in answers]
        return "\n".join(lines) + "\n"


def overrides_by_card(
    attempts: Iterable[Attempt], card_id: str | None = None
) -> list[CardOverrides]:
    """Overridden attempts grouped by card.

    Args:
        attempts: Stored attempts, overridden or not.
        card_id: Only this card's (default: every card's).

    Returns:
        One entry per card, sorted by id, its answers oldest first.
    """
    grouped: dict[str, list[OverriddenAnswer]] = {}
    for attempt in attempts:
        if attempt.overridden and card_id in (None, attempt.card_id):
            answer = OverriddenAnswer(attempt.blank, attempt.given, attempt.at)
            grouped.setdefault(attempt.card_id, []).append(answer)
    return [
        CardOverrides(card, tuple(sorted(answers, key=lambda a: a.at)))
        for card, answers in sorted(grouped.items())
    ]


def yaml_quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar that reads back exactly.

    Characters YAML may not hold raw (controls, DEL, a BOM) are escaped, not
    dropped: an answer typed with one is still the answer the learner gave.

    Args:
        text: Any string.

    Returns:
        The scalar, quotes included.
    """
    out = []
    for char in text:
        code = ord(char)
        if char in '"\\':
            out.append("\\" + char)
        elif _printable(code):
            out.append(char)
        elif code <= 0xFF:
            out.append(f"\\x{code:02x}")
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return '"' + "".join(out) + '"'


def _printable(code: int) -> bool:
    """Whether YAML 1.1 (PyYAML) accepts this character as written."""
    return (
        0x20 <= code <= 0x7E
        or 0xA0 <= code <= 0xD7FF
        or (0xE000 <= code <= 0xFFFD and code != 0xFEFF)
        or 0x10000 <= code <= 0x10FFFF
    )


def _key(name: str) -> str:
    """A blank's name as a YAML mapping key (quoted unless plainly safe)."""
    plain = name.replace("_", "").replace("-", "").isalnum() and not name[:1].isdigit()
    return name if plain else yaml_quoted(name)
