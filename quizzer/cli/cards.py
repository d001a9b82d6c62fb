"""Commands that read cards: list, show, validate, schema."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from quizzer.cli.common import (
    CardArgument,
    DbOption,
    DeckOption,
    JsonOption,
    NoPagerOption,
    SearchOption,
    TagsOption,
    screen_for,
    workspace_for,
)
from quizzer.errors import ExitCode, QuizzerError

if TYPE_CHECKING:
    from quizzer.app.workspace import Workspace

app = typer.Typer()


@app.command("list")
def list_cards(
    ctx: typer.Context,
    tag: TagsOption = None,
    deck: DeckOption = None,
    db: DbOption = None,
    json: JsonOption = False,
    search: SearchOption = None,
    no_pager: NoPagerOption = False,
) -> None:
    """List the cards, grouped by deck, each with its state: new, due, or the date it is due.

    Examples: [bold]quizzer list --tag attention[/bold],
    [bold]quizzer list --search "softmax temperature"[/bold]
    """
    from quizzer.app import reports

    screen = screen_for(ctx)
    found = reports.listing(workspace_for(ctx, deck, db), tuple(tag or ()), search)
    if found.states_problem is not None:
        screen.warning(f"{found.states_problem}; card states are not shown")
    if json:
        screen.json(found.to_list())
    else:
        with screen.paged(not no_pager):
            screen.listing.card_list(found.cards, found.labels())
    # Broken files and duplicate ids: the deck's one warning line (load_deck) says so.


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
    from quizzer.app.choosing import card_named

    screen = screen_for(ctx)
    loaded = card_named(workspace_for(ctx, deck), card)
    if json:
        screen.json({"path": str(loaded.path), **loaded.card.model_dump(mode="json")})
    else:
        with screen.paged(not no_pager):
            screen.cards.card(loaded)


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
        bool,
        typer.Option(
            "--strict",
            help="Require every teaching section and follow-up key points (publishable cards).",
        ),
    ] = False,
    require_key_points: Annotated[
        bool,
        typer.Option(
            "--require-key-points",
            help="Warn of follow-ups without key points (--strict makes them errors).",
        ),
    ] = False,
    deck: DeckOption = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Check cards and print each problem as PATH:LINE:COLUMN: message.

    Exit 0 when clean, 1 when there are problems.
    Example: [bold]quizzer validate --strict content/[/bold]
    """
    from quizzer.app.validating import validate as validate_cards

    screen = screen_for(ctx)
    report = validate_cards(
        workspace_for(ctx, deck, db),
        paths or [],
        strict=strict,
        require_key_points=require_key_points,
    )
    if json:
        screen.json(report.to_dict())
    else:
        screen.validation.problems(report.problems)
        screen.validation.validation_summary(report.cards, report.errors, report.warnings)
    if not report.ok:
        raise typer.Exit(int(ExitCode.NOT_OK))


#: Longest id ``new`` accepts: the id becomes a file name (at most 255 bytes).
MAX_NEW_ID = 100


@app.command()
def new(
    ctx: typer.Context,
    card_id: Annotated[str, typer.Argument(metavar="ID", help="The new card's id (kebab-case).")],
    deck: Annotated[
        Path | None,
        typer.Option(
            "--deck",
            metavar="DIR",
            help="Folder to write the card in (default: your own deck, which every command"
            " loads; see 'quizzer list').",
            show_default=False,
        ),
    ] = None,
    blanks: Annotated[int, typer.Option("--blanks", min=1, max=9, help="Number of blanks.")] = 1,
) -> None:
    """Write a commented card template with every section, ready to fill in.

    The card goes into your own deck (QUIZZER_USER_DECK, else my-cards in the
    user data folder) with card.schema.json beside it for your editor; --deck DIR
    writes elsewhere. The installed package is refused (exit 2).
    Examples: [bold]quizzer new my-card[/bold], [bold]quizzer new group-norm --deck ~/cards[/bold]
    """
    import re

    from quizzer.cards.authoring import write_new_card
    from quizzer.cards.model import ID_PATTERN

    if len(card_id) > MAX_NEW_ID:
        raise QuizzerError(
            f"the id is {len(card_id)} characters long; an id names a file, keep it to {MAX_NEW_ID}"
        )
    # fullmatch: with re.match, the pattern's $ also matches before a final newline.
    if not re.fullmatch(ID_PATTERN, card_id):
        raise QuizzerError(
            f"{card_id!r} is not a valid id: use lower-case kebab-case, like layer-norm"
        )
    workspace = workspace_for(ctx)
    _refuse_taken_id(workspace, card_id)
    written = write_new_card(card_id, deck, blanks, workspace.environ)
    screen = screen_for(ctx)
    screen.line(str(written.path))  # stdout holds only the path, for scripts
    if written.schema_written:
        screen.note(f"wrote {written.schema} for editors that complete YAML")
    if sys.stderr.isatty():
        screen.note("next: fill in every TODO, then check it and try it:")
        screen.note(f"  quizzer validate --strict {written.path}")
        screen.note(f"  quizzer quiz --no-record {written.path}")


def _refuse_taken_id(workspace: Workspace, card_id: str) -> None:
    """A second card with a known id would be shadowed by the first: say so before writing."""
    from quizzer.cards.deck import load_deck

    try:
        known = load_deck(workspace.sources(), cached=True).by_id().get(card_id)
    except QuizzerError:
        return  # a missing --deck is reported by the commands that read it
    if known is not None:
        raise QuizzerError(f"a card with id '{card_id}' already exists: {known.path}")


@app.command()
def schema(
    ctx: typer.Context,
    write: Annotated[
        Path | None,
        typer.Option(
            "--write",
            metavar="DIR",
            help="Write card.schema.json into DIR, beside your cards, instead of printing it.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Print the card JSON Schema, for editors that complete YAML.

    With --write DIR it goes into DIR/card.schema.json, which the
    yaml-language-server line of each card 'quizzer new' writes there names.
    Example: [bold]quizzer schema --write ~/cards[/bold]
    """
    if write is not None:
        from quizzer.cards.authoring import write_schema

        if write.exists() and not write.is_dir():
            raise QuizzerError(f"{write} is a file, not a folder")
        screen_for(ctx).line(str(write_schema(write.expanduser())))
        return
    from quizzer.cards.model import card_json_schema

    screen_for(ctx).json(card_json_schema())
