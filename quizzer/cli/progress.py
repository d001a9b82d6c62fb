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
    clock,
    complete_card,
    db_path_for,
    screen_for,
    sources_for,
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
    from quizzer.cards.deck import load_deck
    from quizzer.progress.schedule import FORECAST_DAYS, make_scheduler
    from quizzer.progress.stats import Report, card_history, report
    from quizzer.progress.store import Store

    screen = screen_for(ctx)
    path = db_path_for(ctx, db)
    now = clock()
    store = Store.open(path, create=False) if path.exists() else None
    try:
        if card is not None:
            if store is None:
                raise QuizzerError(f"no progress yet (no database at {path})")
            history = card_history(store, card, make_scheduler(), now)
            if not (history.attempts or history.reviews or history.due):
                # Nothing stored: a typo must not pass for a card never studied.
                # A follow-up's history is kept under CARD#follow-N.
                load_deck(sources_for(ctx, deck), cached=True).find(card.split("#")[0])
            if json:
                screen.json(
                    {
                        "card": card,
                        "due": history.due.isoformat() if history.due else None,
                        "retrievability": history.retrievability,
                        "lapses": history.lapses,
                        "attempts": [
                            {
                                "blank": a.blank,
                                "given": a.given,
                                "correct": a.correct,
                                "try": a.try_number,
                                "at": a.at.isoformat(),
                            }
                            for a in history.attempts
                        ],
                        "reviews": [
                            {"rating": r.rating, "at": r.at.isoformat()} for r in history.reviews
                        ],
                    }
                )
            else:
                with screen.paged(not no_pager):
                    screen.history(history, now)
            return
        if store is None:
            figures = Report(0, 0, 0, 0, 0, 0, 0, 0, [0] * FORECAST_DAYS)
        else:
            loaded = load_deck(sources_for(ctx, deck), cached=True)
            tags = {c.id: c.tags for c in loaded.cards}
            figures = report(store, tags, make_scheduler(), now)
    finally:
        if store is not None:
            store.close()
    if json:
        screen.json(figures.to_dict())
    else:
        with screen.paged(not no_pager):
            screen.report(figures, str(path), now)


@progress_app.command("export")
def export(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="JSON file to write.")],
    db: DbOption = None,
) -> None:
    """Write all progress to a JSON file (a versioned backup).

    Example: [bold]quizzer progress export backup.json[/bold]
    """
    from quizzer.progress.backup import write_backup
    from quizzer.progress.store import Store

    path = db_path_for(ctx, db)
    if not path.exists():
        raise QuizzerError(f"no progress to export (no database at {path})")
    with Store.open(path, create=False) as store:
        written = write_backup(store, file)
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
    from quizzer.files import open_regular
    from quizzer.progress.backup import import_backup
    from quizzer.progress.store import Store

    open_regular(file).close()  # a missing or special file is refused before any database work
    with Store.open(db_path_for(ctx, db)) as store:
        added = import_backup(store, file, clock())
    from quizzer.ui.widgets import counted

    answers, reviews = counted(added.attempts, "new answer"), counted(added.reviews, "new review")
    screen_for(ctx).note(f"imported {answers} and {reviews} from {file}")


@progress_app.command("reset")
def reset(
    ctx: typer.Context,
    card: Annotated[
        str | None, typer.Argument(help="Only this card (default: everything).", show_default=False)
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do it: there is no undo.")] = False,
    db: DbOption = None,
) -> None:
    """Forget progress, of one card or of everything. Needs --yes.

    Example: [bold]quizzer progress reset attention --yes[/bold]
    """
    from quizzer.progress.store import Store

    what = f"progress on {card}" if card else "all progress"
    if not yes:
        raise QuizzerError(f"this forgets {what}; add --yes to confirm (export a backup first)")
    path = db_path_for(ctx, db)
    if not path.exists():
        screen_for(ctx).note("no progress to reset")
        return
    with Store.open(path, create=False) as store:
        removed = store.reset(card)
    screen_for(ctx).note(f"forgot {what} ({removed} answers)")
