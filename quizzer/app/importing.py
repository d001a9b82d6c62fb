"""Importing an Anki package into a folder of cards (``quizzer import anki``).

One YAML file per note, named by the card id, found again by the note's GUID
on the next import (:mod:`quizzer.imports.folder`): a re-import rewrites only
what changed in Anki, adds what is new, and leaves a file a person edited
since as it is. Every card is checked as ``quizzer validate`` would before
it is written; a note that cannot be a valid card is skipped with its reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from quizzer.app.workspace import Workspace
    from quizzer.imports.anki_package import AnkiNote, AnkiReview


@dataclass(frozen=True)
class Skipped:
    """A note that was not written, and why."""

    #: The note's GUID: the one name a note keeps in Anki whatever its text.
    note: str
    reason: str
    #: The start of the note's first field, for a person to recognise it by.
    about: str = ""


@dataclass(frozen=True)
class AnkiImport:
    """What an import did. ``to_dict`` is the shape of ``quizzer import anki --json``."""

    folder: Path
    notes: int
    #: Files created or rewritten by this import.
    cards_written: int
    #: Of those, files an earlier import had written (the note changed in Anki).
    updated: int
    #: Files an earlier import wrote that already say what the note says.
    unchanged: int
    #: Files an earlier import wrote that a person edited since: left alone.
    edited: int
    skipped: tuple[Skipped, ...]
    media_skipped: int
    written: tuple[Path, ...] = field(default=())
    #: With ``--with-history``: Anki reviews saved as quizzer reviews.
    reviews_imported: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "notes": self.notes,
            "cards_written": self.cards_written,
            "updated": self.updated,
            "skipped": [{"note": s.note, "reason": s.reason} for s in self.skipped],
            "media_skipped": self.media_skipped,
        }


def import_anki(
    workspace: Workspace, package: Path, folder: Path, *, with_history: bool = False
) -> AnkiImport:
    """Write one card per note of the Anki ``package`` into ``folder``.

    With ``with_history``, the package's review log also goes into the
    workspace's progress database (:func:`_bring_history`); otherwise the import
    writes cards only, never progress.
    """
    from quizzer.imports import folder as files
    from quizzer.imports.anki_package import read_package
    from quizzer.imports.notes import NoteSkipped, card_id_for, convert_note

    read = read_package(package, with_history=with_history)
    files.prepare_folder(folder)
    earlier = files.imported_files(folder)
    taken = {path.name for path in folder.iterdir()} if folder.is_dir() else set()
    media = set(read.media)
    written: list[Path] = []
    skipped: list[Skipped] = []
    updated = unchanged = edited = 0
    card_ids: dict[str, str] = {}
    for note in read.notes:
        try:
            converted = convert_note(note)
        except NoteSkipped as why:
            skipped.append(Skipped(note.guid, str(why), _about(note)))
            continue
        media.update(converted.media)
        data = dict(converted.data)
        before = earlier.get(note.guid)
        if before is not None and before.edited:
            card_ids[note.guid] = before.card_id  # its history is still the note's
            reason = f"{before.path.name} was edited since: left alone"
            skipped.append(Skipped(note.guid, reason, _about(note)))
            edited += 1
            continue
        if before is not None:
            data["id"], path = before.card_id, before.path
        else:
            path = folder / f"{data['id']}.yaml"
            if path.name in taken:  # another note's title and hash begin alike: a longer hash
                data["id"] = card_id_for(note.guid, str(data["title"]), length=16)
                path = folder / f"{data['id']}.yaml"
        problem = _card_problem(data)
        if problem:
            skipped.append(Skipped(note.guid, problem, _about(note)))
            continue
        text = files.file_text(note.guid, str(data["id"]), files.card_yaml(data))
        taken.add(path.name)
        card_ids[note.guid] = str(data["id"])
        if files.write_card(path, text):
            written.append(path)
            updated += before is not None
        else:
            unchanged += 1
    brought = _bring_history(workspace, read.reviews, card_ids) if with_history else 0
    return AnkiImport(
        reviews_imported=brought,
        folder=folder,
        notes=len(read.notes),
        cards_written=len(written),
        updated=updated,
        unchanged=unchanged,
        edited=edited,
        skipped=tuple(skipped),
        media_skipped=len(media),
        written=tuple(written),
    )


def _bring_history(
    workspace: Workspace, reviews: Sequence[AnkiReview], card_ids: Mapping[str, str]
) -> int:
    """Anki's reviews of the imported notes as quizzer reviews, scheduled by FSRS.

    Each review is replayed through quizzer's scheduler in time order, so the
    card's schedule is what that history gives. Only reviews later than a card's
    latest review in quizzer are taken, so importing again adds nothing twice and
    never reorders what quizzer already recorded. Anki's manual reschedules
    (ease 0) are not reviews and are left out.
    """
    from datetime import datetime, timezone

    from fsrs import Rating

    from quizzer.progress import schedule
    from quizzer.progress.store import Review

    by_card: dict[str, list[AnkiReview]] = {}
    for review in reviews:
        if review.note_guid in card_ids and 1 <= review.ease <= 4:
            by_card.setdefault(card_ids[review.note_guid], []).append(review)
    if not by_card:
        return 0
    scheduler = schedule.make_scheduler(fuzz=False)
    brought = 0
    with workspace.open_progress() as store:
        states = store.fsrs_cards()
        for card_id, history in by_card.items():
            latest = max((r.at for r in store.reviews(card_id)), default=None)
            state = states.get(card_id)
            for review in sorted(history, key=lambda r: r.at_ms):
                at = datetime.fromtimestamp(review.at_ms / 1000, tz=timezone.utc)
                if latest is not None and at <= latest:
                    continue
                card, log = schedule.review(
                    scheduler, card_id, state, Rating(review.ease), at, review.duration_ms
                )
                state = card.to_dict()
                store.save_review(Review(card_id, review.ease, dict(log.to_dict()), at), state)
                brought += 1
    return brought


def _about(note: AnkiNote) -> str:
    from quizzer.imports.html_text import plain_text

    text = plain_text(note.fields[0][1]) if note.fields else ""
    return text if len(text) <= 40 else text[:39] + "…"


def _card_problem(data: dict[str, Any]) -> str | None:
    """Why ``data`` is not a card ``quizzer validate`` accepts, or None."""
    from pydantic import ValidationError

    from quizzer.answers.checks import answer_problems
    from quizzer.cards.model import Card, card_problems

    try:
        card = Card.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return f"not a valid card: {where}: {first['msg']}"
    problems = [*card_problems(card), *answer_problems(card)]
    return f"not a valid card: {problems[0].message}" if problems else None
