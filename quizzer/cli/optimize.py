"""``quizzer optimize``: FSRS fitted to your own reviews."""

from __future__ import annotations

from typing import Annotated

import typer

from quizzer.cli.common import DbOption, DeckOption, JsonOption, screen_for, workspace_for

app = typer.Typer()


@app.command()
def optimize(
    ctx: typer.Context,
    tag: Annotated[
        str | None,
        typer.Option("--tag", metavar="TAG", help="Fit on the cards with this tag only."),
    ] = None,
    db: DbOption = None,
    deck: DeckOption = None,
    json: JsonOption = False,
) -> None:
    """Fit the scheduler (FSRS) to your review history and reschedule every card with it.

    Prints how well FSRS's default and the fitted parameters predict your reviews
    (log loss and RMSE, lower is better), also on your latest reviews held out of
    the fit. Needs at least 400 reviews: with fewer it changes nothing (exit 1).
    Example: [bold]quizzer optimize[/bold]
    """
    from quizzer.app.optimizing import optimize as fit_and_save

    report = fit_and_save(workspace_for(ctx, deck, db), tag)
    screen = screen_for(ctx)
    if json:
        screen.json(report.to_dict())
    else:
        screen.optimizing.optimized(report)
