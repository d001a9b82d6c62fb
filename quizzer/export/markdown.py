"""Exporting cards as text: a Markdown study sheet, the deck as JSON.

Nothing here prints.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from quizzer.answers.formula import filled_prompt
from quizzer.cards.model import Card
from quizzer.cards.sections import Depth, Section, citation, sections_to
from quizzer.files import write_atomic


def markdown_sheet(cards: Sequence[Card], title: str = "quizzer study sheet") -> str:
    """A printable study sheet: per card the formula with its answers, then what to
    read right after answering it (explanation, worked example, code, red flags,
    follow-ups, 60-second review)."""
    lines = [f"# {title}", ""]
    for card in cards:
        lines += [f"## {card.title}", ""]
        if card.tags:
            lines += [" ".join(f"`#{tag}`" for tag in card.tags), ""]
        lines += [f"> {filled_prompt(card)}", ""]
        for name, blank in card.blanks.items():
            extra = f" (also: {', '.join(blank.also)})" if blank.also else ""
            lines.append(f"- **{name}**: `{blank.answer}`{extra}")
        lines.append("")
        lines += sections_markdown(card, Depth.STUDY)
    return "\n".join(lines).rstrip() + "\n"


def sections_markdown(card: Card, depth: Depth) -> list[str]:
    """The card's teaching sections down to ``depth`` as Markdown lines, each titled."""
    lines: list[str] = []
    for section in sections_to(depth):
        body = _section_lines(card, section)
        if body:
            lines += [f"**{section.title}**", "", *body, ""]
    return lines


def _section_lines(card: Card, section: Section) -> list[str]:
    value = getattr(card, section.field)
    if not value:
        return []
    if section.kind == "prose":
        return [value.strip()]
    if section.kind == "code":
        return [_fenced(value, "python")]
    if section.kind == "list":
        return [f"- {_indented(item, 2)}" for item in value]
    if section.kind == "follow_ups":
        lines = []
        for index, follow in enumerate(card.follow_ups, start=1):
            approach = _indented(follow.approach, 3)
            lines += [f"{index}. {follow.question}", f"   *Approach:* {approach}"]
        return lines
    if section.kind == "sources":
        return [f"- {citation(s)}" + (f" <{s.url}>" if s.url else "") for s in card.sources]
    return [", ".join(f"`{card_id}`" for card_id in value)]


def _indented(text: str, width: int) -> str:
    """A list item's text with its later lines indented to stay inside the item."""
    return text.strip().replace("\n", "\n" + " " * width)


def _fenced(text: str, language: str) -> str:
    """A fenced code block whose fence is longer than any backtick run inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text.rstrip()}\n{fence}"


def deck_json(cards: Sequence[Card]) -> list[dict[str, Any]]:
    """The cards as data; each item is valid against ``quizzer schema``."""
    return [card.model_dump(mode="json") for card in cards]


def write_text(path: Path, text: str) -> None:
    write_atomic(path, text)
