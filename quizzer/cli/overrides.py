"""``quizzer overrides``: the answers you counted as right over the judge."""

from __future__ import annotations

from typing import Annotated

import typer

from quizzer.cli.common import (
    DbOption,
    DeckOption,
    JsonOption,
    complete_card,
    db_path_for,
    screen_for,
    sources_for,
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
    from quizzer.cards.deck import load_deck
    from quizzer.progress.store import Store
    from quizzer.study.overrides import overrides_by_card

    screen = screen_for(ctx)
    loaded = load_deck(sources_for(ctx, deck), cached=True)
    known = loaded.by_id()
    if card is not None and card not in known:
        loaded.find(card)  # unknown: the error names the closest ids
    path = db_path_for(ctx, db)
    attempts = []
    if path.exists():
        with Store.open(path, create=False) as store:
            attempts = list(store.each_attempt(card, overridden_only=True))
    found = overrides_by_card(attempts, card)
    paths = {c.card_id: str(known[c.card_id].path) if c.card_id in known else None for c in found}
    if json:
        screen.json(
            [
                {
                    "card": item.card_id,
                    "path": paths[item.card_id],
                    "overrides": [
                        {"blank": a.blank, "given": a.given, "at": a.at.isoformat()}
                        for a in item.answers
                    ],
                    "examples": item.examples_yaml(),
                }
                for item in found
            ]
        )
        return
    screen.overrides(found, paths)
