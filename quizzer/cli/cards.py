"""Commands that read cards: list, show, validate, schema."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from quizzer.cli.common import (
    CardArgument,
    DbOption,
    DeckOption,
    JsonOption,
    NoPagerOption,
    TagsOption,
    clock,
    db_path_for,
    screen_for,
    sources_for,
)
from quizzer.errors import ExitCode, QuizzerError

if TYPE_CHECKING:
    from quizzer.progress.flags import CardFlags
    from quizzer.progress.selection import CardState
    from quizzer.ui.screen import Screen

app = typer.Typer()


@app.command("list")
def list_cards(
    ctx: typer.Context,
    tag: TagsOption = None,
    deck: DeckOption = None,
    db: DbOption = None,
    json: JsonOption = False,
    no_pager: NoPagerOption = False,
) -> None:
    """List the cards, grouped by deck, each with its state: new, due, or the date it is due.

    Example: [bold]quizzer list --tag attention[/bold]
    """
    from quizzer.cards.deck import load_deck, select_cards
    from quizzer.progress.flags import NOT_FLAGGED
    from quizzer.progress.selection import NEW_CARD

    screen = screen_for(ctx)
    loaded = load_deck(sources_for(ctx, deck), cached=True)
    cards = select_cards(loaded.cards, tags=list(tag or []))
    states = _states_or_warn(ctx, db, screen)
    flags = _flags_or_warn(ctx, db, screen)
    if json:
        screen.json(
            [
                {
                    "id": c.id,
                    "title": c.title,
                    "tags": c.tags,
                    "path": str(c.path),
                    "deck": c.deck,
                    "blanks": c.blank_names,
                    **states.get(c.id, NEW_CARD).to_dict(),
                    **flags.get(c.id, NOT_FLAGGED).to_dict(),
                }
                for c in cards
            ]
        )
    else:
        now = clock()
        labels = {c.id: states.get(c.id, NEW_CARD).label(now) for c in cards}
        for card_id, flag in flags.items():
            if card_id in labels and flag.set_aside(now):
                labels[card_id] = "suspended" if flag.suspended else "buried"
        with screen.paged(not no_pager):
            screen.card_list(cards, labels)
    broken = {p.path for p in loaded.problems if p.severity == "error"}
    if broken:
        from quizzer.ui.widgets import counted

        screen.warning(
            f"{counted(len(broken), 'card file')} could not be loaded;"
            " run 'quizzer validate' to see why"
        )


def _states_or_warn(ctx: typer.Context, db: Path | None, screen: Screen) -> dict[str, CardState]:
    """Card states from the progress database; a broken one is a warning, not a failed list."""
    from quizzer.cli.choosing import stored_states

    try:
        return stored_states(ctx, db)[0]
    except QuizzerError as error:
        screen.warning(f"{error.message}; card states are not shown")
        return {}


def _flags_or_warn(ctx: typer.Context, db: Path | None, screen: Screen) -> dict[str, CardFlags]:
    """Suspended and buried cards; a broken database was already reported by the states."""
    from quizzer.cli.habits import stored_flags

    try:
        return stored_flags(ctx, db)
    except QuizzerError:
        return {}


@app.command()
def show(
    ctx: typer.Context,
    card: CardArgument,
    deck: DeckOption = None,
    json: JsonOption = False,
    no_pager: NoPagerOption = False,
) -> None:
    """Show a whole card: the prompt, its answers and every teaching section.

    Example: [bold]quizzer show attention[/bold]
    """
    from quizzer.cards.deck import resolve_card

    screen = screen_for(ctx)
    loaded = resolve_card(card, sources_for(ctx, deck), cached=True)
    if json:
        screen.json({"path": str(loaded.path), **loaded.card.model_dump(mode="json")})
    else:
        with screen.paged(not no_pager):
            screen.card(loaded)


@app.command()
def validate(
    ctx: typer.Context,
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Card files or folders (default: every known card).", show_default=False
        ),
    ] = None,
    strict: Annotated[
        bool, typer.Option("--strict", help="Require every teaching section (publishable cards).")
    ] = False,
    deck: DeckOption = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Check cards and print each problem as PATH:LINE:COLUMN: message.

    Exit 0 when clean, 1 when there are problems.
    Example: [bold]quizzer validate --strict content/[/bold]
    """
    from quizzer.cards.validate import validate_paths

    screen = screen_for(ctx)
    with reviewed_answers(db_path_for(ctx, db)) as reviewed:
        report = validate_paths(
            paths or [], sources_for(ctx, deck), strict=strict, reviewed_answers=reviewed
        )
    if json:
        screen.json(report.to_dict())
    else:
        screen.problems(report.problems)
        screen.validation_summary(report.cards, report.errors, report.warnings)
    if not report.ok:
        raise typer.Exit(int(ExitCode.NOT_OK))


