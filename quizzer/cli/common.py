"""Options and helpers shared by the command modules."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

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


def finite(ctx: ClickContext, param: typer.CallbackParam, value: float | None) -> float | None:
    """Refuse ``nan`` for a float option: Click's range check lets it through."""
    if value is not None and value != value:  # only nan is unequal to itself
        describe = getattr(param.type, "_describe_range", None)
        accepted = f" in the range {describe()}" if callable(describe) else ""
        raise typer.BadParameter(f"nan is not a number{accepted}.")
    return value


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


def _completion_deck(ctx: ClickContext | None) -> Any:
    """The deck a completion offers from: every known card, with the --deck paths typed so far.

    Click parses the words before the cursor into each command's params, so a
    ``--deck DIR`` given before the command (``ctx``'s root) or after it counts.
    """
    from quizzer.cards.deck import deck_sources, load_deck

    decks: list[Path] = []
    context = ctx
    while context is not None:
        decks[:0] = list(context.params.get("deck") or ())
        context = context.parent
    return load_deck(deck_sources(decks), cached=True, report=False)


def complete_card(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    """Shell completion for card ids: (id, title) pairs starting with ``incomplete``."""
    try:
        deck = _completion_deck(ctx)
    except Exception:  # completion must never print a traceback into the shell
        return []
    return [(c.id, c.title) for c in deck.cards if c.id.startswith(incomplete)]


def complete_tag(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion for tags."""
    try:
        deck = _completion_deck(ctx)
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
