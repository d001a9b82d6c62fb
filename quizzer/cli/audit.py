"""``quizzer audit``: check cards against generated mutants of their answers."""

from __future__ import annotations

from typing import Annotated

import typer

from quizzer.cli.common import DeckOption, JsonOption, screen_for, sources_for
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
    from quizzer.answers.audit import audit_cards
    from quizzer.cards.deck import load_deck, resolve_card

    screen = screen_for(ctx)
    sources = sources_for(ctx, deck)
    if cards:
        chosen = [resolve_card(name, sources, cached=True).card for name in cards]
    else:
        chosen = [loaded.card for loaded in load_deck(sources, cached=True).cards]
    report = audit_cards(chosen)
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
