"""The folder an import writes into: one YAML file per note, updated but never clobbered.

Each file quizzer writes starts with a comment that records the note's GUID,
the card's id and a hash of the rest of the file exactly as written::

    # quizzer-anki: {"guid": "Jr+S=QdI/P", "id": "the-cell-e2f19f", "sha256": "…"}

Importing again finds the files by GUID, so a note keeps its file and its id
(and the learner's progress on it) whatever its text becomes. A file whose
text no longer matches its hash was edited by a person since: it is left as
it is. A file without the comment is not the import's to touch.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from quizzer.cards.yamldoc import CardDumper
from quizzer.files import FileProblem, read_bounded, reason, write_atomic

MARKER = "# quizzer-anki: "
#: A card file larger than this was not written by an import.
_READ_LIMIT = 1 << 20


@dataclass(frozen=True)
class ImportedFile:
    """A card file an earlier import wrote."""

    path: Path
    card_id: str
    #: The file was changed by hand since it was written.
    edited: bool


class _Dumper(CardDumper):
    """Block scalars for text with line breaks, so a card reads like one written by hand.

    A :class:`CardDumper`: a note whose text is ``1e5`` is written quoted, as the
    YAML 1.2 loader that reads it back would otherwise see a number.
    """


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def card_yaml(data: dict[str, Any]) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=88)


def _digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def file_text(guid: str, card_id: str, body: str) -> str:
    """The whole file: the header comment, then the card."""
    record = json.dumps({"guid": guid, "id": card_id, "sha256": _digest(body)}, ensure_ascii=False)
    return (
        "# Imported from Anki by `quizzer import anki`. Importing again updates this file\n"
        "# while it is as written here; once you edit it, imports leave it alone.\n"
        f"{MARKER}{record}\n{body}"
    )


def _header(text: str) -> tuple[dict[str, Any], str] | None:
    """The recorded header and the card text after it, if the file has one."""
    lines = text.split("\n", 3)
    for index, line in enumerate(lines[:3]):
        if line.startswith(MARKER):
            try:
                record = json.loads(line[len(MARKER) :])
            except ValueError:
                return None
            body = "\n".join(lines[index + 1 :]) if index + 1 < len(lines) else ""
            return (record, body) if isinstance(record, dict) else None
    return None


def imported_files(folder: Path) -> dict[str, ImportedFile]:
    """The files of earlier imports in ``folder``, by note GUID."""
    found: dict[str, ImportedFile] = {}
    if not folder.is_dir():
        return found
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if not entry.name.endswith((".yaml", ".yml")) or not entry.is_file():
            continue
        try:
            text = read_bounded(entry.path, _READ_LIMIT).decode("utf-8")
        except (FileProblem, UnicodeDecodeError):
            continue
        header = _header(text)
        if header is None:
            continue
        record, body = header
        guid, card_id = record.get("guid"), record.get("id")
        if isinstance(guid, str) and isinstance(card_id, str):
            edited = record.get("sha256") != _digest(body)
            found[guid] = ImportedFile(Path(entry.path), card_id, edited)
    return found


def prepare_folder(folder: Path) -> None:
    """Create ``folder`` if need be and make sure files can be written in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise FileProblem(f"{folder} is a file, not a folder") from None
    except OSError as error:
        raise FileProblem(f"cannot create {folder}: {reason(error)}", reason(error)) from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise FileProblem(f"cannot write in {folder}: permission denied", "permission denied")


def write_card(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` unless it holds exactly that already; True if written."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    write_atomic(path, text)
    return True
