"""The files of a sync folder: one append-only JSONL file per device, read line by line.

The first line of a file is its header (``{"format": "quizzer-sync",
"version": 2, "device": ID}``); every other line is one entry (see
:mod:`quizzer.progress.sync`). A line without its newline is still arriving
and is left for the next sync; a line that is not an entry this quizzer can
trust (cut short by a kill, edited, its content id not matching what it
says) is skipped with a message; a file from a newer quizzer is refused.

Format 2 added entries format 1 cannot read (``undone``, ``set``, an
attempt's ``revealed``). A quizzer that reads only format 1 would skip them
as damaged and never read them again, so a device whose own file is of
format 1 goes on in a new file, ``<device>.v2.jsonl``, which such a quizzer
refuses (and reads in full once upgraded). Format 1 files are still merged.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from quizzer.errors import QuizzerError
from quizzer.progress.backup import AttemptEntry, ReviewEntry
from quizzer.progress.stored import iso, utc_time
from quizzer.progress.sync_ids import KINDS, expected_id

SYNC_FORMAT = "quizzer-sync"
SYNC_VERSION = 2
SUFFIX = ".jsonl"
#: One line of a sync file; a real entry is a few hundred bytes.
MAX_LINE_BYTES = 1 << 20


class SyncError(QuizzerError):
    """The sync folder cannot be used (missing, not a folder, unwritable)."""


# -- the files -----------------------------------------------------------------------------


def _line(entry: dict[str, Any]) -> bytes:
    return (json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def header(device: str) -> dict[str, Any]:
    return {"format": SYNC_FORMAT, "version": SYNC_VERSION, "device": device}


def own_file(folder: Path, device: str) -> Path:
    """This device's file in ``folder``: ``<device>.jsonl``, unless that is of an older format."""
    plain = folder / f"{device}{SUFFIX}"
    try:
        with plain.open("rb") as handle:
            first = handle.readline(MAX_LINE_BYTES)
    except FileNotFoundError:
        return plain
    except OSError as error:
        raise SyncError(f"cannot read the sync folder: {plain}: {error.strerror}") from None
    try:
        version = json.loads(first).get("version") if first.endswith(b"\n") else SYNC_VERSION
    except (ValueError, AttributeError):
        version = None
    if version == SYNC_VERSION:
        return plain
    return folder / f"{device}.v{SYNC_VERSION}{SUFFIX}"


def append(path: Path, device: str, entries: Sequence[dict[str, Any]]) -> None:
    """Append ``entries`` to this device's file in one write, flushed to the disk.

    A file that does not end in a newline was cut short by a kill mid-write:
    a newline first closes that line, which readers then skip as damaged (its
    entries were never marked sent, so they are in this write again).
    """
    if not entries and path.exists():
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError as error:
        raise SyncError(f"cannot write to the sync folder: {path}: {error.strerror}") from None
    try:
        size = os.fstat(fd).st_size
        prefix = b""
        if size == 0:
            prefix = _line(header(device))
        else:
            with path.open("rb") as handle:
                handle.seek(size - 1)
                if handle.read(1) != b"\n":
                    prefix = b"\n"
        data = prefix + b"".join(map(_line, entries))
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    except OSError as error:
        raise SyncError(f"cannot write to the sync folder: {path}: {error.strerror}") from None
    finally:
        os.close(fd)


@dataclass
class FileRead:
    """What one file in the folder holds that can be merged, and what was wrong with it."""

    device: str | None = None
    #: The hash of the file's header line, and where its last whole line ends.
    head: str = ""
    end: int = 0
    entries: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    newer: str | None = None


def sync_files(folder: Path) -> list[Path]:
    """The device files in ``folder``: every ``*.jsonl`` (conflicted copies too), no hidden ones.

    Syncthing and Dropbox keep files in transit under hidden or ``~`` names.
    """
    return sorted(
        p
        for p in folder.iterdir()
        if p.name.endswith(SUFFIX) and not p.name.startswith((".", "~")) and p.is_file()
    )


