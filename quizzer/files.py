"""Reading and writing files without losing or hanging on them.

Every file quizzer writes goes through :func:`atomic_writer` (or its shorthand
:func:`write_atomic`): the bytes go to a temporary file beside the target, are
flushed and fsynced, and only then renamed over it. A full disk, a file-size
limit or a crash mid-write therefore leaves the old file exactly as it was.

Every file quizzer reads that a user could have put there (cards, backups,
caches) goes through :func:`open_regular` or :func:`read_bounded`: anything
that is not a regular file (a FIFO would block forever, ``/dev/zero`` never
ends) is refused before it is read, and a read stops at a limit counted in
bytes actually read, because the size a file reports can lie (``/proc`` files
and devices report 0).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

from quizzer.errors import QuizzerError

#: Room left in a file name for the temporary file's prefix and suffix (NAME_MAX is 255).
_TEMPORARY_NAME_ROOM = 200


class FileProblem(QuizzerError):
    """A file that cannot be read or written; the message names it and says why."""

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        #: Why, without the path ("No such file or directory", "a FIFO"), for callers
        #: that name the file their own way.
        self.reason = reason or message


class NotRegularFile(FileProblem):
    """A FIFO, device, socket or folder where a regular file was expected."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message, kind)
        self.kind = kind


class FileTooLarge(FileProblem):
    """A file longer than the reader's limit."""


