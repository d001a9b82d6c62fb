"""Small renderables and wordings that several screens share.

Everything here builds and returns; nothing prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from datetime import datetime, timedelta

    from rich.markdown import Markdown

    from quizzer.cards.model import Card, Gap  # pydantic: not loaded to list cached cards

GAP_STYLE = "bold reverse cyan"


def markdown(text: str) -> Markdown:
    """Card prose (Markdown) as a renderable."""
    # rich.markdown pulls in markdown-it; only screens that show prose need it.
    from rich.markdown import Markdown

    return Markdown(text)


def bullets(items: Iterable[str]) -> Table:
    """A bulleted list with a hanging indent."""
    # A two-column grid gives a hanging indent without Markdown's blank lines.
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for item in items:
        grid.add_row("•", item)
    return grid


def section_panel(title: str, body: RenderableType, style: str) -> Panel:
    """A titled box around one section."""
    return Panel(body, title=title, title_align="left", border_style=style, padding=(0, 1))


def report_table(title: str) -> Table:
    """The borderless titled table used by end-of-session reports."""
    return Table(
        title=title,
        title_justify="left",
        title_style="bold",
        header_style="bold",
        show_edge=False,
        pad_edge=False,
    )


def titled_grid(title: str) -> Table:
    """A borderless table without headers under a bold left-aligned title."""
    return Table(
        title=title,
        title_justify="left",
        title_style="bold",
        box=None,
        show_header=False,
        pad_edge=False,
    )


def card_title(card: Card) -> Text:
    """The card's title in bold, then its tags."""
    title = Text(card.title, style="bold")
    if card.tags:
        title.append("  " + " ".join(f"#{tag}" for tag in card.tags), style="green")
    return title


def prompt_text(parts: Sequence[str | Gap], filled: dict[str, str] | None = None) -> Text:
    """The prompt with each gap shown as its number, or as its answer once filled."""
    from quizzer.cards.model import Gap

    text = Text()
    for part in parts:
        if isinstance(part, Gap):
            if filled and part.name in filled:
                text.append(filled[part.name], style="bold green")
            else:
                text.append(f"[{part.number}]", style=GAP_STYLE)
        else:
            text.append(part)
    return text


def symbols_line(card: Card) -> Text | None:
    """``symbols: d_k (or dk), Q`` — the names an answer may use, or None without any."""
    names = [
        name + (f" (or {', '.join(s.aliases)})" if s.aliases else "")
        for name, s in card.symbols.items()
    ]
    return Text("symbols: " + ", ".join(names), style="dim") if names else None


def card_heading(card: Card, *, with_symbols: bool = True) -> Group:
    """What a card opens with on every screen: title and tags, the prompt, its symbols."""
    lines: list[RenderableType] = [card_title(card), prompt_text(card.prompt_parts())]
    symbols = symbols_line(card) if with_symbols else None
    if symbols is not None:
        lines.append(symbols)
    return Group(*lines)


def filled_line(card: Card, filled: dict[str, str], *, right: bool) -> Text:
    """The prompt with every answer in place, bracketed where precedence needs it.

    It opens with ``✔`` when the learner got every blank, else with ``answer:``:
    a green tick over a card just failed would read as a pass.
    """
    from quizzer.answers.formula import fitted_answers

    fitted = fitted_answers(card, filled)
    mark = ("✔ ", "bold green") if right else ("answer: ", "bold")
    return Text.assemble(mark, prompt_text(card.prompt_parts(), fitted))


def _control_picture(code: int) -> str:
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ ... ␟, one column like the byte it stands for
    return "\u2421" if code == 0x7F else "\ufffd"  # ␡; C1 controls (0x80-0x9F): �


#: Control characters mapped to visible stand-ins, for :meth:`str.translate`;
#: tab and newline are harmless and lay out multi-line feedback.
_VISIBLE = {
    code: _control_picture(code)
    for code in [*range(0x20), *range(0x7F, 0xA0)]
    if chr(code) not in "\t\n"
}


def visible(typed: str) -> str:
    """What a learner typed, safe to print: control characters become visible symbols.

    A pasted answer can carry escape sequences; echoed raw they would recolour
    or rewrite the learner's terminal. One symbol per character keeps the
    columns, so the ``^`` under a parse error still points at the right place.
    """
    return typed.translate(_VISIBLE)


