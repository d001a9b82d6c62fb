"""The daily loop's commands: ``suspend``, ``unsuspend`` and ``config``.

Also the one filter every way of choosing cards calls: suspended and buried
cards are left out unless the learner named them.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from quizzer.cli.common import DbOption, JsonOption, clock, db_path_for, screen_for
from quizzer.errors import ExitCode, QuizzerError

if TYPE_CHECKING:
    from quizzer.cards.deck import LoadedCard
    from quizzer.progress.flags import CardFlags

app = typer.Typer()

CardIdsArgument = Annotated[
    list[str], typer.Argument(metavar="CARD...", help="Card ids.", show_default=False)
]


def stored_flags(ctx: Any, db: Path | None) -> dict[str, CardFlags]:
    """Every flagged card's flags ({} when there is no progress database)."""
    from quizzer.progress.flags import card_flags
    from quizzer.progress.store import Store

    path = db_path_for(ctx, db)
    if not path.exists():
        return {}
    with Store.open(path, create=False) as store:
        return card_flags(store)


def without_set_aside(
    ctx: Any, db: Path | None, cards: list[LoadedCard], now: datetime | None = None
) -> list[LoadedCard]:
    """``cards`` without the suspended ones and those buried until later than now.

    Called wherever quiz, review or drill choose cards the learner did not name.
    """
    from quizzer.progress.flags import without_set_aside as kept

    flags = stored_flags(ctx, db)
    if not flags:
        return cards
    keep = set(kept([c.id for c in cards], flags, now or clock()))
    return [c for c in cards if c.id in keep]


def _known_ids(ctx: Any, names: list[str]) -> list[str]:
    from quizzer.cards.deck import load_deck
    from quizzer.cli.common import sources_for

    loaded = load_deck(sources_for(ctx, None), cached=True)
    known = {c.id for c in loaded.cards}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise QuizzerError(f"unknown card: {', '.join(unknown)}", ExitCode.USAGE)
    return list(dict.fromkeys(names))


def _set_suspended(ctx: Any, cards: list[str], db: Path | None, suspended: bool) -> None:
    from quizzer.progress.flags import set_suspended
    from quizzer.progress.store import Store

    ids = _known_ids(ctx, cards)
    with Store.open(db_path_for(ctx, db)) as store:
        set_suspended(store, ids, suspended)
    verb = "suspended" if suspended else "unsuspended"
    from quizzer.ui.widgets import counted

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
    learning_steps (default '1m 10m'), relearning_steps (default '10m').
    Examples: [bold]quizzer config[/bold], [bold]quizzer config new_per_day 10[/bold],
    [bold]quizzer config learning_steps '1m 10m 1h'[/bold]
    """
    from quizzer.progress.settings import NAMES, parse_value, read_settings, write_setting
    from quizzer.progress.store import Store

    screen = screen_for(ctx)
    if key is not None and key not in NAMES:
        parse_value(key, "")  # one line naming the settings there are, exit 2
    if key is not None and value is not None:
        parse_value(key, value)  # a bad value is refused before any file is created
    path = db_path_for(ctx, db)
    if value is not None:
        assert key is not None
        with Store.open(path) as store:
            settings = write_setting(store, key, value)
    elif path.exists():
        with Store.open(path, create=False) as store:
            settings = read_settings(store)
    else:
        settings = read_settings(None)
    shown = settings.to_dict()
    if key is not None:
        shown = {key: shown[key]}
    if json:
        screen.json(settings.to_dict() if key is None else shown)
        return
    width = max(len(name) for name in NAMES)
    for name, setting in shown.items():
        screen.line(f"{name.ljust(width)}  {setting}")
