"""Backups of progress: export to versioned JSON and import (merging) from it.

A backup is one JSON object (:class:`Backup` is its model)::

    {"format": "quizzer-progress", "version": 1,
     "attempts": [{"card", "blank", "given", "correct", "try", "hints", "ms", "at",
                   "overridden"}, ...],
     "reviews": [{"card", "rating", "review_log", "at"}, ...],
     "schedule": {CARD_ID: FSRS card state, ...},
     "settings": {NAME: TEXT, ...}}    (only when ``quizzer config`` saved any)

Export writes one entry per line and import reads entry by entry, so a backup
of a million reviews never sits in memory whole. Import is all or nothing:
every entry is checked (strictly: ``"false"`` is not a boolean, a time must
carry its zone) and staged before the one transaction that merges it, so a bad
entry anywhere leaves the progress file as it was, and importing the same
backup again, or several times at once, adds nothing.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Any, BinaryIO, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)
from pydantic_core import to_json

from quizzer.errors import QuizzerError
from quizzer.files import FileProblem, atomic_writer, open_regular, size_in_words
from quizzer.progress.settings import restore_settings, saved_settings
from quizzer.progress.store import Attempt, Merged, Review, Staging, Store, iso

EXPORT_FORMAT = "quizzer-progress"
EXPORT_VERSION = 1

#: A backup of a million reviews is about 250 MB; this bounds what one import reads.
MAX_BACKUP_BYTES = 4 << 30
#: One attempt, review or schedule entry; real ones are a few hundred bytes.
MAX_ENTRY_BYTES = 1 << 20
#: Entries checked and staged together: large enough to amortise the per-call cost.
BATCH = 5000
_READ_CHUNK = 1 << 20


class BadBackup(QuizzerError):
    """A progress file that quizzer cannot import."""


# -- the model ---------------------------------------------------------------------------


def _utc_moment(value: object) -> datetime:
    """An ISO 8601 time that carries its zone, in UTC."""
    if not isinstance(value, str):
        raise ValueError("a time must be an ISO 8601 string")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"not an ISO 8601 time: {value[:40]!r}") from None
    offset = moment.utcoffset()
    if offset is None:
        raise ValueError(f"time without a zone: {value[:40]!r} (add Z or +00:00)")
    if offset:
        try:
            moment = moment.astimezone(timezone.utc)
        except OverflowError:
            raise ValueError(f"time out of range: {value[:40]!r}") from None
    return moment.replace(tzinfo=timezone.utc)


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
    return iso(_utc_moment(value))


def _fsrs_time(value: object) -> str | None:
    """An FSRS state's time, as FSRS writes it (ISO 8601 in UTC)."""
    return _utc_moment(value).isoformat() if value is not None else None


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
    review_log: dict[str, Any]
    at: StoredTime

    def to_row(self) -> tuple[object, ...]:
        """The review as :meth:`Staging.add` takes it."""
        # pydantic-core's encoder: a fifth of json.dumps' cost per call on a million logs.
        return (self.card, self.rating, to_json(self.review_log).decode(), self.at)


class FsrsState(_Strict):
    """A card's FSRS state as ``fsrs.Card.to_dict()`` writes it."""

    card_id: Annotated[StrictInt, Field(ge=0, lt=2**63)]
    state: Annotated[StrictInt, Field(ge=1, le=3)]
    step: Annotated[StrictInt, Field(ge=0, le=1000)] | None
    stability: Annotated[float, Field(ge=0, allow_inf_nan=False)] | None
    difficulty: Annotated[float, Field(ge=0, allow_inf_nan=False)] | None
    due: Annotated[str, BeforeValidator(_fsrs_time)]
    last_review: Annotated[str | None, BeforeValidator(_fsrs_time)]


class Backup(_Strict):
    """A whole backup, version 1. Import checks it entry by entry, in this shape."""

    format: Literal["quizzer-progress"]
    version: Literal[1]
    attempts: list[AttemptEntry] = []
    reviews: list[ReviewEntry] = []
    schedule: dict[Name, FsrsState] = {}
    settings: dict[str, str] = {}


_ATTEMPTS = TypeAdapter(list[AttemptEntry])
_REVIEWS = TypeAdapter(list[ReviewEntry])
_STATE = TypeAdapter(FsrsState)


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
    }


def _settings_section(store: Store) -> dict[str, dict[str, str]]:
    """``{"settings": {...}}`` when any setting was saved; else nothing, as before settings."""
    saved = saved_settings(store)
    return {"settings": saved} if saved else {}


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
        for name, section in _settings_section(store).items():
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


