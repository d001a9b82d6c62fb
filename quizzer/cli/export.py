"""``quizzer export``: Anki packages, Markdown study sheets, the deck as JSON.

Each command is one row of :data:`quizzer.app.exporting.EXPORTERS` run on the
cards chosen by its arguments.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from quizzer.cli.common import DeckOption, SearchOption, TagsOption, screen_for, workspace_for
from quizzer.cli.sessions import CardsArgument

app = typer.Typer(
    name="export", help="Export cards to Anki, Markdown or JSON.", no_args_is_help=True
)

OutArgument = Annotated[Path, typer.Argument(metavar="OUT", help="File to write.")]


def _export(
    ctx: typer.Context,
    format_name: str,
    out: Path,
    cards: list[str] | None,
    tag: list[str] | None,
    deck: list[Path] | None,
    search: str | None,
) -> None:
    from quizzer.app.choosing import CardChoice
    from quizzer.app.exporting import export
    from quizzer.ui.widgets import counted

    choice = CardChoice(
        names=tuple(cards or ()), tags=tuple(tag or ()), search=search, purpose="to export"
    )
    written = export(workspace_for(ctx, deck), format_name, out, choice)
    screen_for(ctx).note(f"wrote {counted(written.count, written.unit)} to {written.out}")


@app.command("anki")
def anki(
    ctx: typer.Context,
    out: OutArgument,
    cards: CardsArgument = None,
    tag: TagsOption = None,
    deck: DeckOption = None,
    search: SearchOption = None,
) -> None:
    """Write an Anki package: one type-in cloze note per card, explanations on the back.

    Re-exporting after an edit updates the same notes (stable GUIDs).
    Example: [bold]quizzer export anki ml.apkg --tag transformers[/bold]
    """
    _export(ctx, "anki", out, cards, tag, deck, search)


@app.command("markdown")
def markdown(
    ctx: typer.Context,
    out: OutArgument,
    cards: CardsArgument = None,
    tag: TagsOption = None,
    deck: DeckOption = None,
    search: SearchOption = None,
    brief: Annotated[
        bool,
        typer.Option(
            "--brief",
            help="Only the formula, 60-second review, red flags and follow-up questions.",
        ),
    ] = False,
) -> None:
    """Write a Markdown study sheet: formulas, explanations, red flags, follow-ups.

    With --brief, a printable revision sheet: per card the formula, the 60-second
    review, the red flags and the follow-up questions.
    Example: [bold]quizzer export markdown sheet.md attention layer-norm[/bold]
    """
    _export(ctx, "markdown-brief" if brief else "markdown", out, cards, tag, deck, search)


@app.command("json")
def json_(
    ctx: typer.Context,
    out: OutArgument,
    cards: CardsArgument = None,
    tag: TagsOption = None,
    deck: DeckOption = None,
    search: SearchOption = None,
) -> None:
    """Write the cards as a JSON list; each item matches `quizzer schema`.

    Example: [bold]quizzer export json deck.json[/bold]
    """
    _export(ctx, "json", out, cards, tag, deck, search)
