"""``quizzer show``: a whole card, and the teaching sections other screens reuse."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.style import Style
from rich.table import Table
from rich.text import Text

from quizzer.cards.sections import Depth, Kind, Section, citation, sections_to
from quizzer.ui.view import View
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
    from quizzer.cards.model import Card, Source

#: Border colour of a section's panel: by kind, unless the section has its own.
KIND_STYLES: dict[Kind, str] = {
    "prose": "blue",
    "code": "blue",
    "list": "cyan",
    "follow_ups": "magenta",
    "sources": "dim",
    "related": "dim",
}
FIELD_STYLES = {"limitations": "yellow", "used_in": "green", "red_flags": "red"}


class CardView(View):
    """The screen of ``show``: a whole card."""

    def teaching(self, card: Card, depth: Depth) -> None:
        """Every section of ``card`` that a view of ``depth`` shows, in reading order."""
        for renderable in teaching_panels(card, depth):
            # Not cropped: a source's address is one long line the terminal wraps,
            # so it stays whole and clickable (see sources_body).
            self.out.print(renderable, crop=False)

    def card(self, loaded: LoadedCard) -> None:
        """The whole card: prompt with numbered gaps, blanks, then every section."""
        card = loaded.card
        self.out.print(card_heading(card, with_symbols=False))
        self.out.print()
        self.out.print(blanks_table(card))
        if card.symbols:
            self.out.print(symbols_table(card))
        self.teaching(card, Depth.REFERENCE)
        self.output.note(f"from {loaded.path}")


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


def teaching_panels(
    card: Card, depth: Depth, *, skip: Collection[str] = ()
) -> list[RenderableType]:
    """The card's teaching sections down to ``depth``, in reading order, but those in
    ``skip`` (fields a screen shows its own way)."""
    views = (section_view(card, s) for s in sections_to(depth) if s.field not in skip)
    return [view for view in views if view is not None]


def section_view(card: Card, section: Section) -> RenderableType | None:
    """One section as it is shown, or None when the card leaves it empty: a titled
    panel, except sources and related cards, whose addresses a border would break."""
    body = section_body(card, section)
    if body is None or section.kind in ("sources", "related"):
        return body
    return section_panel(section.title, body, section_style(section))


def section_style(section: Section) -> str:
    """The colour a section is drawn in."""
    return FIELD_STYLES.get(section.field, KIND_STYLES[section.kind])


def section_body(card: Card, section: Section) -> RenderableType | None:
    """A section's content drawn by its kind, or None when the card leaves it empty."""
    value = getattr(card, section.field)
    if not value:
        return None
    if section.kind == "prose":
        return markdown(value)
    if section.kind == "code":
        return code_block(value)
    if section.kind == "list":
        return bullets(value)
    if section.kind == "follow_ups":
        return follow_ups_body(card)
    if section.kind == "sources":
        return sources_body(section.title, value)
    return Text(f"{section.title}: " + ", ".join(value), style="dim")


def code_block(source: str) -> RenderableType:
    """Python source, highlighted with the terminal's own palette. quizzer never runs it."""
    from rich.syntax import Syntax

    return Syntax(source, "python", theme="ansi_dark", background_color="default", word_wrap=True)


def sources_body(title: str, sources: Sequence[Source]) -> RenderableType:
    """Each source on its line, its address whole on the next as a terminal link.

    The address is never wrapped or cropped by Rich (print it uncropped): the
    terminal wraps it, so a click or a copy takes all of it.
    """
    lines: list[RenderableType] = [Rule(title, style="dim", align="left")]
    for source in sources:
        lines.append(bullets([citation(source)]))
        if source.url:
            address = Text("  ", no_wrap=True, overflow="ignore")
            address.append(source.url, style=Style(link=source.url, underline=True))
            lines.append(address)
    return Group(*lines)
