"""``quizzer import``: cards from other tools' decks (Anki packages)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from quizzer.cli.common import DbOption, JsonOption, screen_for, workspace_for

app = typer.Typer(name="import", help="Import cards from Anki.", no_args_is_help=True)


@app.command("anki")
def anki(
    ctx: typer.Context,
    package: Annotated[
        Path,
        typer.Argument(metavar="FILE", help="An Anki package: .apkg (a deck) or .colpkg."),
    ],
    to: Annotated[
        Path,
        typer.Option("--to", metavar="DIR", help="Folder to write the cards in (created)."),
    ],
    with_history: Annotated[
        bool,
        typer.Option(
            "--with-history",
            help="Also bring the notes' Anki reviews into your progress (scheduled by FSRS).",
        ),
    ] = False,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Turn every note of an Anki package into a card file in DIR.

    Cloze notes get one blank per cloze number (the cloze hint as the hint);
    basic and reversed notes one blank for the back. Tags are kept, HTML becomes
    Markdown, MathJax stays LaTeX; media are counted, not copied. Importing again
    updates the cards it wrote and leaves the ones you edited alone.
    Example: [bold]quizzer import anki Biology.apkg --to ~/cards/biology[/bold]
    """
    from quizzer.app.importing import import_anki

    result = import_anki(workspace_for(ctx, None, db), package, to, with_history=with_history)
    screen = screen_for(ctx)
    if json:
        screen.json(result.to_dict())
    else:
        screen.imports.anki_import(result)
