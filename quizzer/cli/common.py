"""Options and helpers shared by the command modules."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:  # the presentation layer pulls in pydantic and rich: load it on first use
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


@dataclass
class Settings:
    """Options given before the command name (``quizzer --deck X list``)."""

    decks: list[Path] = field(default_factory=list)
    db: Path | None = None
    no_color: bool = False
    debug: bool = False


def settings_of(ctx: Any) -> Settings:
    root = ctx.find_root() if ctx is not None else None
    obj = root.obj if root is not None else None
    return obj if isinstance(obj, Settings) else Settings()


def screen_for(ctx: Any) -> Screen:
    from quizzer.ui.screen import Screen

    return Screen(no_color=settings_of(ctx).no_color)


def sources_for(ctx: Any, decks: list[Path] | None) -> list[Path]:
    """Bundled deck, QUIZZER_DECKS, then --deck given before and after the command."""
    from quizzer.cards.deck import deck_sources

    return deck_sources([*settings_of(ctx).decks, *(decks or [])])


def db_path_for(ctx: Any, db: Path | None) -> Path:
    """--db after the command, else before it, else QUIZZER_DB, else the user data folder."""
    from quizzer.progress.store import default_path

    return db or settings_of(ctx).db or default_path()


NOW_ENV = "QUIZZER_NOW"
#: The years QUIZZER_NOW may name.
NOW_YEARS = (1970, 9000)


def clock() -> datetime:
    """The current time in UTC; QUIZZER_NOW (ISO 8601) moves it, for tests and demos."""
    override = os.environ.get(NOW_ENV)
    if not override:
        return datetime.now(timezone.utc)
    from quizzer.errors import QuizzerError

    try:
        moment = datetime.fromisoformat(override.replace("Z", "+00:00"))
        moment = moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment
        moment = moment.astimezone(timezone.utc)
    except (ValueError, OverflowError):
        raise QuizzerError(f"{NOW_ENV} is not an ISO 8601 time: {override!r}") from None
    if not NOW_YEARS[0] <= moment.year <= NOW_YEARS[1]:
        # Schedules reach years ahead; datetime stops at 9999 and would fail mid-session.
        raise QuizzerError(
            f"{NOW_ENV} is out of range: {override!r} (use a year from {NOW_YEARS[0]}"
            f" to {NOW_YEARS[1]})"
        )
    return moment


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
CardArgument = Annotated[
    str,
    typer.Argument(
        metavar="CARD", help="Card id or path to a card file.", autocompletion=complete_card
    ),
]
