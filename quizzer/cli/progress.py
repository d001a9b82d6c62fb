"""Commands about progress: stats, and the progress group (export, import, reset)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from quizzer.cli.common import (
    DbOption,
    DeckOption,
    JsonOption,
    NoPagerOption,
    complete_card,
    screen_for,
    workspace_for,
)
from quizzer.errors import QuizzerError

app = typer.Typer()
progress_app = typer.Typer(
    name="progress", help="Back up, restore or reset your progress.", no_args_is_help=True
)


@app.command()
def stats(
    ctx: typer.Context,
    card: Annotated[
        str | None,
        typer.Argument(
            help="Show one card's history instead.",
            show_default=False,
            autocompletion=complete_card,
        ),
    ] = None,
    db: DbOption = None,
    deck: DeckOption = None,
    json: JsonOption = False,
    no_pager: NoPagerOption = False,
) -> None:
    """Your progress: accuracy, streak, accuracy by tag, what falls due, weakest cards.

    Example: [bold]quizzer stats[/bold]  or  [bold]quizzer stats attention[/bold]
    """
    from quizzer.app import reports

    workspace = workspace_for(ctx, deck, db)
    screen = screen_for(ctx)
    if card is not None:
        from quizzer.ui.stats import HISTORY_ROWS

        # The screen shows the last answers only: read just those (--json has them all).
        history = reports.history(workspace, card, last=None if json else HISTORY_ROWS)
        if json:
            screen.json(history.to_dict())
        else:
            with screen.paged(not no_pager):
                screen.stats.history(history.history, history.now)
        return
    figures = reports.stats(workspace)
    if json:
        screen.json(figures.to_dict())
    else:
        with screen.paged(not no_pager):
            screen.stats.report(figures.figures, figures.db_path, figures.now)


@progress_app.command("export")
def export(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="JSON file to write.")],
    db: DbOption = None,
) -> None:
    """Write all progress to a JSON file (a versioned backup).

    Example: [bold]quizzer progress export backup.json[/bold]
    """
    from quizzer.app.backups import export_progress

    written = export_progress(workspace_for(ctx, None, db), file)
    from quizzer.ui.widgets import counted

    answers, reviews = counted(written.attempts, "answer"), counted(written.reviews, "review")
    screen_for(ctx).note(f"exported {answers} and {reviews} to {file}")


@progress_app.command("import")
def import_(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="JSON file from 'quizzer progress export'.")],
    db: DbOption = None,
) -> None:
    """Merge a progress backup into your progress (importing twice changes nothing).

    Example: [bold]quizzer progress import backup.json[/bold]
    """
    from quizzer.app.backups import import_progress

    added = import_progress(workspace_for(ctx, None, db), file)
    from quizzer.ui.widgets import counted

    answers, reviews = counted(added.attempts, "new answer"), counted(added.reviews, "new review")
    screen_for(ctx).note(f"imported {answers} and {reviews} from {file}")


@progress_app.command("reset")
def reset(
    ctx: typer.Context,
    card: Annotated[
        str | None,
        typer.Argument(
            help="Only this card (default: everything).",
            show_default=False,
            autocompletion=complete_card,
        ),
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do it: there is no undo.")] = False,
    db: DbOption = None,
) -> None:
    """Forget progress, of one card or of everything. Needs --yes.

    Example: [bold]quizzer progress reset attention --yes[/bold]
    """
    what = f"progress on {card}" if card else "all progress"
    if not yes:
        raise QuizzerError(f"this forgets {what}; add --yes to confirm (export a backup first)")
    from quizzer.app.backups import reset_progress

    removed = reset_progress(workspace_for(ctx, None, db), card)
    if removed is None:
        screen_for(ctx).note("no progress to reset")
        return
    screen_for(ctx).note(f"forgot {what} ({removed} answers)")
