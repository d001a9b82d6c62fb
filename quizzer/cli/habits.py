"""The daily loop's commands: ``suspend``, ``unsuspend`` and ``config``.

Each is options → a use case of :mod:`quizzer.app.habits` → the screen.
"""

from __future__ import annotations

from typing import Annotated

import typer

from quizzer.cli.common import DbOption, JsonOption, screen_for, workspace_for

app = typer.Typer()

CardIdsArgument = Annotated[
    list[str], typer.Argument(metavar="CARD...", help="Card ids.", show_default=False)
]


def _set_suspended(ctx: typer.Context, cards: list[str], db: DbOption, suspended: bool) -> None:
    from quizzer.app.habits import set_suspended
    from quizzer.ui.widgets import counted

    ids = set_suspended(workspace_for(ctx, None, db), cards, suspended)
    verb = "suspended" if suspended else "unsuspended"
    screen_for(ctx).line(f"{verb} {counted(len(ids), 'card')}: {', '.join(ids)}")


@app.command()
def suspend(ctx: typer.Context, cards: CardIdsArgument, db: DbOption = None) -> None:
    """Set cards aside: quiz, review and drill never choose them unless named.

    Example: [bold]quizzer suspend attention[/bold]
    """
    _set_suspended(ctx, cards, db, True)


@app.command()
def unsuspend(ctx: typer.Context, cards: CardIdsArgument, db: DbOption = None) -> None:
    """Bring suspended cards back into quiz, review and drill.

    Example: [bold]quizzer unsuspend attention[/bold]
    """
    _set_suspended(ctx, cards, db, False)


@app.command()
def config(
    ctx: typer.Context,
    key: Annotated[
        str | None, typer.Argument(metavar="[KEY]", help="A setting.", show_default=False)
    ] = None,
    value: Annotated[
        str | None,
        typer.Argument(metavar="[VALUE]", help="Its new value.", show_default=False),
    ] = None,
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Read or change a setting, kept in the progress database (it travels with backups).

    desired_retention (0.70-0.99, default 0.9), new_per_day (default 20),
    learning_steps (default '1m 10m'), relearning_steps (default '10m');
    sync_dir (this machine only; default none): quiz, review and drill sync
    through that folder at their start and end ('' turns it off).
    Examples: [bold]quizzer config[/bold], [bold]quizzer config new_per_day 10[/bold],
    [bold]quizzer config learning_steps '1m 10m 1h'[/bold]
    """
    from quizzer.app import habits
    from quizzer.progress.settings import NAMES, SYNC_DIR

    screen = screen_for(ctx)
    shown = habits.config(workspace_for(ctx, None, db), key, value)
    if json:
        screen.json(shown.to_dict())
        return
    if key == SYNC_DIR:  # a folder's path, not aligned with the settings
        screen.line(f"{SYNC_DIR}  {shown.settings[SYNC_DIR]}".rstrip())
        return
    width = max(len(name) for name in (*NAMES, SYNC_DIR))
    for name, setting in shown.settings.items():
        screen.line(f"{name.ljust(width)}  {setting}")
    if shown.all_settings:  # the FSRS parameters in use: fitted by `quizzer optimize`, not set here
        screen.optimizing.fitted_parameters(shown.fitted)
