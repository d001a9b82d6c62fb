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


#: Beside the progress database: what each exported Anki note held, and its time.
ANKI_NOTES_FILE = "anki-notes.json"


def _anki(cards: Sequence[LoadedCard], out: Path, workspace: Workspace) -> int:
    """The package, each unchanged note with the time it had in the previous export
    (so Anki keeps the learner's tags on it: see :func:`quizzer.export.anki.write_anki`)."""
    import contextlib
    import json

    from quizzer.export.anki import write_anki
    from quizzer.files import FileProblem, read_bounded, write_atomic

    record = workspace.db_path.with_name(ANKI_NOTES_FILE)
    times: dict[str, tuple[str, int]] = {}
    try:
        stored = json.loads(read_bounded(record, 64 << 20))
        times = {str(k): (str(v[0]), int(v[1])) for k, v in stored.items()}
    except (FileProblem, ValueError, TypeError, IndexError, AttributeError):
        pass  # no record yet, or an unreadable one: every note is new to it
    count = write_anki([(c.card, c.deck) for c in cards], out, times)
    # The package is written; without the record the next export gives every note a new time.
    with contextlib.suppress(FileProblem, OSError):
        write_atomic(record, json.dumps(times, sort_keys=True))
    return count


def _markdown(cards: Sequence[LoadedCard], out: Path, workspace: Workspace) -> int:
    from quizzer.export.markdown import markdown_sheet, write_text

    write_text(out, markdown_sheet([c.card for c in cards]))
    return len(cards)


def _markdown_brief(cards: Sequence[LoadedCard], out: Path, workspace: Workspace) -> int:
    from quizzer.export.markdown import markdown_sheet, write_text

    write_text(out, markdown_sheet([c.card for c in cards], "quizzer brief", brief=True))
    return len(cards)


def _json(cards: Sequence[LoadedCard], out: Path, workspace: Workspace) -> int:
    import json

    from quizzer.export.markdown import deck_json, write_text

    text = json.dumps(deck_json([c.card for c in cards]), indent=2, ensure_ascii=False)
    write_text(out, text + "\n")
    return len(cards)


@dataclass(frozen=True)
class Exporter:
    """One export format: what it writes, counted in what unit.

    Attributes:
        write: Writes the cards to a file (in the workspace, for what it remembers
            between exports); returns how many units it wrote.
        unit: What is counted in the message (an Anki note, a card).
    """

    write: Callable[[Sequence[LoadedCard], Path, Workspace], int]
    unit: str


EXPORTERS: dict[str, Exporter] = {
    "anki": Exporter(_anki, "note"),
    "markdown": Exporter(_markdown, "card"),
    "markdown-brief": Exporter(_markdown_brief, "card"),
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
        count = exporter.write(chosen, out, workspace)
    except BrokenPipeError:
        raise  # the reader left (`| head -c 10`): the command line exits 0 quietly
    except OSError as error:
        raise QuizzerError(f"cannot write {out}: {error.strerror or error}") from None
    return Exported(count, exporter.unit, out)
