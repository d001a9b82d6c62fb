"""Backups of progress: export to versioned JSON and import (merging) from it.

A backup is one JSON object (:class:`Backup` is its model, and this module
holds the one copy of its format name and version)::

    {"format": "quizzer-progress", "version": 1,
     "attempts": [{"card", "blank", "given", "correct", "try", "hints", "ms", "at",
                   "overridden"}, ...],
     "reviews": [{"card", "rating", "review_log", "at"}, ...],
     "schedule": {CARD_ID: FSRS card state, ...},
     "settings": {NAME: TEXT, ...},    (only when ``quizzer config`` saved any)
     "fsrs_parameters": {"parameters": [21 floats], "fitted_at", "reviews", "tag"}}
                                       (only when ``quizzer optimize`` saved them)

Export writes one entry per line, so a backup of a million reviews never sits
in memory whole; :mod:`quizzer.progress.restore` reads and imports it. Every
entry is checked against this model (strictly: ``"false"`` is not a boolean,
a time must carry its zone, an FSRS state must be one the scheduler accepts).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, BinaryIO, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
)
from pydantic_core import to_json

from quizzer.errors import QuizzerError
from quizzer.files import atomic_writer
from quizzer.progress.settings import saved_settings
from quizzer.progress.store import Attempt, Review, Store
from quizzer.progress.stored import check_review_log, check_state, iso, utc_time

EXPORT_FORMAT = "quizzer-progress"
EXPORT_VERSION = 1

#: Entries written, or checked and staged, together: large enough to amortise the per-call cost.
BATCH = 5000


class BadBackup(QuizzerError):
    """A progress file that quizzer cannot import."""


# -- the model ---------------------------------------------------------------------------


_STORED_FORM = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00")


def _stored_time(value: object) -> str:
    """A time as the store keeps it (UTC, milliseconds), so duplicate keys compare equal."""
    if isinstance(value, str) and _STORED_FORM.fullmatch(value):
        # What `progress export` writes: already in the store's form; just check it is a date.
        try:
            datetime.fromisoformat(value)
        except ValueError:
            raise ValueError(f"not an ISO 8601 time: {value!r}") from None
        return value
    return iso(utc_time(value))


#: Validated times are strings in the store's form: a million need no datetime objects.
StoredTime = Annotated[str, BeforeValidator(_stored_time)]
Text = Annotated[StrictStr, Field(max_length=100_000)]
#: Longest card id or blank name a backup may hold (cards set no limit of their own).
MAX_NAME = 10_000
Name = Annotated[StrictStr, Field(min_length=1, max_length=MAX_NAME)]
Count = Annotated[StrictInt, Field(ge=0, le=1_000_000)]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class AttemptEntry(_Strict):
    """One judged answer."""

    card: Name
    blank: Name
    given: Text
    correct: StrictBool
    try_: Annotated[StrictInt, Field(alias="try", ge=1, le=1_000_000)]
    hints: Count
    ms: Annotated[StrictInt, Field(ge=0, le=10**12)]
    at: StoredTime
    overridden: StrictBool = False

    def to_row(self) -> tuple[object, ...]:
        """The attempt as :meth:`Staging.add` takes it."""
        return (
            self.card,
            self.blank,
            self.given,
            int(self.correct),
            self.try_,
            self.hints,
            self.ms,
            self.at,
            int(self.overridden),
        )


class ReviewEntry(_Strict):
    """One scheduling review and FSRS's log of it."""

    card: Name
    rating: Annotated[StrictInt, Field(ge=1, le=4)]
    review_log: Annotated[dict[str, Any], AfterValidator(check_review_log)]
    at: StoredTime

    def to_row(self) -> tuple[object, ...]:
        """The review as :meth:`Staging.add` takes it."""
        # pydantic-core's encoder: a fifth of json.dumps' cost per call on a million logs.
        return (self.card, self.rating, to_json(self.review_log).decode(), self.at)


#: A card's FSRS state (``fsrs.Card.to_dict()``), checked as the scheduler needs it.
FsrsState = Annotated[dict[str, Any], AfterValidator(check_state)]


