"""``quizzer check``: judge answers without a session and without saving progress."""

from __future__ import annotations

from typing import Annotated

import typer

from quizzer.cli.common import CardArgument, DeckOption, JsonOption, screen_for, workspace_for
from quizzer.errors import ExitCode, QuizzerError

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
) -> None:
    """Judge answers to a card's blanks, in order. Nothing is saved.

    Exit 0 when every blank is right, 1 otherwise.
    Example: [bold]quizzer check attention -a 'd_k^(1/2)' -a V[/bold]
    """
    from quizzer.cards.deck import resolve_card

    screen = screen_for(ctx)
    loaded = resolve_card(card, workspace_for(ctx, deck).sources(), cached=True)
    given = list(answers or [])
    names = list(loaded.card.blanks)
    if len(given) > len(names):
        from quizzer.ui.widgets import counted

        raise QuizzerError(
            f"card '{loaded.id}' has {counted(len(names), 'blank')}"
            f" ({', '.join(names)}) but {len(given)} answers were given"
        )
    from quizzer.answers import CardJudge, judge_bounded, unanswered

    judge = CardJudge(loaded.card)
    verdicts = [
        judge_bounded(judge, name, given[i]) if i < len(given) else unanswered(name)
        for i, name in enumerate(names)
    ]
    correct = all(v.correct for v in verdicts)
    if json:
        screen.json(
            {"card": loaded.id, "correct": correct, "blanks": [v.to_dict() for v in verdicts]}
        )
    else:
        screen.verdicts(loaded.card, verdicts)
    if not correct:
        raise typer.Exit(int(ExitCode.NOT_OK))
