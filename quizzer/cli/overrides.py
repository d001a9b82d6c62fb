"""``quizzer overrides``: the answers you counted as right over the judge."""

from __future__ import annotations

from typing import Annotated

import typer

from quizzer.cli.common import (
    DbOption,
    DeckOption,
    JsonOption,
    complete_card,
    screen_for,
    workspace_for,
)

app = typer.Typer()


@app.command()
def overrides(
    ctx: typer.Context,
    card: Annotated[
        str | None,
        typer.Argument(
            metavar="[CARD]",
            help="Only this card's overrides.",
            show_default=False,
            autocompletion=complete_card,
        ),
    ] = None,
    json: JsonOption = False,
    db: DbOption = None,
    deck: DeckOption = None,
) -> None:
    """List the answers you counted as right with /override, per card.

    Each card comes with an examples: snippet to paste under its blanks, so a
    dispute with the judge becomes a test the card runs (quizzer validate).
    Example: [bold]quizzer overrides attention[/bold]
    """
    from quizzer.app import reports

    screen = screen_for(ctx)
    found = reports.overrides(workspace_for(ctx, deck, db), card)
    if json:
        screen.json(found.to_list())
        return
    screen.overrides.overrides(found.cards, found.sources)
