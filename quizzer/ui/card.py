"""``quizzer show``: a whole card, and the teaching sections other screens reuse."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from quizzer.ui.console import Output
from quizzer.ui.widgets import (
    GAP_STYLE,
    bullets,
    card_heading,
    markdown,
    section_panel,
    titled_grid,
)

if TYPE_CHECKING:
    from quizzer.cards.deck import LoadedCard
    from quizzer.cards.model import Card

SECTION_STYLES = {
    "intuition": "blue",
    "explanation": "blue",
    "limitations": "yellow",
    "used_in": "green",
    "red_flags": "red",
    "follow_ups": "magenta",
    "bullets": "cyan",
    "sources": "dim",
}


class CardScreen(Output):
    """The screen of ``show``."""

    def card(self, loaded: LoadedCard) -> None:
        """The whole card: prompt with numbered gaps, blanks, then every section."""
        card = loaded.card
        self.out.print(card_heading(card, with_symbols=False))
        self.out.print()
        self.out.print(blanks_table(card))
        if card.symbols:
            self.out.print(symbols_table(card))
        for renderable in teaching_panels(card):
            self.out.print(renderable)
        self.note(f"from {loaded.path}")


def blanks_table(card: Card) -> Table:
    """Each blank's number, name and answer, with the other accepted forms."""
    table = Table(show_header=False, box=None, pad_edge=False, padding=(0, 1))
    table.add_column(style=GAP_STYLE, no_wrap=True)
    table.add_column(style="bold")
    table.add_column()
    for number, (name, blank) in enumerate(card.blanks.items(), start=1):
        answer = Text(blank.answer, style="green")
        if blank.also:
            answer.append(f"  (also: {', '.join(blank.also)})", style="dim")
        table.add_row(f"[{number}]", name, answer)
    return table


def symbols_table(card: Card) -> Table:
    """Each symbol with its meaning, kind and other spellings."""
    table = titled_grid("Symbols")
    table.add_column(style="cyan", no_wrap=True)
    table.add_column()
    for name, symbol in card.symbols.items():
        notes = []
        if symbol.meaning:
            notes.append(symbol.meaning)
        kinds = [k for k, on in (("matrix", symbol.matrix), ("positive", symbol.positive)) if on]
        if kinds:
            notes.append(f"({', '.join(kinds)})")
        if symbol.aliases:
            notes.append(f"also written {', '.join(symbol.aliases)}")
        table.add_row(name, " ".join(notes))
    return table


def follow_ups_body(card: Card, *, with_approach: bool = True) -> RenderableType:
    """The follow-up questions, each with the approach an interviewer wants."""
    items: list[RenderableType] = []
    for number, follow in enumerate(card.follow_ups, start=1):
        items.append(Text.assemble((f"Q{number}. ", "bold magenta"), (follow.question, "bold")))
        if with_approach:
            items.append(markdown(follow.approach))
        items.append(Text())
    return Group(*items[:-1]) if items else Text()


def teaching_panels(card: Card, *, brief: bool = False) -> list[RenderableType]:
    """The card's teaching sections as panels, in reading order.

    ``brief`` keeps only what fits on the way to an interview: red flags and bullets.
    """
    panels: list[RenderableType] = []

    def add(key: str, title: str, body: RenderableType) -> None:
        panels.append(section_panel(title, body, SECTION_STYLES[key]))

    if not brief:
        if card.intuition:
            add("intuition", "Intuition", markdown(card.intuition))
        if card.explanation:
            add("explanation", "Explanation", markdown(card.explanation))
    if card.red_flags:
        add("red_flags", "Red flags", bullets(card.red_flags))
    if not brief:
        if card.follow_ups:
            add("follow_ups", "What an interviewer would ask next", follow_ups_body(card))
        if card.limitations:
            add("limitations", "Where it stops working", bullets(card.limitations))
        if card.used_in:
            add("used_in", "Used in", bullets(card.used_in))
    if card.bullets:
        add("bullets", "60-second review", bullets(card.bullets))
    if not brief and card.sources:
        lines = [s.title + (f" {s.url}" if s.url else "") for s in card.sources]
        add("sources", "Sources", bullets(lines))
    if not brief and card.related:
        panels.append(Text("Related: " + ", ".join(card.related), style="dim"))
    return panels