#: Longest id ``new`` accepts: the id becomes a file name (at most 255 bytes).
MAX_NEW_ID = 100


@app.command()
def new(
    ctx: typer.Context,
    card_id: Annotated[str, typer.Argument(metavar="ID", help="The new card's id (kebab-case).")],
    deck: Annotated[
        Path, typer.Option("--deck", metavar="DIR", help="Folder to write the card in.")
    ] = Path("."),
    blanks: Annotated[int, typer.Option("--blanks", min=1, max=9, help="Number of blanks.")] = 1,
) -> None:
    """Write a commented card template with every section, ready to fill in.

    Example: [bold]quizzer new layer-norm --deck content/training[/bold]
    """
    import os
    import re

    from quizzer.cards.deck import schema_file
    from quizzer.cards.model import ID_PATTERN
    from quizzer.cards.template import card_template
    from quizzer.files import write_new

    if len(card_id) > MAX_NEW_ID:
        raise QuizzerError(
            f"the id is {len(card_id)} characters long; an id names a file, keep it to {MAX_NEW_ID}"
        )
    # fullmatch: with re.match, the pattern's $ also matches before a final newline.
    if not re.fullmatch(ID_PATTERN, card_id):
        raise QuizzerError(
            f"{card_id!r} is not a valid id: use lower-case kebab-case, like layer-norm"
        )
    if deck.exists() and not deck.is_dir():
        raise QuizzerError(f"{deck} is a file, not a folder")
    path = deck / f"{card_id}.yaml"
    if path.exists():
        raise QuizzerError(f"{path} already exists; not overwriting it")
    try:
        deck.mkdir(parents=True, exist_ok=True)
        schema = os.path.relpath(schema_file(), deck.resolve())
        write_new(path, card_template(card_id, blanks, Path(schema).as_posix()))
    except FileExistsError:
        raise QuizzerError(f"{path} already exists; not overwriting it") from None
    except OSError as error:
        raise QuizzerError(f"cannot write {path}: {error.strerror or error}") from None
    screen = screen_for(ctx)
    screen.line(str(path))  # stdout holds only the path, for scripts
    if sys.stderr.isatty():
        screen.note("next: fill in every TODO, then check it and try it:")
        screen.note(f"  quizzer validate --strict {path}")
        screen.note(f"  quizzer quiz --no-record {path}")


@contextmanager
def reviewed_answers(path: Path) -> Iterator[Callable[[str], dict[str, tuple[str, str]]] | None]:
    """The learner's record of answers as last reviewed, if there is a usable database."""
    from quizzer.progress.store import Store, StoreError

    if not path.exists():
        yield None
        return
    try:
        store = Store.open(path, create=False)
    except StoreError:
        yield None  # validate is about cards; a broken progress file is for other commands
        return
    try:
        yield store.fingerprints
    finally:
        store.close()


@app.command()
def schema(ctx: typer.Context) -> None:
    """Print the card JSON Schema, for editors that complete YAML.

    Example: [bold]quizzer schema > card.schema.json[/bold]
    """
    from quizzer.cards.model import card_json_schema

    screen_for(ctx).json(card_json_schema())
