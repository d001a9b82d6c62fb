"""``quizzer audit``: check cards against generated mutants of their answers."""

from __future__ import annotations

from typing import Annotated

import typer

from quizzer.cli.common import DeckOption, JsonOption, screen_for, workspace_for
from quizzer.errors import ExitCode

app = typer.Typer()


@app.command()
def audit(
    ctx: typer.Context,
    cards: Annotated[
        list[str] | None,
        typer.Argument(help="Card ids or files (default: every known card).", show_default=False),
    ] = None,
    deck: DeckOption = None,
    json: JsonOption = False,
) -> None:
    """Judge each blank's typical wrong answers (mutants) and its printed forms.

    Errors: a mutant the judge accepts, a SymPy-printed form it refuses.
    Warning: a mutant refused with only generic feedback.
    Exit 0 with no error, 1 otherwise.
    Example: [bold]quizzer audit attention --json[/bold]
    """
    from quizzer.app.auditing import audit as audit_cards

    screen = screen_for(ctx)
    report = audit_cards(workspace_for(ctx, deck), tuple(cards or ()))
    if json:
        screen.json(report.to_dict())
    else:
        for problem in report.problems:
            level = "error" if problem.is_error else "warning"
            screen.line(
                f"{problem.card}:{problem.blank}: {level}: {problem.kind}:"
                f" {problem.answer} — {problem.message}"
            )
        warnings = len(report.problems) - report.errors
        screen.line(
            f"{report.cards} cards audited: {report.errors} errors, {warnings} warnings"
            f" ({report.generic} of {report.mutants} refused mutants with generic feedback)"
        )
    if not report.ok:
        raise typer.Exit(int(ExitCode.NOT_OK))
