"""Options and helpers shared by the command modules."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

# Typer bundles its own Click; every Typer context is one of its contexts.
from typer._click import Context as ClickContext

if TYPE_CHECKING:  # the presentation layer pulls in pydantic and rich: load it on first use
    from quizzer.app.workspace import Workspace
    from quizzer.ui.screen import Screen

DeckOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--deck",
        metavar="PATH",
        help="Extra card file or folder (repeatable); adds to QUIZZER_DECKS.",
        show_default=False,
    ),
]
DbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        metavar="PATH",
        help="Progress database (default: QUIZZER_DB, else the user data folder).",
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
NoPagerOption = Annotated[
    bool,
    typer.Option(
        "--no-pager",
        help="Print everything at once (default in a terminal: page long output; QUIZZER_PAGER=).",
    ),
]


def workspace_of(ctx: ClickContext | None) -> Workspace:
    """The workspace the root command built (one from the process's environment, if none)."""
    from quizzer.app.workspace import Workspace

    root = ctx.find_root() if ctx is not None else None
    obj = root.obj if root is not None else None
    return obj if isinstance(obj, Workspace) else Workspace.from_environment()


def workspace_for(
    ctx: ClickContext, decks: list[Path] | None = None, db: Path | None = None
) -> Workspace:
    """The workspace with this command's own ``--deck`` and ``--db``."""
    return workspace_of(ctx).with_options(decks, db)


def db_path_for(ctx: ClickContext, db: Path | None = None) -> Path:
    """The progress database a command uses: its --db, else the global one, else the default."""
    return workspace_for(ctx, None, db).db_path


def screen_for(ctx: ClickContext | None) -> Screen:
    from quizzer.ui.screen import Screen

    return Screen(no_color=not workspace_of(ctx).colour)


def complete_card(incomplete: str) -> list[tuple[str, str]]:
    """Shell completion for card ids: (id, title) pairs starting with ``incomplete``."""
    from quizzer.cards.deck import deck_sources, load_deck

    try:
        deck = load_deck(deck_sources(), cached=True)
    except Exception:  # completion must never print a traceback into the shell
        return []
    return [(c.id, c.title) for c in deck.cards if c.id.startswith(incomplete)]


def complete_tag(incomplete: str) -> list[str]:
    """Shell completion for tags."""
    from quizzer.cards.deck import deck_sources, load_deck

    try:
        deck = load_deck(deck_sources(), cached=True)
    except Exception:
        return []
    return [tag for tag in deck.tags() if tag.startswith(incomplete)]


TagsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--tag",
        "-t",
        metavar="TAG",
        help="Only cards with this tag (repeatable).",
        autocompletion=complete_tag,
    ),
]
SearchOption = Annotated[
    str | None,
    typer.Option(
        "--search",
        "-s",
        metavar="TEXT",
        help="Only cards with every word of TEXT (any case or accent), best match first.",
        show_default=False,
    ),
]
CardArgument = Annotated[
    str,
    typer.Argument(
        metavar="CARD", help="Card id or path to a card file.", autocompletion=complete_card
    ),
]