def read_file(path: Path, since: tuple[str, int] | None = None) -> FileRead:
    """The whole lines of a device file, each checked; a last line without newline is left.

    ``since``: (:attr:`FileRead.head`, :attr:`FileRead.end`) of an earlier read;
    when the file still starts with that header and is no shorter, only what
    was appended since is checked (the file is append-only). Anything else
    (a file replaced, a conflicted copy made anew) is read from the start,
    which is only slower: entries already merged are skipped by their ids.
    """
    found = FileRead()
    try:
        data = path.read_bytes()
    except OSError as error:
        found.problems.append(f"cannot read {path.name}: {error.strerror}")
        return found
    first = data.find(b"\n")
    if first < 0:
        return found  # not even the header has arrived
    found.head = hashlib.sha256(data[:first]).hexdigest()[:32]
    found.end = data.rfind(b"\n") + 1
    skip = first + 1
    if since is not None and since[0] == found.head and first < since[1] <= found.end:
        skip = since[1]
    lines = data[skip : found.end].split(b"\n")
    lines.pop()  # after the last newline: nothing, or a line still arriving
    numbered_from = data.count(b"\n", 0, skip) + 1
    try:
        head = json.loads(data[:first])
    except ValueError:
        head = None
    if not isinstance(head, dict) or head.get("format") != SYNC_FORMAT:
        found.problems.append(f"{path.name} is not a quizzer sync file; left alone")
        return found
    version = head.get("version")
    if type(version) is not int or version > SYNC_VERSION or version < 1:
        found.newer = (
            f"{path.name} was written by a newer quizzer (sync format {version!r}; this one"
            f" reads {SYNC_VERSION}); upgrade quizzer on this device to merge it"
        )
        return found
    if not isinstance(head.get("device"), str):
        found.problems.append(f"{path.name} does not say which device wrote it; left alone")
        return found
    found.device = head["device"]
    damaged = 0
    for number, line in enumerate(lines, start=numbered_from):
        entry = check_entry(line)
        if entry is None:
            damaged += 1
            if damaged == 1:
                found.problems.append(f"{path.name} line {number}: a damaged entry, skipped")
            continue
        found.entries.append(entry)
    if damaged > 1:
        found.problems[-1] += f" (and {damaged - 1} more)"
    return found


def _stored_form(value: object) -> None:
    """A time as the store writes it (UTC, milliseconds): stats read dates from the text."""
    if iso(utc_time(value)) != value:
        raise ValueError("a time in a sync entry is in the store's form")


#: What an entry says besides the fields of a backup's attempt or review (checked apart).
_NOT_IN_A_REVIEW = frozenset({"id", "kind", "session", "copy"})
_NOT_IN_AN_ATTEMPT = _NOT_IN_A_REVIEW | {"revealed"}


def check_entry(line: bytes) -> dict[str, Any] | None:
    """One line as an entry, or None when it is not one this quizzer can trust."""
    if len(line) > MAX_LINE_BYTES or not line.strip():
        return None
    try:
        entry = json.loads(line)
        if not isinstance(entry, dict) or entry.get("kind") not in KINDS:
            return None
        kind = entry["kind"]
        if kind == "attempt":
            fields = {k: v for k, v in entry.items() if k not in _NOT_IN_AN_ATTEMPT}
            AttemptEntry.model_validate(fields)
            if type(entry.get("revealed", False)) is not bool:
                return None
            _stored_form(entry["at"])
        elif kind == "review":
            fields = {k: v for k, v in entry.items() if k not in _NOT_IN_A_REVIEW}
            ReviewEntry.model_validate(fields)
            _stored_form(entry["at"])
        elif kind == "session":
            _stored_form(entry["started_at"])
            if not isinstance(entry["mode"], str) or type(entry["number"]) is not int:
                return None
        elif kind in ("override", "retract", "undone"):
            named = entry["target" if kind == "retract" else "attempt"]
            if not isinstance(named, str):
                return None
        elif kind == "set":
            from quizzer.progress.sync_registers import check_set

            if not check_set(entry):
                return None
        if kind in ("attempt", "review") and not isinstance(entry.get("session"), str | None):
            return None
        copy = entry.get("copy", 1)
        if kind in ("attempt", "review") and (type(copy) is not int or not 1 <= copy <= 10**9):
            return None
        if entry.get("id") != expected_id(entry):
            return None  # damaged in transit or by hand: what it says is not what it was
    except (ValueError, KeyError, TypeError, ValidationError, RecursionError):
        return None
    return entry
