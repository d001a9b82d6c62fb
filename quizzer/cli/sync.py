"""``quizzer sync DIR``: share this device's history through a folder, merge the others'."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from quizzer.cli.common import DbOption, JsonOption, screen_for, workspace_for

app = typer.Typer()


@app.command()
def sync(
    ctx: typer.Context,
    folder: Annotated[
        Path, typer.Argument(metavar="DIR", help="A folder shared between your machines.")
    ],
    git: Annotated[
        bool,
        typer.Option(
            "--git", help="DIR is a git working tree: pull --rebase, commit and push too."
        ),
    ] = False,
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Sync progress with your other machines through a shared folder (Syncthing, Dropbox, git).

    Each machine appends its new answers and reviews to its own file in DIR
    and merges every other machine's; syncing twice, or in any order, changes
    nothing more. Example: [bold]quizzer sync ~/Sync/quizzer[/bold]
    """
    from quizzer.app.syncing import sync as sync_folder

    result = sync_folder(workspace_for(ctx, None, db), folder, git=git)
    screen = screen_for(ctx)
    if json:
        screen.json(result.to_dict())
        return
    from quizzer.ui.widgets import counted

    sent, received = counted(result.sent, "record"), counted(result.received, "record")
    screen.note(f"sync: sent {sent}, received {received} ({counted(result.devices, 'device')})")
