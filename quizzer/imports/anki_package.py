"""Reading an Anki package with the official ``anki`` library.

Anki's packages have changed format several times (``collection.anki2``,
``collection.anki21``, zstd-compressed ``collection.anki21b`` with protobuf
media lists; ``.apkg`` decks and ``.colpkg`` whole collections). Rather than
read any of them by hand, the package is imported into a fresh collection in
a temporary folder by Anki's own importer, which reads every version and
upgrades it, and the notes are read back from there. The library (and its
Rust backend) loads only here, inside the function, so nothing else pays for it.
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quizzer.errors import QuizzerError
from quizzer.files import NotRegularFile, kind_of

#: Anki's note type kind for cloze note types (``anki.consts.MODEL_CLOZE``).
_MODEL_CLOZE = 1
#: What a package must contain: one of the collection files Anki has written over the years.
COLLECTION_FILES = ("collection.anki21b", "collection.anki21", "collection.anki2")


class PackageError(QuizzerError):
    """The file is not an Anki package quizzer can read; the message says why."""


@dataclass(frozen=True)
class AnkiNote:
    """One note as its package holds it: HTML fields by name, in the note type's order."""

    guid: str
    notetype: str
    is_cloze: bool
    fields: tuple[tuple[str, str], ...]
    tags: tuple[str, ...]
    deck: str
    #: The note's card ids, for matching review logs to it.
    card_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class AnkiReview:
    """One review from the package's log, in Anki's own terms."""

    note_guid: str
    #: Milliseconds since the epoch (Anki's revlog id).
    at_ms: int
    #: 1 Again, 2 Hard, 3 Good, 4 Easy; 0 marks a manual reschedule, not a review.
    ease: int
    duration_ms: int


@dataclass(frozen=True)
class AnkiPackage:
    notes: tuple[AnkiNote, ...]
    #: Media files the package carries (quizzer copies none of them).
    media: frozenset[str]
    reviews: tuple[AnkiReview, ...] = ()


def check_package(path: Path) -> None:
    """Refuse, with one line, what cannot be an Anki package, before Anki is loaded."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise PackageError(f"{path}: no such file") from None
    except OSError as error:
        raise PackageError(f"cannot read {path}: {error.strerror or error}") from None
    if not os.path.isfile(path):
        raise NotRegularFile(f"{path} is {kind_of(mode)}, not an Anki package", kind_of(mode))
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, EOFError):
        raise PackageError(
            f"{path} is not an Anki package (not a zip file, or a damaged one)"
        ) from None
    except OSError as error:
        raise PackageError(f"cannot read {path}: {error.strerror or error}") from None
    if not names.intersection(COLLECTION_FILES):
        raise PackageError(f"{path} is not an Anki package (a zip file with no collection in it)")


def read_package(path: Path, *, with_history: bool = False) -> AnkiPackage:
    """The notes, media names and (with ``with_history``) review log of an .apkg or .colpkg."""
    check_package(path)
    try:
        from anki.collection import Collection
    except ImportError:  # pragma: no cover - anki is a dependency
        message = "reading Anki packages needs the anki package: pip install anki"
        raise QuizzerError(message) from None
    with tempfile.TemporaryDirectory(prefix="quizzer-anki-") as folder:
        collection_path = os.path.join(folder, "collection.anki2")
        try:
            if path.suffix.lower() == ".colpkg":
                _restore_collection(path, folder, collection_path)
                collection = Collection(collection_path)
            else:
                collection = Collection(collection_path)
                _import_deck(collection, path)
        except Exception as error:  # anki's errors have no common base worth naming
            raise PackageError(f"cannot read {path} as an Anki package: {_why(error)}") from None
        try:
            return _read(collection, with_history)
        finally:
            collection.close()


def _why(error: Exception) -> str:
    """Anki's reason in words: its backend reports SQLite failures as Rust debug output."""
    text = str(error).strip()
    if "NotADatabase" in text or "not a database" in text:
        return "the collection inside is damaged (not a database)"
    first = text.splitlines()[0] if text else type(error).__name__
    return first if len(first) <= 120 else first[:117] + "..."


def _import_deck(collection: Any, path: Path) -> None:
    from anki.collection import ImportAnkiPackageOptions, ImportAnkiPackageRequest

    options = ImportAnkiPackageOptions(with_scheduling=True, with_deck_configs=False)
    collection.import_anki_package(
        ImportAnkiPackageRequest(package_path=str(path.resolve()), options=options)
    )


def _restore_collection(path: Path, folder: str, collection_path: str) -> None:
    """A .colpkg replaces a whole collection: Anki restores it into a closed one."""
    from anki._backend import RustBackend

    media = os.path.join(folder, "collection.media")
    os.makedirs(media)
    RustBackend().import_collection_package(
        col_path=collection_path,
        backup_path=str(path.resolve()),
        media_folder=media,
        media_db=os.path.join(folder, "collection.media.db2"),
    )


def _read(collection: Any, with_history: bool) -> AnkiPackage:
    notes = []
    guid_of_card: dict[int, str] = {}
    for note_id in collection.find_notes(""):
        note = collection.get_note(note_id)
        notetype = note.note_type() or {}
        cards = note.cards()
        deck = collection.decks.name(cards[0].did) if cards else ""
        names = [f["name"] for f in notetype.get("flds", [])]
        for card in cards:
            guid_of_card[card.id] = note.guid
        notes.append(
            AnkiNote(
                guid=note.guid,
                notetype=str(notetype.get("name", "")),
                is_cloze=notetype.get("type") == _MODEL_CLOZE,
                fields=tuple(zip(names, note.fields, strict=False)),
                tags=tuple(note.tags),
                deck=deck,
                card_ids=tuple(card.id for card in cards),
            )
        )
    media_folder = collection.media.dir()
    media = frozenset(os.listdir(media_folder)) if os.path.isdir(media_folder) else frozenset()
    reviews: list[AnkiReview] = []
    if with_history:
        for at_ms, card_id, ease, duration_ms in collection.db.all(
            "select id, cid, ease, time from revlog order by id"
        ):
            if card_id in guid_of_card:
                reviews.append(AnkiReview(guid_of_card[card_id], at_ms, ease, duration_ms))
    return AnkiPackage(tuple(notes), media, tuple(reviews))
