"""Exporting cards as text: a Markdown study sheet, the deck as JSON.

Nothing here prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from quizzer.cards.model import Card
from quizzer.files import write_atomic


def markdown_sheet(cards: Sequence[Card], title: str = "quizzer study sheet") -> str:
    """A printable study sheet: per card the formula with its answers, bullets,
    red flags and follow-up questions."""
    lines = [f"# {title}", ""]
    for card in cards:
        lines += [f"## {card.title}", ""]
        if card.tags:
            lines += [" ".join(f"`#{tag}`" for tag in card.tags), ""]
        lines += [f"> {card.filled_prompt()}", ""]
        for name, blank in card.blanks.items():
            extra = f" (also: {', '.join(blank.also)})" if blank.also else ""
            lines.append(f"- **{name}**: `{blank.answer}`{extra}")
        lines.append("")
        if card.bullets:
            lines += ["**60-second review**", ""] + [f"- {b}" for b in card.bullets] + [""]
        if card.red_flags:
            lines += ["**Red flags**", ""] + [f"- {f}" for f in card.red_flags] + [""]
        if card.follow_ups:
            lines += ["**What an interviewer would ask next**", ""]
            for index, follow in enumerate(card.follow_ups, start=1):
                lines += [f"{index}. {follow.question}", f"   *Approach:* {follow.approach}"]
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def deck_json(cards: Sequence[Card]) -> list[dict[str, Any]]:
    """The cards as data; each item is valid against ``quizzer schema``."""
    return [card.model_dump(mode="json") for card in cards]


def write_text(path: Path, text: str) -> None:
    write_atomic(path, text)