# -- reading a backup as a stream of entries --------------------------------------------

_SPACE = re.compile(r"[ \t\n\r]*")
_NUMBER_TAIL = re.compile(r"[0-9.eE+\-]*")


class _Reader:
    """A JSON document read in chunks: whole values on demand, bytes counted as read."""

    def __init__(self, handle: BinaryIO, name: str, limit: int) -> None:
        self.handle, self.name, self.limit = handle, name, limit
        self.decode = codecs.getincrementaldecoder("utf-8")().decode
        self.text, self.at, self.read_bytes, self.ended = "", 0, 0, False
        self.decoder = json.JSONDecoder()

    def bad(self, why: str) -> BadBackup:
        return BadBackup(f"{self.name} is not a quizzer progress file ({why})")

    def more(self) -> bool:
        """Read another chunk; False at the end of the file."""
        if self.ended:
            return False
        chunk = self.handle.read(_READ_CHUNK)
        self.read_bytes += len(chunk)
        if self.read_bytes > self.limit:
            raise BadBackup(f"{self.name} is too large (the limit is {size_in_words(self.limit)})")
        try:
            decoded = self.decode(chunk, final=not chunk)
        except UnicodeDecodeError:
            raise self.bad("not UTF-8 text") from None
        self.text = self.text[self.at :] + decoded
        self.at = 0
        self.ended = not chunk
        return bool(chunk)

    def peek(self) -> str:
        """The next character that is not white space ("" at the end)."""
        while True:
            self.at = _SPACE.match(self.text, self.at).end()  # type: ignore[union-attr]
            if self.at < len(self.text) or not self.more():
                return self.text[self.at : self.at + 1]

    def take(self, expected: str) -> str:
        found = self.peek()
        if found not in expected or not found:
            shown = repr(found) if found else "the end of the file"
            raise self.bad(f"expected {' or '.join(map(repr, expected))}, found {shown}")
        self.at += 1
        return found

    def value(self) -> Any:
        """The next whole JSON value."""
        self.peek()
        while True:
            try:
                value, end = self.decoder.raw_decode(self.text, self.at)
            except json.JSONDecodeError as error:
                if not self.ended and len(self.text) - self.at <= MAX_ENTRY_BYTES and self.more():
                    continue
                raise self.bad(f"not valid JSON: {error.msg}") from None
            except (ValueError, RecursionError) as error:
                # Python's integer-digit limit, or nesting deeper than the parser goes.
                raise self.bad(f"not valid JSON: {str(error)[:80]}") from None
            # A number read up to the end of the buffer ("0" of "0.5", "1e" of "1e5") may
            # go on in the next chunk: read on before trusting it.
            tail = _NUMBER_TAIL.fullmatch(self.text, end)
            if tail and not self.ended and self.more():
                continue
            self.at = end
            return value

    def items(self, close: str, *, after_comma: bool = False) -> Iterator[None]:
        """Step through the items of an array or object whose opening bracket was taken.

        ``after_comma``: the comma before the next item has been read already.
        """
        if not after_comma and self.peek() == close:
            self.at += 1
            return
        while True:
            yield
            if self.take("," + close) == close:
                return

    def entry_lines(self, parse: Callable[[str], list[Any]]) -> tuple[list[Any], bool] | None:
        """Up to :data:`BATCH` array entries written one per line, as export writes them.

        ``parse`` reads the batch as one JSON array: ``json.loads``, or a pydantic
        adapter's ``validate_json``, which parses and checks a batch in one call
        (a third of the CPU time of a million-review import). Returns the entries
        and whether more follow (the last line ended with a comma), or None,
        having read nothing, when the text ahead is not in that shape; the caller
        then reads value by value from the same place.

        Raises:
            ValidationError: the batch is JSON, and an entry is not valid.
        """
        self.peek()
        end = self.text.find("\n", self.at)
        while end == -1 and len(self.text) - self.at <= MAX_ENTRY_BYTES and self.more():
            end = self.text.find("\n", self.at)
        if end == -1:
            return None
        cut = self.text.rfind("\n", self.at, self.at + _READ_CHUNK)
        lines = self.text[self.at : cut].split("\n", BATCH)[:BATCH]
        entries: list[str] = []
        more = True
        for line in lines:
            line = line.strip()
            if not (line.startswith("{") and line.endswith(("}", "},"))):
                break
            entries.append(line.removesuffix(","))
            if not line.endswith(","):
                more = False
                break
        if not entries:
            return None
        try:
            values = parse("[" + ",".join(entries) + "]")
        except RecursionError:
            return None
        except ValueError as error:
            if isinstance(error, ValidationError) and not _is_json_error(error):
                raise
            return None  # not one entry per line after all (or bad): read value by value
        if len(values) != len(entries):
            return None
        self.at += sum(len(line) + 1 for line in lines[: len(entries)])
        return values, more


