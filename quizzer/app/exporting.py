"""Exporting chosen cards: one table of exporters, one way to run any of them.

A new export format is one function writing cards to a file and one row of
:data:`EXPORTERS`; ``quizzer export NAME`` is then one short command in
``quizzer/cli/export.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from quizzer.errors import QuizzerError

if TYPE_CHECKING:
    from quizzer.app.choosing import CardChoice
    from quizzer.app.workspace import Workspace
    from quizzer.cards.deck import LoadedCard


def _anki(cards: Sequence[LoadedCard], out: Path) -> int:
    from quizzer.export.anki import write_anki

    return write_anki([(c.card, c.deck) for c in cards], out)


def _markdown(cards: Sequence[LoadedCard], out: Path) -> int:
    from quizzer.export.markdown import markdown_sheet, write_text

    write_text(out, markdown_sheet([c.card for c in cards]))
    return len(cards)


def _json(cards: Sequence[LoadedCard], out: Path) -> int:
    import json

    from quizzer.export.markdown import deck_json, write_text

    text = json.dumps(deck_json([c.card for c in cards]), indent=2, ensure_ascii=False)
    write_text(out, text + "\n")
    return len(cards)


@dataclass(frozen=True)
class Exporter:
    """One export format: what it writes, counted in what unit.

    Attributes:
        write: Writes the cards to a file; returns how many units it wrote.
        unit: What is counted in the message (an Anki note, a card).
    """

    write: Callable[[Sequence[LoadedCard], Path], int]
    unit: str


EXPORTERS: dict[str, Exporter] = {
    "anki": Exporter(_anki, "note"),
    "markdown": Exporter(_markdown, "card"),
    "json": Exporter(_json, "card"),
}


@dataclass(frozen=True)
class Exported:
    """What an export wrote: how many of which unit, to which file."""

    count: int
    unit: str
    out: Path


def export(workspace: Workspace, format_name: str, out: Path, choice: CardChoice) -> Exported:
    """Write the cards ``choice`` names to ``out`` in the format called ``format_name``."""
    from quizzer.app.choosing import choose_cards
    from quizzer.files import check_writable

    exporter = EXPORTERS[format_name]
    check_writable(out)
    chosen = choose_cards(workspace, choice)
    try:
        count = exporter.write(chosen, out)
    except BrokenPipeError:
        raise  # the reader left (`| head -c 10`): the command line exits 0 quietly
    except OSError as error:
        raise QuizzerError(f"cannot write {out}: {error.strerror or error}") from None
    return Exported(count, exporter.unit, out)
