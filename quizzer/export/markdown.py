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

#: What starts inline Markdown (emphasis, code, links, HTML, entities, tables, strikes).
_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&])")
#: What starts a block at the beginning of a line: a heading, a list, a quote.
_LINE_START = re.compile(r"^(\s*)([#>+=-])")
_ORDERED = re.compile(r"^(\s*\d+)([.)])")


def escape(text: str) -> str:
    """Text a Markdown renderer shows exactly as written: every character that could
    start emphasis, code, a link, HTML, a heading or a list is backslash-escaped."""
    escaped = _SPECIAL.sub(r"\\\1", text.replace("\n", " "))
    escaped = _LINE_START.sub(r"\1\\\2", escaped)
    return _ORDERED.sub(r"\1\\\2", escaped)


def code_span(text: str) -> str:
    """``text`` as inline code, shown verbatim whatever backticks it holds."""
    text = text.replace("\n", " ")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    # CommonMark strips one space from each end of a code span that has both.
    pad = " " if text[:1] in ("`", " ") or text[-1:] in ("`", " ") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def markdown_sheet(
    cards: Sequence[Card], title: str = "quizzer study sheet", *, brief: bool = False
) -> str:
    """A printable study sheet: per card the formula with its answers, then what to
    read right after answering it (explanation, worked example, code, red flags,
    follow-ups, 60-second review).

    With ``brief``, only what fits on a page to revise from: the formula, the
    60-second review, the red flags and the follow-up questions (without their
    answers). Everything inserted from a card outside its Markdown sections (title,
    formula, answers, accepted words, citations) is escaped or code, so a renderer
    shows it as written: ``gamma*lam`` stays ``gamma*lam``, never italics.
    """
    lines = [f"# {escape(title)}", ""]
    for card in cards:
        lines += [f"## {escape(card.title)}", ""]
        if card.tags and not brief:
            lines += [" ".join(code_span(f"#{tag}") for tag in card.tags), ""]
        lines += [f"> {code_span(filled_prompt(card))}", ""]
        if brief:
            lines += _brief_lines(card)
            continue
        for name, blank in card.blanks.items():
            also = ", ".join(escape(word) for word in blank.also)
            extra = f" (also: {also})" if blank.also else ""
            lines.append(f"- **{escape(name)}**: {code_span(blank.answer)}{extra}")
        lines.append("")
        lines += sections_markdown(card, Depth.STUDY)
    return "\n".join(lines).rstrip() + "\n"


def _brief_lines(card: Card) -> list[str]:
    lines: list[str] = []
    for section in sections_to(Depth.REVIEW):
        body = _section_lines(card, section)
        if body:
            lines += [f"**{section.title}**", "", *body, ""]
    if card.follow_ups:
        questions = [f"{i}. {_indented(f.question, 3)}" for i, f in enumerate(card.follow_ups, 1)]
        lines += ["**Follow-up questions**", "", *questions, ""]
    return lines


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
        return [
            f"- {escape(citation(s))}" + (f" <{s.url.replace('>', '%3E')}>" if s.url else "")
            for s in card.sources
        ]
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