def _is_json_error(error: ValidationError) -> bool:
    return any(detail["type"] == "json_invalid" for detail in error.errors())


class _Checked(list[Any]):
    """A batch of entries already checked against the model (from line batches)."""


def _entries(
    reader: _Reader, adapters: Mapping[str, TypeAdapter[Any]] | None = None
) -> Iterator[tuple[str, Any]]:
    """(section, entry) pairs: ("header", (key, value)), ("attempts", {...}), ...

    With ``adapters`` (per array section), line batches come checked, as
    :class:`_Checked` lists, and other entries as plain JSON values.
    """
    if reader.peek() != "{":
        raise reader.bad("not a JSON object")
    reader.take("{")
    seen: set[str] = set()
    for _ in reader.items("}"):
        key = reader.value()
        if not isinstance(key, str):
            raise reader.bad("expected a key")
        if key in seen:
            raise reader.bad(f"{key!r} appears twice")
        seen.add(key)
        reader.take(":")
        if key in ("attempts", "reviews"):
            reader.take("[")
            yield from _array(reader, key, adapters[key] if adapters else None)
        elif key == "schedule":
            reader.take("{")
            for _ in reader.items("}"):
                card = reader.value()
                reader.take(":")
                yield key, (card, reader.value())
        elif key == "settings":
            yield key, reader.value()
        else:
            yield "header", (key, reader.value())
    if reader.peek():
        raise reader.bad("text after the end of the backup")


def _array(
    reader: _Reader, section: str, adapter: TypeAdapter[Any] | None
) -> Iterator[tuple[str, Any]]:
    """The entries of an array whose "[" was taken: by lines while they come one per line."""
    parse = adapter.validate_json if adapter else json.loads
    after_comma, count = False, 0
    while True:
        try:
            batch = reader.entry_lines(parse)
        except ValidationError as error:
            raise _malformed(section, count, error) from None
        if batch is None:
            break
        entries, after_comma = batch
        count += len(entries)
        if adapter:
            yield section, _Checked(entries)
        else:
            yield from ((section, entry) for entry in entries)
        if not after_comma:
            reader.take("]")
            return
    for _ in reader.items("]", after_comma=after_comma):
        yield section, reader.value()


def _check_header(name: str, key: str, value: object) -> None:
    if key == "format" and value != EXPORT_FORMAT:
        raise BadBackup(f"{name} is not a quizzer progress file")
    if key == "version" and (value != EXPORT_VERSION or type(value) is not int):
        raise BadBackup(
            f"{name} has progress format version {value!r};"
            f" this quizzer reads version {EXPORT_VERSION}"
        )
    if key not in ("format", "version"):
        raise BadBackup(f"{name} is not a quizzer progress file (unknown section {key!r})")


# -- import ------------------------------------------------------------------------------


def _malformed(section: str, offset: int, error: ValidationError) -> BadBackup:
    detail = error.errors()[0]
    where = [section]
    for part in detail["loc"]:
        if isinstance(part, int):
            where.append(f"[{part + offset}]")
        else:
            where.append(f".{part}")
    message = detail["msg"]
    if detail["type"] == "value_error":
        message = message.removeprefix("Value error, ")
    return BadBackup(f"progress file has a malformed entry: {''.join(where)}: {message}")


