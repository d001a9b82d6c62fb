"""Importing a backup: read entry by entry, checked, staged, merged all or nothing.

A backup of a million reviews never sits in memory whole: it is read in
chunks, entries checked in batches against :mod:`quizzer.progress.backup`'s
model and staged in temporary tables before the one transaction that merges
them, so a bad entry anywhere leaves the progress file as it was, and
importing the same backup again, or several times at once, adds nothing.
"""

from __future__ import annotations

import codecs
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from pydantic import TypeAdapter, ValidationError

from quizzer.files import FileProblem, open_regular, size_in_words
from quizzer.progress.backup import (
    ATTEMPTS,
    BATCH,
    EXPORT_FORMAT,
    EXPORT_VERSION,
    MAX_NAME,
    REVIEWS,
    BadBackup,
)
from quizzer.progress.parameters import SavedParameters, parameters_from
from quizzer.progress.settings import restorable
from quizzer.progress.staging import Merged, Staging, staging
from quizzer.progress.store import Store
from quizzer.progress.stored import check_state

if TYPE_CHECKING:
    from fsrs.card import CardDict

#: A backup of a million reviews is about 250 MB; this bounds what one import reads.
MAX_BACKUP_BYTES = 4 << 30
#: One attempt, review or schedule entry; real ones are a few hundred bytes.
MAX_ENTRY_BYTES = 1 << 20
_READ_CHUNK = 1 << 20


# -- reading a backup as a stream of entries --------------------------------------------

_SPACE = re.compile(r"[ \t\n\r]*")
_NUMBER_TAIL = re.compile(r"[0-9.eE+\-]*")


class _Reader:
    """A JSON document read in chunks: whole values on demand, bytes counted as read."""

    def __init__(self, handle: BinaryIO, name: str, limit: int) -> None:
        self.handle, self.name, self.limit = handle, name, limit
        self.decode = codecs.getincrementaldecoder("utf-8")().decode
        self.text, self.at, self.read_bytes, self.ended = "", 0, 0, False
        self.decoder = json.JSONDecoder(object_pairs_hook=_no_repeated_keys)
        self.started = False

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
        if not self.started and decoded:
            # A byte-order mark some editors put first is no part of the JSON.
            decoded, self.started = decoded.removeprefix("\ufeff"), True
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
            except _RepeatedKey as error:
                raise BadBackup(
                    f"progress file has a malformed entry: the key {error.key[:40]!r}"
                    " appears twice in one entry"
                ) from None
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
            if not (line.startswith("{") and line.endswith(("}", "},"))) or _repeats_a_key(line):
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


class _RepeatedKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(f"the key {key!r} appears twice")
        self.key = key


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused when a key appears twice (JSON would keep the last silently)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        counts = Counter(key for key, _ in pairs)
        raise _RepeatedKey(next(key for key, n in counts.items() if n > 1))
    return found


#: A key as it appears in a line of a backup: `"name":` cannot occur inside a JSON
#: string unless the string holds an escaped quote, which :data:`_ESCAPE` catches.
_KEY = re.compile(r'"([^"\\]*)"\s*:')
#: An escaped quote or a \u escape (not an escaped backslash before a u): keys may
#: hide behind either, so such a line is read the careful way.
_ESCAPE = re.compile(r'(?<!\\)(?:\\\\)*\\[u"]')
#: Keys an entry holds twice legitimately: a review's rating, in it and in its log.
_TWICE = {"rating": 2}


def _repeats_a_key(line: str) -> bool:
    """Whether a line may hold a key twice; such a line is read (and refused) value by value.

    The fast path parses lines with pydantic, which keeps the last of repeated keys.
    """
    # Most lines hold no backslash at all: the escape search (a third of this check's
    # time on a million-review import) runs only where one is.
    if "\\" in line and _ESCAPE.search(line):
        return True
    keys = _KEY.findall(line)
    distinct = set(keys)
    if len(keys) == len(distinct):
        return False
    return any(keys.count(key) > _TWICE.get(key, 1) for key in distinct)


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
        elif key in ("settings", "fsrs_parameters"):
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
        self.schedule: list[tuple[str, CardDict]] = []
        self.counted = {"attempts": 0, "reviews": 0}
        self.header: dict[str, object] = {}
        self.settings: dict[str, str] = {}
        self.parameters: SavedParameters | None = None

    def take(self, section: str, entry: Any) -> None:
        if section == "fsrs_parameters":
            try:
                self.parameters = parameters_from(entry)
            except ValueError as error:
                raise BadBackup(f"progress file has a malformed entry: {error}") from None
        elif section == "settings":
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
                checked = check_state(state)
            except ValueError as error:
                raise BadBackup(
                    f"progress file has a malformed entry: schedule[{card[:80]!r}]: {error}"
                ) from None
            self.schedule.append((card, checked))
            if len(self.schedule) >= BATCH:
                self.flush()
        elif isinstance(entry, _Checked):
            self.flush()  # what came before, first: rows keep the backup's order
            rows = [checked.to_row() for checked in entry]
            self._stage(*((rows, []) if section == "attempts" else ([], rows)))
            self.counted[section] += len(entry)
        else:
            self.pending[section].append(entry)
            if len(self.pending[section]) >= BATCH:
                self.flush()

    def _stage(
        self,
        attempts: list[tuple[object, ...]],
        reviews: list[tuple[object, ...]],
        schedule: list[tuple[str, CardDict]] | None = None,
    ) -> None:
        try:
            self.staging.add(attempts, reviews, schedule or [])
        except UnicodeEncodeError as error:
            # JSON may spell half a UTF-16 pair ("\ud800"), which no text file can hold.
            bad = error.object[error.start : error.end]
            raise BadBackup(
                f"progress file has a malformed entry: it holds {bad!r}, half of a UTF-16"
                " pair, which is not text"
            ) from None

    def flush(self) -> None:
        attempts, reviews = self.pending["attempts"], self.pending["reviews"]
        try:
            checked_attempts = ATTEMPTS.validate_python(attempts)
        except ValidationError as error:
            raise _malformed("attempts", self.counted["attempts"], error) from None
        try:
            checked_reviews = REVIEWS.validate_python(reviews)
        except ValidationError as error:
            raise _malformed("reviews", self.counted["reviews"], error) from None
        self._stage(
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
    with staging(store) as staged:
        stager = _Stager(staged, name)
        for section, entry in entries():
            stager.take(section, entry)
        stager.finish()
        return staged.merge(now, restorable(stager.settings), stager.parameters)


def import_backup(
    store: Store, path: Path, now: datetime, *, limit: int = MAX_BACKUP_BYTES
) -> Merged:
    """Merge the backup file at ``path`` into ``store``, all of it or (on any error) nothing.

    Raises:
        BadBackup: the file is not a regular, readable, well-formed backup.
    """
    with _reading(path, limit) as reader:
        adapters: dict[str, TypeAdapter[Any]] = {"attempts": ATTEMPTS, "reviews": REVIEWS}
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
        elif key in ("settings", "fsrs_parameters"):
            yield key, value
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
            elif section in ("settings", "fsrs_parameters"):
                data[section] = entry
            else:
                data[section].append(entry)
    if data.get("format") != EXPORT_FORMAT:
        raise BadBackup(f"{path} is not a quizzer progress file")
    return data
