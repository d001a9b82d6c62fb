"""``quizzer check``: judge answers without a session and without saving progress."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from quizzer.cli.common import CardArgument, DeckOption, JsonOption, screen_for, workspace_for
from quizzer.errors import ExitCode

app = typer.Typer()


@app.command()
def check(
    ctx: typer.Context,
    card: CardArgument,
    answers: Annotated[
        list[str] | None,
        typer.Option(
            "--answer",
            "-a",
            metavar="TEXT",
            help="An answer, in blank order (repeat for each blank).",
        ),
    ] = None,
    deck: DeckOption = None,
    json: JsonOption = False,
    follow_up: Annotated[
        int | None,
        typer.Option(
            "--follow-up",
            metavar="N",
            help="Check one answer (-a TEXT, or standard input) against follow-up N's key"
            " points instead.",
        ),
    ] = None,
) -> None:
    """Judge answers to a card's blanks, in order. Nothing is saved.

    Exit 0 when every blank is right, 1 otherwise. With --follow-up N, exit 0
    when the answer covers every key point of follow-up N, 1 otherwise.
    Example: [bold]quizzer check attention -a 'd_k^(1/2)' -a V[/bold]
    """
    from quizzer.app import checking

    screen = screen_for(ctx)
    workspace = workspace_for(ctx, deck)
    given = list(answers or [])
    if follow_up is not None:
        if not given and not sys.stdin.isatty():  # echo "my answer" | quizzer check ...
            given = [sys.stdin.read()]
        checked = checking.check_follow_up(workspace, card, follow_up, " ".join(given))
        if json:
            screen.json(checked.to_dict())
        else:
            for line in checked.lines():
                screen.line(line)
        if checked.missed:
            raise typer.Exit(int(ExitCode.NOT_OK))
        return
    judged = checking.check_answers(workspace, card, given)
    if json:
        screen.json(judged.to_dict())
    else:
        screen.checks.verdicts(judged.card, judged.verdicts)
    if not judged.correct:
        raise typer.Exit(int(ExitCode.NOT_OK))