def counted(count: int, noun: str) -> str:
    """``1 card``, ``2 cards``: a count with its noun, plural when it is not one."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def percent(fraction: float | None) -> str:
    """``fraction`` as a whole percentage, or a dash where there is nothing to measure."""
    return "–" if fraction is None else f"{fraction:.0%}"


def crop(text: str, width: int) -> str:
    """``text`` cut to ``width`` terminal cells, with an ellipsis when cut."""
    from rich.cells import cell_len, set_cell_size

    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return text
    return set_cell_size(text, width - 1) + "…"


def relative(delta: timedelta) -> str:
    """``in 3 days``, ``in under a minute``, ``now``."""
    seconds = delta.total_seconds()
    if seconds <= 0:
        return "now"
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            count = round(seconds / size)
            return f"in {counted(count, unit)}"
    return "in under a minute"


def when(moment: datetime) -> str:
    """A moment as ``Mon 30 Nov 11:28 UTC``."""
    return moment.strftime("%a %d %b %H:%M UTC")


def clock_face(delta: timedelta) -> str:
    """A time left as ``m:ss``."""
    seconds = max(0, int(delta.total_seconds()))
    return f"{seconds // 60}:{seconds % 60:02d}"


def duration(ms: int) -> str:
    """A time taken as ``4.2s`` or ``3m05s``."""
    seconds = ms / 1000
    return f"{seconds:.1f}s" if seconds < 60 else f"{int(seconds // 60)}m{int(seconds % 60):02d}s"


@dataclass(frozen=True)
class Column:
    """A column of :func:`line_table`: its header and how its cells sit."""

    header: str
    justify: Literal["left", "center", "right"] = "left"
    #: The column may give up width when the table is too wide, its cells wrapped.
    folds: bool = False


def line_table(
    columns: Sequence[Column], rows: Iterable[Sequence[str | Text]], console: Console
) -> Text:
    """A table drawn as lines of text, in the look of ``Table(show_edge=False, pad_edge=False)``.

    For tables of many short rows (``stats CARD``'s last 100 answers): a Rich
    table measures and renders every cell as a renderable of its own, 70 ms for
    100 rows of five cells; this takes 7 ms. Box drawing falls back to ASCII
    where the console cannot show it, as a Rich table's does.
    """
    from rich.box import HEAVY_HEAD
    from rich.cells import cell_len

    box = HEAVY_HEAD.substitute(console.options)
    width = console.width
    cells = [[cell if isinstance(cell, Text) else Text(cell) for cell in row] for row in rows]
    widths = [
        max([cell_len(column.header), *(row[index].cell_len for row in cells)])
        for index, column in enumerate(columns)
    ]
    # Too wide: the widest folding column gives up a cell at a time (as Rich shares
    # the shortfall out), none below four.
    over = sum(widths) + 3 * (len(columns) - 1) - width
    folding = [index for index, column in enumerate(columns) if column.folds]
    while over > 0 and folding:
        widest = max(folding, key=lambda index: widths[index])
        if widths[widest] <= 4:
            break
        widths[widest] -= 1
        over -= 1
    table = Text()
    header = [Text(column.header, style="bold") for column in columns]
    _table_line(table, header, columns, widths, f" {box.head_vertical} ")
    table.append(box.head_row_cross.join(box.head_row_horizontal * (w + 2) for w in widths)[1:-1])
    table.append("\n")
    for row in cells:
        parts = [
            cell.wrap(console, widths[index], overflow="fold")
            if columns[index].folds and cell.cell_len > widths[index]
            else [cell]
            for index, cell in enumerate(row)
        ]
        for depth in range(max(len(lines) for lines in parts)):
            line = [lines[depth] if depth < len(lines) else Text() for lines in parts]
            _table_line(table, line, columns, widths, f" {box.mid_vertical} ")
    table.rstrip()
    return table


def _table_line(
    table: Text, cells: Sequence[Text], columns: Sequence[Column], widths: Sequence[int], bar: str
) -> None:
    for index, (cell, column) in enumerate(zip(cells, columns, strict=True)):
        if index:
            table.append(bar)
        padded = cell.copy()
        last = index == len(columns) - 1
        if not (last and column.justify == "left"):  # no spaces at the end of a line
            padded.align(column.justify, widths[index])
        table.append_text(padded)
    table.append("\n")
