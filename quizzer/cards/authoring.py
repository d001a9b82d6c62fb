"""Where an author's new cards and their schema file go: ``quizzer new`` and ``schema --write``.

A card written into the installed package would vanish with the next
upgrade (and, installed without ``-e``, is not even where ``show`` looks
once the venv moves), so nothing here writes there. New cards go to the
user deck by default; each card's ``yaml-language-server`` line points at a
``card.schema.json`` beside the author's cards, never into site-packages.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from quizzer.cards.finding import SCHEMA_FILE_NAME, package_dir, schema_file, user_deck_dir
from quizzer.errors import QuizzerError
from quizzer.files import FileProblem, write_atomic, write_new


class WritesIntoPackage(QuizzerError):
    """A folder inside the installed quizzer package was named to write into (exit 2)."""


@dataclass(frozen=True)
class NewCard:
    """What ``quizzer new`` wrote: the card, and the schema file if it wrote one too."""

    path: Path
    schema: Path
    schema_written: bool


def refuse_package(folder: Path) -> None:
    """Raise :class:`WritesIntoPackage` when ``folder`` is inside the installed package."""
    resolved = folder.expanduser().resolve()
    package = package_dir()
    if resolved == package or package in resolved.parents:
        raise WritesIntoPackage(
            f"{folder} is inside the installed quizzer package; write your cards elsewhere"
            " (the default is your own deck; to edit bundled cards, use a source checkout"
            " installed with pip install -e)"
        )


def schema_text() -> str:
    """The card JSON Schema, as ``quizzer schema`` prints it."""
    from quizzer.cards.model import card_json_schema

    return json.dumps(card_json_schema(), indent=2, ensure_ascii=False) + "\n"


def write_schema(folder: Path) -> Path:
    """Write ``card.schema.json`` into ``folder`` (created if need be); return its path.

    Rewritten only when its text differs, so an editor watching it is not
    disturbed by every ``new``.
    """
    refuse_package(folder)
    path = folder / SCHEMA_FILE_NAME
    text = schema_text()
    try:
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            return path
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text)
    except FileProblem:
        raise
    except OSError as error:
        raise QuizzerError(f"cannot write {path}: {error.strerror or error}") from None
    return path


def _is_within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def schema_for(folder: Path, env: Mapping[str, str] | None = None) -> tuple[Path, bool]:
    """The schema file a card in ``folder`` should name, and whether it had to be written.

    In order: the user deck's own copy (kept current); a ``card.schema.json``
    in ``folder`` or a folder above it (``schema --write`` put it there); the
    source checkout's ``schema/`` file; else a copy written into ``folder``.
    """
    resolved = folder.expanduser().resolve()
    mine = user_deck_dir(env).expanduser().resolve()
    if _is_within(resolved, mine):
        existed = (mine / SCHEMA_FILE_NAME).is_file()
        return write_schema(mine), not existed
    for place in (resolved, *resolved.parents):
        candidate = place / SCHEMA_FILE_NAME
        if candidate.is_file():
            return candidate, False
    shipped = schema_file()
    if shipped.is_file() and not _is_within(shipped.resolve(), package_dir()):
        return shipped, False
    return write_schema(folder), True


def write_new_card(
    card_id: str, folder: Path | None, blanks: int, env: Mapping[str, str] | None = None
) -> NewCard:
    """Write the template of card ``card_id`` into ``folder`` (default: the user deck).

    Raises :class:`QuizzerError` (exit 2) for a folder inside the package, a
    file in the way, or a card file that already exists: nothing is replaced.
    """
    from quizzer.cards.template import card_template

    folder = user_deck_dir(env) if folder is None else folder.expanduser()
    refuse_package(folder)
    if folder.exists() and not folder.is_dir():
        raise QuizzerError(f"{folder} is a file, not a folder")
    path = folder / f"{card_id}.yaml"
    if path.exists():
        raise QuizzerError(f"{path} already exists; not overwriting it")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        schema, written = schema_for(folder, env)
        reference = Path(os.path.relpath(schema, folder.resolve())).as_posix()
        write_new(path, card_template(card_id, blanks, reference))
    except FileExistsError:
        raise QuizzerError(f"{path} already exists; not overwriting it") from None
    except FileProblem:
        raise
    except OSError as error:
        raise QuizzerError(f"cannot write {path}: {error.strerror or error}") from None
    return NewCard(path, schema, written)
