"""``quizzer sync DIR``: share this device's history through a folder, merge the others'."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from quizzer.cli.common import DbOption, JsonOption, screen_for, workspace_for

if TYPE_CHECKING:
    from quizzer.app.workspace import Workspace

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


def sync_around(ctx: typer.Context, workspace: Workspace) -> None:
    """Sync now and again when the command ends, if a sync folder is configured.

    For every study command: one line on stderr when the folder cannot be
    reached, and the session goes on.
    """
    from quizzer.app.syncing import auto_sync, configured_sync_dir

    if configured_sync_dir(workspace) is None:
        return
    screen = screen_for(ctx)

    def run() -> None:
        message = auto_sync(workspace)
        if message:
            screen.warning(message)

    run()
    ctx.call_on_close(run)