def kind_of(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words ("a FIFO", "a folder", ...)."""
    kinds = [
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ]
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def size_in_words(count: int) -> str:
    """``1 MB``, ``64 KB`` or ``12 bytes``: limits as a person reads them."""
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if count >= scale and count % scale == 0:
            return f"{count // scale} {unit}"
    return f"{count} bytes"


def reason(error: OSError) -> str:
    """The short reason an OS call failed, without errno numbers or repeated paths."""
    return error.strerror or str(error)


# -- reading ----------------------------------------------------------------------------


def open_regular(path: Path | str) -> BinaryIO:
    """Open a regular file for reading in binary mode; refuse anything else.

    The file is checked before it is opened (so a device is never opened) and
    again on the open descriptor (so a file swapped in between is caught). A
    FIFO is opened non-blocking, so the check cannot hang waiting for a writer.

    Raises:
        NotRegularFile: ``path`` is a folder, FIFO, device or socket.
        FileProblem: it does not exist, cannot be read, or is a symlink loop.
    """
    try:
        _require_regular(path, os.stat(path).st_mode)
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise FileProblem(f"no such file: {path}", "no such file") from None
    except OSError as error:
        raise FileProblem(f"cannot read {path}: {reason(error)}", reason(error)) from None
    try:
        _require_regular(path, os.fstat(descriptor).st_mode)
        os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def _require_regular(path: Path | str, mode: int) -> None:
    if not stat.S_ISREG(mode):
        kind = kind_of(mode)
        raise NotRegularFile(f"{path} is {kind}, not a regular file", kind)


def read_bounded(path: Path | str, limit: int) -> bytes:
    """All of a regular file's bytes, refusing it once more than ``limit`` have been read.

    Raises:
        FileTooLarge: the file holds more than ``limit`` bytes.
        NotRegularFile, FileProblem: as :func:`open_regular`.
    """
    with open_regular(path) as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as error:
            raise FileProblem(f"cannot read {path}: {reason(error)}", reason(error)) from None
    if len(data) > limit:
        why = f"too large (the limit is {size_in_words(limit)})"
        raise FileTooLarge(f"{path} is {why}", why)
    return data


# -- writing ----------------------------------------------------------------------------


#: Files SQLite keeps beside a database; replacing one loses or corrupts the database.
SQLITE_COMPANIONS = ("-wal", "-journal", "-shm")
_SQLITE_HEADER = b"SQLite format 3\x00"
#: What no writer may replace: paths, or functions giving them (asked only when a file
#: is about to be written, so naming the default database costs nothing at start-up).
_protected: list[Path | Callable[[], Iterable[Path]]] = []


@contextmanager
def protected(source: Path | Callable[[], Iterable[Path]]) -> Iterator[None]:
    """Within the block, refuse every write to ``source`` and its SQLite companion files.

    The progress store protects each database while it is open; the command
    line protects the default database and the deck cache for the whole
    command. Any existing SQLite file is refused in any case, so an export can
    never replace a database, named or not.
    """
    _protected.append(source)
    try:
        yield
    finally:
        _protected.remove(source)


def _protected_paths() -> Iterator[Path]:
    for source in list(_protected):
        if isinstance(source, Path):
            yield source
        else:
            with suppress(Exception):  # a default that cannot be worked out protects nothing
                yield from source()


def _same_file(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except (OSError, ValueError):
        return os.path.abspath(one) == os.path.abspath(other)


def _refuse_protected(path: Path, target: Path) -> None:
    """Raise if writing ``target`` would replace a database or one of its companion files."""
    candidates = [target]
    for suffix in SQLITE_COMPANIONS:
        if target.name.endswith(suffix):
            candidates.append(target.with_name(target.name[: -len(suffix)]))
    for protected in _protected_paths():
        for candidate in candidates:
            if _same_file(candidate, protected):
                what = "the progress database" if candidate == target else "a file of the database"
                raise FileProblem(
                    f"refusing to write {path}: it is {what} {protected}", "a protected file"
                )
    for candidate in candidates:
        if _is_sqlite(candidate):
            what = (
                "an SQLite database"
                if candidate == target
                else f"a file of the database {candidate}"
            )
            raise FileProblem(f"refusing to write {path}: it is {what}", "an SQLite database")


def _is_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(len(_SQLITE_HEADER)) == _SQLITE_HEADER
    except OSError:
        return False


def _write_target(path: Path) -> tuple[Path, os.stat_result | None]:
    """The file to replace (a symlink's target, so the link survives) and its status.

    Raises:
        FileProblem: ``path`` is protected (a database, its WAL, journal or shared
            memory file, the deck cache), or an existing file without write permission.
    """
    try:
        found = os.stat(path)
    except FileNotFoundError:
        found = None
    except OSError as error:
        raise FileProblem(f"cannot write {path}: {reason(error)}", reason(error)) from None
    if found is not None and _is_stream(found.st_mode):
        # Opened by its own name: /dev/stdout links to /proc/self/fd/1, whose
        # real path for a pipe is "pipe:[N]", a name no one can open.
        return path, found
    # A dangling link is written through, as cp does: the file it names is created.
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    _refuse_protected(path, target)
    if found is None:
        return target, None
    if not stat.S_ISREG(found.st_mode):
        kind = kind_of(found.st_mode)
        raise NotRegularFile(f"cannot write {path}: it is {kind}", kind)
    if not found.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        # Mode bits, not access(): root may write anything, but a file marked
        # read-only says its owner wants it kept.
        raise FileProblem(f"refusing to write {path}: it is read-only", "read-only")
    return target, found


def check_writable(path: Path | str) -> None:
    """Fail now, before any work, if ``path`` could not be written later.

    A drill or an export that learns only at the end that its output folder is
    missing has wasted the user's time; this check runs first.

    Raises:
        FileProblem: the folder to write in does not exist.
        NotRegularFile: ``path`` is a folder, socket or block device.
    """
    path = Path(path)
    if path.is_dir():
        raise NotRegularFile(f"cannot write {path}: it is a folder; give a file name", "a folder")
    if not path.parent.is_dir():
        raise FileProblem(f"cannot write {path}: no such folder {path.parent}", "no such folder")
    _write_target(path)


def _is_stream(mode: int) -> bool:
    # /dev/stdout, /dev/null, a terminal or a pipe: nothing there to preserve or replace.
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


@contextmanager
def atomic_writer(path: Path | str) -> Iterator[BinaryIO]:
    """A binary file whose bytes replace ``path`` only if the ``with`` block succeeds.

    On success the data is fsynced, renamed over ``path`` (keeping its
    permissions) and the folder is fsynced, so the new file survives a crash.
    On any failure, an exception in the block included, ``path`` is untouched
    and the temporary file is removed. The folder must exist. A character
    device or a pipe (``/dev/stdout``) has nothing to replace and is written
    straight through; a pipe nobody reads is an error, not a hang.

    Raises:
        FileProblem: the file cannot be written (full disk, no permission, ...).
        NotRegularFile: ``path`` exists and is a folder, socket or block device.
    """
    target, found = _write_target(Path(path))
    if found is not None and _is_stream(found.st_mode):
        with _stream(path, target) as out:
            yield out
        return
    name = target.name[:_TEMPORARY_NAME_ROOM]
    temporary = target.with_name(f".{name}.{os.urandom(4).hex()}.tmp")
    try:
        # 0o666 minus the umask, as for any new file; the old file's mode is put back below.
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
        descriptor = os.open(temporary, flags, 0o666)
    except OSError as error:
        raise FileProblem(f"cannot write {path}: {reason(error)}", reason(error)) from None
    try:
        with os.fdopen(descriptor, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        if found is not None:
            os.chmod(temporary, stat.S_IMODE(found.st_mode))
        os.replace(temporary, target)
    except BaseException as error:
        with suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise FileProblem(f"cannot write {path}: {reason(error)}", reason(error)) from None
        raise
    _fsync_folder(target.parent)


@contextmanager
def _stream(path: Path | str, target: Path) -> Iterator[BinaryIO]:
    try:
        # Non-blocking open: a FIFO without a reader fails with ENXIO instead of waiting.
        descriptor = os.open(target, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        os.set_blocking(descriptor, True)
    except OSError as error:
        raise FileProblem(f"cannot write {path}: {reason(error)}", reason(error)) from None
    try:
        with os.fdopen(descriptor, "wb") as out:
            yield out
    except OSError as error:
        raise FileProblem(f"cannot write {path}: {reason(error)}", reason(error)) from None


def write_atomic(path: Path | str, data: bytes | str) -> None:
    """Replace ``path`` with ``data`` (text is written as UTF-8) all at once or not at all.

    Raises:
        FileProblem, NotRegularFile: as :func:`atomic_writer`.
    """
    with atomic_writer(path) as out:
        out.write(data.encode("utf-8") if isinstance(data, str) else data)


def write_new(path: Path | str, data: bytes | str) -> None:
    """Create ``path`` with ``data``, whole or not at all, never replacing a file.

    The data is written and fsynced beside the target, then hard-linked to its
    name: the link fails if a file of that name appeared meanwhile, and no
    reader ever sees half a file.

    Raises:
        FileExistsError: ``path`` exists (nothing was written).
        FileProblem: it cannot be written.
    """
    target = Path(path)
    temporary = target.with_name(f".{target.name[:_TEMPORARY_NAME_ROOM]}.{os.urandom(4).hex()}.tmp")
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        with open(temporary, "xb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(temporary, target)
        except FileExistsError:
            raise
        except OSError:
            # No hard links here (some network and FAT file systems): exclusive create.
            with open(target, "xb") as out:
                out.write(payload)
    except FileExistsError:
        raise
    except OSError as error:
        raise FileProblem(f"cannot write {path}: {reason(error)}", reason(error)) from None
    finally:
        with suppress(OSError):
            os.unlink(temporary)
    _fsync_folder(target.parent)


def _fsync_folder(folder: Path) -> None:
    # The rename is durable only once the folder's entry is on disk. Some file systems
    # refuse to open or fsync a folder; the file itself is already safe by then.
    with suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


# -- files skipped while walking a folder --------------------------------------------------

_skip_listeners: list[Callable[[str], None]] = []


def report_skipped(path: Path | str, why: str) -> None:
    """Tell whoever listens that ``path`` was skipped (the core never prints)."""
    report_warning(f"skipped {path}: {why}")


def report_warning(line: str) -> None:
    """Tell whoever listens something the learner should know; the command goes on.

    Skipped files, damaged rows of the progress database and a wait for
    another quizzer's lock all come this way.
    """
    for listener in _skip_listeners:
        listener(line)


@contextmanager
def skipped_files_reported_to(listener: Callable[[str], None]) -> Iterator[None]:
    """Send :func:`report_warning` lines to ``listener`` (once per line) within the block.

    The command line prints them as warnings; a folder walked twice in one
    command still gets one line per skipped file, a damaged card one line.
    """
    said: set[str] = set()

    def once(line: str) -> None:
        if line not in said:
            said.add(line)
            listener(line)

    _skip_listeners.append(once)
    try:
        yield
    finally:
        _skip_listeners.remove(once)
