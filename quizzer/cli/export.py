"""``quizzer export``: Anki packages, Markdown study sheets, the deck as JSON."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from quizzer.cli.common import DeckOption, TagsOption, screen_for
from quizzer.cli.sessions import CardsArgument
from quizzer.errors import QuizzerError
from quizzer.files import check_writable

app = typer.Typer(
    name="export", help="Export cards to Anki, Markdown or JSON.", no_args_is_help=True
)

OutArgument = Annotated[Path, typer.Argument(metavar="OUT", help="File to write.")]


def _cards(
    ctx: Any, names: list[str] | None, tags: list[str] | None, deck: list[Path] | None
) -> list[Any]:
    from quizzer.cli.sessions import choose_cards

    return choose_cards(
        ctx, list(names or []), list(tags or []), deck, None, False, None, "to export"
    )


@app.command("anki")
def anki(
    ctx: typer.Context,
    out: OutArgument,
    cards: CardsArgument = None,
    tag: TagsOption = None,
    deck: DeckOption = None,
) -> None:
    """Write an Anki package: one type-in cloze note per card, explanations on the back.

    Re-exporting after an edit updates the same notes (stable GUIDs).
    Example: [bold]quizzer export anki ml.apkg --tag transformers[/bold]
    """
    from quizzer.export.anki import write_anki
    from quizzer.ui.widgets import counted

    check_writable(out)
    chosen = _cards(ctx, cards, tag, deck)
    try:
        count = write_anki([(c.card, c.deck) for c in chosen], out)
    except OSError as error:
        raise QuizzerError(f"cannot write {out}: {error.strerror or error}") from None
    screen_for(ctx).note(f"wrote {counted(count, 'note')} to {out}")


def _write_cards(
    ctx: Any,
    out: Path,
    cards: list[str] | None,
    tag: list[str] | None,
    deck: list[Path] | None,
    render: Any,
) -> None:
    """Write the chosen cards to ``out`` as ``render`` formats them."""
    from quizzer.export.markdown import write_text
    from quizzer.ui.widgets import counted

    check_writable(out)
    chosen = _cards(ctx, cards, tag, deck)
    try:
        write_text(out, render([c.card for c in chosen]))
    except OSError as error:
        raise QuizzerError(f"cannot write {out}: {error.strerror or error}") from None
    screen_for(ctx).note(f"wrote {counted(len(chosen), 'card')} to {out}")


@app.command("markdown")
def markdown(
    ctx: typer.Context,
    out: OutArgument,
    cards: CardsArgument = None,
    tag: TagsOption = None,
    deck: DeckOption = None,
) -> None:
    """Write a printable Markdown study sheet: formulas, bullets, red flags, follow-ups.

    Example: [bold]quizzer export markdown sheet.md attention layer-norm[/bold]
    """
    from quizzer.export.markdown import markdown_sheet

    _write_cards(ctx, out, cards, tag, deck, markdown_sheet)


@app.command("json")
def json_(
    ctx: typer.Context,
    out: OutArgument,
    cards: CardsArgument = None,
    tag: TagsOption = None,
    deck: DeckOption = None,
) -> None:
    """Write the cards as a JSON list; each item matches `quizzer schema`.

    Example: [bold]quizzer export json deck.json[/bold]
    """
    import json

    from quizzer.export.markdown import deck_json

    _write_cards(
        ctx,
        out,
        cards,
        tag,
        deck,
        lambda chosen: json.dumps(deck_json(chosen), indent=2, ensure_ascii=False) + "\n",
    )
