"""``quizzer drill``: a timed mock interview."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from quizzer.cli.common import (
    DbOption,
    DeckOption,
    JsonOption,
    SearchOption,
    TagsOption,
    finite,
    screen_for,
    workspace_for,
)
from quizzer.cli.study import exit_if_interrupted, terminal_learner
from quizzer.cli.sync import sync_around
from quizzer.study import defaults

app = typer.Typer()


@app.command()
def drill(
    ctx: typer.Context,
    tag: TagsOption = None,
    minutes: Annotated[
        float,
        typer.Option(
            "--minutes", "-m", min=0.5, max=240, callback=finite, help="Length of the drill."
        ),
    ] = defaults.DRILL_MINUTES,
    cards: Annotated[
        int, typer.Option("--cards", "-n", min=1, help="Cards to ask.")
    ] = defaults.DRILL_CARDS,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for the order of new cards.")
    ] = None,
    sheet: Annotated[
        Path | None,
        typer.Option("--sheet", metavar="FILE.md", help="Also write the cheat sheet here."),
    ] = None,
    list_topics: Annotated[
        bool,
        typer.Option("--list-topics", help="List the tags with card counts and your accuracy."),
    ] = False,
    no_record: Annotated[bool, typer.Option("--no-record", help="Do not save progress.")] = False,
    json: JsonOption = False,
    db: DbOption = None,
    deck: DeckOption = None,
    search: SearchOption = None,
) -> None:
    """A timed mock interview: blanks with one try and no hints, then a follow-up question.

    A typed follow-up answer is checked on its key points and a grade proposed (Enter takes
    it, 1-4 changes it); said out loud, grade it yourself (y/n or 1-4). Weak ones come back.
    Example: [bold]quizzer drill --tag transformers --minutes 10 --sheet revise.md[/bold]
    """
    from quizzer.app import reports, studying
    from quizzer.app.choosing import CardChoice

    workspace = workspace_for(ctx, deck, db)
    screen = screen_for(ctx)
    if list_topics:
        found = reports.topics(workspace)
        if json:
            screen.json(found.to_list())
        else:
            screen.drill.topics(found.topics)
        return
    if not no_record:
        sync_around(ctx, workspace)
    learner = terminal_learner(workspace, screen, screen.drill_event)
    ended, _ = studying.drill(
        workspace,
        CardChoice(tags=tuple(tag or ()), search=search, seed=seed, purpose="to drill"),
        learner,
        count=cards,
        minutes=minutes,
        record=not no_record,
        sheet=sheet,
    )
    exit_if_interrupted(ended)