class Backup(_Strict):
    """A whole backup, version 1. Import checks it entry by entry, in this shape."""

    format: Literal["quizzer-progress"]
    version: Literal[1]
    attempts: list[AttemptEntry] = []
    reviews: list[ReviewEntry] = []
    schedule: dict[Name, FsrsState] = {}
    settings: dict[str, str] = {}
    fsrs_parameters: dict[str, Any] | None = None


ATTEMPTS = TypeAdapter(list[AttemptEntry])
REVIEWS = TypeAdapter(list[ReviewEntry])


# -- export ------------------------------------------------------------------------------


def _attempt_entry(a: Attempt) -> dict[str, Any]:
    return {
        "card": a.card_id,
        "blank": a.blank,
        "given": a.given,
        "correct": a.correct,
        "try": a.try_number,
        "hints": a.hints,
        "ms": a.ms,
        "at": iso(a.at),
        "overridden": a.overridden,
    }


def _review_entry(r: Review) -> dict[str, Any]:
    return {"card": r.card_id, "rating": r.rating, "review_log": r.review_log, "at": iso(r.at)}


def export_progress(store: Store) -> dict[str, Any]:
    """All progress as versioned JSON data (in memory: :func:`write_backup` streams)."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "attempts": [_attempt_entry(a) for a in store.each_attempt()],
        "reviews": [_review_entry(r) for r in store.each_review()],
        "schedule": store.fsrs_cards(),
        **_settings_section(store),
        **_parameters_section(store),
    }


def _settings_section(store: Store) -> dict[str, dict[str, str]]:
    """``{"settings": {...}}`` when any setting was saved; else nothing, as before settings."""
    saved = saved_settings(store)
    return {"settings": saved} if saved else {}


def _parameters_section(store: Store) -> dict[str, dict[str, object]]:
    """``{"fsrs_parameters": {...}}`` when ``optimize`` saved parameters; else nothing."""
    from quizzer.progress.parameters import saved_parameters

    saved = saved_parameters(store)
    return {"fsrs_parameters": saved.to_dict()} if saved else {}


@dataclass(frozen=True)
class Exported:
    attempts: int
    reviews: int


def write_backup(store: Store, path: Path) -> Exported:
    """Write all progress to ``path``, one entry per line, replacing the file atomically.

    Raises:
        FileProblem: the file cannot be written; an older backup there is untouched.
    """
    counts = {"attempts": 0, "reviews": 0}

    def lines(name: str, entries: Iterable[dict[str, Any]]) -> Iterator[str]:
        for index, entry in enumerate(entries):
            counts[name] += 1
            yield ("\n" if index == 0 else ",\n") + _dumps(entry)

    header = {"format": EXPORT_FORMAT, "version": EXPORT_VERSION}
    with atomic_writer(path) as out:
        out.write(_dumps(header)[:-1].encode("utf-8"))
        for name, entries in (
            ("attempts", map(_attempt_entry, store.each_attempt())),
            ("reviews", map(_review_entry, store.each_review())),
        ):
            out.write(f',\n"{name}": ['.encode())
            _write_all(out, lines(name, entries))
            out.write(b"\n]")
        out.write(b',\n"schedule": {')
        states = store.fsrs_cards().items()
        _write_all(
            out,
            (
                ("\n" if index == 0 else ",\n") + f"{_dumps(card)}: {_dumps(state)}"
                for index, (card, state) in enumerate(states)
            ),
        )
        out.write(b"\n}")
        for name, section in {**_settings_section(store), **_parameters_section(store)}.items():
            out.write(f',\n"{name}": {_dumps(section)}'.encode())
        out.write(b"}\n")
    return Exported(counts["attempts"], counts["reviews"])


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _write_all(out: BinaryIO, pieces: Iterable[str]) -> None:
    # Joining a few thousand lines per write keeps the file object's overhead negligible.
    batch: list[str] = []
    for piece in pieces:
        batch.append(piece)
        if len(batch) == BATCH:
            out.write("".join(batch).encode("utf-8"))
            batch.clear()
    out.write("".join(batch).encode("utf-8"))