class _Stager:
    """Checks entries in batches and stages them; nothing reaches the store's tables."""

    def __init__(self, staging: Staging, name: str) -> None:
        self.staging, self.name = staging, name
        self.pending: dict[str, list[Any]] = {"attempts": [], "reviews": []}
        self.schedule: list[tuple[str, dict[str, Any]]] = []
        self.counted = {"attempts": 0, "reviews": 0}
        self.header: dict[str, object] = {}
        self.settings: dict[str, str] = {}

    def take(self, section: str, entry: Any) -> None:
        if section == "settings":
            if not isinstance(entry, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in entry.items()
            ):
                raise BadBackup("progress file has a malformed entry: settings")
            self.settings = dict(entry)
        elif section == "header":
            key, value = entry
            _check_header(self.name, key, value)
            self.header[key] = value
        elif section == "schedule":
            card, state = entry
            if not 1 <= len(card) <= MAX_NAME:
                raise BadBackup(
                    "progress file has a malformed entry: a schedule card id is empty or too long"
                )
            try:
                checked = _STATE.validate_python(state)
            except ValidationError as error:
                raise _malformed(f"schedule[{card!r}]", 0, error) from None
            self.schedule.append((card, checked.model_dump()))
            if len(self.schedule) >= BATCH:
                self.flush()
        elif isinstance(entry, _Checked):
            self.flush()  # what came before, first: rows keep the backup's order
            rows = [checked.to_row() for checked in entry]
            self.staging.add(*((rows, []) if section == "attempts" else ([], rows)))
            self.counted[section] += len(entry)
        else:
            self.pending[section].append(entry)
            if len(self.pending[section]) >= BATCH:
                self.flush()

    def flush(self) -> None:
        attempts, reviews = self.pending["attempts"], self.pending["reviews"]
        try:
            checked_attempts = _ATTEMPTS.validate_python(attempts)
        except ValidationError as error:
            raise _malformed("attempts", self.counted["attempts"], error) from None
        try:
            checked_reviews = _REVIEWS.validate_python(reviews)
        except ValidationError as error:
            raise _malformed("reviews", self.counted["reviews"], error) from None
        self.staging.add(
            [a.to_row() for a in checked_attempts],
            [r.to_row() for r in checked_reviews],
            self.schedule,
        )
        self.schedule = []
        self.counted["attempts"] += len(attempts)
        self.counted["reviews"] += len(reviews)
        attempts.clear()
        reviews.clear()

    def finish(self) -> None:
        self.flush()
        if self.header.get("format") != EXPORT_FORMAT:
            raise BadBackup(f"{self.name} is not a quizzer progress file")
        if "version" not in self.header:
            raise BadBackup(f"{self.name} does not say its progress format version")


def _merge(
    store: Store, name: str, entries: Callable[[], Iterable[tuple[str, Any]]], now: datetime
) -> Merged:
    with store.staging() as staging:
        stager = _Stager(staging, name)
        for section, entry in entries():
            stager.take(section, entry)
        stager.finish()
        merged = staging.merge(now)
    if stager.settings:
        restore_settings(store, stager.settings)
    return merged


def import_backup(
    store: Store, path: Path, now: datetime, *, limit: int = MAX_BACKUP_BYTES
) -> Merged:
    """Merge the backup file at ``path`` into ``store``, all of it or (on any error) nothing.

    Raises:
        BadBackup: the file is not a regular, readable, well-formed backup.
    """
    with _reading(path, limit) as reader:
        adapters: dict[str, TypeAdapter[Any]] = {"attempts": _ATTEMPTS, "reviews": _REVIEWS}
        return _merge(store, str(path), lambda: _entries(reader, adapters), now)


@contextmanager
def _reading(path: Path, limit: int) -> Iterator[_Reader]:
    try:
        handle = open_regular(path)
    except FileProblem as error:
        raise BadBackup(error.message) from None
    with handle:
        try:
            yield _Reader(handle, str(path), limit)
        except OSError as error:
            raise BadBackup(f"cannot read {path}: {error.strerror or error}") from None


def _data_entries(data: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    for key, value in data.items():
        if key in ("attempts", "reviews"):
            if not isinstance(value, list):
                raise BadBackup(f"progress file has a malformed entry: {key} is not a list")
            yield from ((key, entry) for entry in value)
        elif key == "schedule":
            if not isinstance(value, dict):
                raise BadBackup("progress file has a malformed entry: schedule is not an object")
            yield from (("schedule", item) for item in value.items())
        else:
            yield "header", (key, value)


def import_progress(store: Store, data: Mapping[str, Any], now: datetime) -> int:
    """Merge backup data already in memory into ``store``. Returns the attempts added."""
    return _merge(store, "progress data", lambda: _data_entries(data), now).attempts


def read_backup(path: Path, limit: int = MAX_BACKUP_BYTES) -> dict[str, Any]:
    """A whole backup file as data, checked only for its format and version."""
    with _reading(path, limit) as reader:
        data: dict[str, Any] = {"attempts": [], "reviews": [], "schedule": {}}
        for section, entry in _entries(reader):
            if section == "header":
                _check_header(str(path), *entry)
                data[entry[0]] = entry[1]
            elif section == "schedule":
                data["schedule"][entry[0]] = entry[1]
            else:
                data[section].append(entry)
    if data.get("format") != EXPORT_FORMAT:
        raise BadBackup(f"{path} is not a quizzer progress file")
    return data
