"""The learner's settings (``quizzer config``), kept in the progress database.

Kept there rather than in a config file so that they travel with the
progress they shape (a backup carries them). Each setting is parsed from
text and checked here; a bad one is a :class:`SettingError` with one line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from quizzer.errors import QuizzerError
from quizzer.progress.changes import SETTING, note_change

if TYPE_CHECKING:
    from quizzer.progress.store import Store

RETENTION_RANGE = (0.70, 0.99)
MAX_NEW_PER_DAY = 10_000
#: A learning step is at least a minute and less than a day, as in Anki.
STEP_RANGE = (timedelta(minutes=1), timedelta(days=1))
MAX_STEPS = 10
_STEP = re.compile(r"(\d+)([smhd])")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class SettingError(QuizzerError):
    """A setting name or value that cannot be used."""


@dataclass(frozen=True)
class Settings:
    """What ``quizzer config`` reads and writes; the defaults are Anki's."""

    desired_retention: float = 0.90
    new_per_day: int = 20
    learning_steps: tuple[timedelta, ...] = (timedelta(minutes=1), timedelta(minutes=10))
    relearning_steps: tuple[timedelta, ...] = (timedelta(minutes=10),)

    def to_dict(self) -> dict[str, Any]:
        """Every setting as ``config --json`` prints it (steps as text, ``1m 10m``)."""
        return {f.name: format_value(f.name, getattr(self, f.name)) for f in fields(self)}


DEFAULTS = Settings()
NAMES = tuple(f.name for f in fields(Settings))


def format_steps(steps: tuple[timedelta, ...]) -> str:
    """``1m 10m``: each step in its largest whole unit."""
    words = []
    for step in steps:
        seconds = int(step.total_seconds())
        unit = next(u for u in "dhms" if seconds % _UNIT_SECONDS[u] == 0)
        words.append(f"{seconds // _UNIT_SECONDS[unit]}{unit}")
    return " ".join(words)


def format_value(name: str, value: object) -> object:
    """A setting's value as shown and stored: steps as text, numbers as they are."""
    if name.endswith("steps"):
        assert isinstance(value, tuple)
        return format_steps(value)
    return value


def parse_steps(name: str, text: str) -> tuple[timedelta, ...]:
    """``1m 10m`` → the steps; an empty text means no steps."""
    steps = []
    for word in text.replace(",", " ").split():
        match = _STEP.fullmatch(word.lower())
        if match is None:
            raise SettingError(
                f"{name}: {word!r} is not a step; write steps like '1m 10m' (s, m, h, d)"
            )
        step = timedelta(seconds=int(match[1]) * _UNIT_SECONDS[match[2]])
        if not STEP_RANGE[0] <= step < STEP_RANGE[1]:
            raise SettingError(f"{name}: each step is from 1m to under 1d, not {word}")
        steps.append(step)
    if len(steps) > MAX_STEPS:
        raise SettingError(f"{name}: at most {MAX_STEPS} steps")
    return tuple(steps)


def parse_value(name: str, text: str) -> object:
    """The value of setting ``name`` written as ``text``, checked.

    Raises:
        SettingError: an unknown name or a value out of range, in one line.
    """
    if name not in NAMES:
        raise SettingError(f"unknown setting {name!r}; settings are {', '.join(NAMES)}")
    text = text.strip()
    if name == "desired_retention":
        try:
            retention = float(text)
        except ValueError:
            retention = float("nan")
        low, high = RETENTION_RANGE
        if not low <= retention <= high:
            raise SettingError(f"desired_retention is a number from {low} to {high}, not {text!r}")
        return retention
    if name == "new_per_day":
        if not text.isdecimal() or int(text) > MAX_NEW_PER_DAY:
            raise SettingError(
                f"new_per_day is a whole number from 0 to {MAX_NEW_PER_DAY}, not {text!r}"
            )
        return int(text)
    return parse_steps(name, text)


def _stored(name: str, text: str) -> object:
    """A stored value, or the default when it no longer reads (never a crash)."""
    try:
        return parse_value(name, text)
    except SettingError:
        return getattr(DEFAULTS, name)


def read_settings(store: Store | None) -> Settings:
    """The settings saved in ``store`` over the defaults (None: the defaults)."""
    if store is None:
        return DEFAULTS
    rows = store.connection.execute("SELECT key, value FROM settings").fetchall()
    chosen = {str(k): _stored(str(k), str(v)) for k, v in rows if str(k) in NAMES}
    return replace(DEFAULTS, **chosen)  # type: ignore[arg-type]


def write_setting(store: Store, name: str, text: str, *, now: datetime | None = None) -> Settings:
    """Check and save one setting; returns the settings as they now are.

    ``now`` dates the change for sync (the newest change wins on every device).
    """
    value = parse_value(name, text)
    with store.writing() as db:
        db.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?)"
            " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (name, str(format_value(name, value))),
        )
        if now is not None:
            note_change(db, [SETTING + name], now)
    return read_settings(store)


def saved_settings(store: Store) -> dict[str, str]:
    """The settings saved as text, by name (what a backup carries)."""
    rows = store.connection.execute("SELECT key, value FROM settings").fetchall()
    return {str(k): str(v) for k, v in rows}


def restorable(saved: Mapping[str, str]) -> list[tuple[str, str]]:
    """The (name, text) pairs of a backup's settings worth saving; a bad one is skipped."""
    good = []
    for name, text in saved.items():
        try:
            good.append((name, str(format_value(name, parse_value(name, text)))))
        except SettingError:
            continue
    return good


# -- the sync folder: a setting of this machine only -----------------------------------------

#: The folder every study command syncs through (``quizzer config sync_dir DIR``). Kept in
#: the settings table, but no :class:`Settings` field: it is a path on this machine, so
#: sync never sends it and a backup's copy is never restored on another machine.
SYNC_DIR = "sync_dir"


def parse_sync_dir(text: str) -> str:
    """The folder as saved: ``""`` (none: no automatic sync) or an absolute path.

    Raises:
        SettingError: a path that names a file, or holds a line break.
    """
    from pathlib import Path

    text = text.strip()
    if not text:
        return ""
    if "\n" in text or "\r" in text or "\0" in text:
        raise SettingError("sync_dir is one folder's path, on one line")
    path = Path(text).expanduser().absolute()
    if path.exists() and not path.is_dir():
        raise SettingError(f"sync_dir is a folder, and {path} is a file")
    return str(path)


def read_sync_dir(store: Store | None) -> str:
    """The saved sync folder, or ``""`` for none (nor any progress database)."""
    if store is None:
        return ""
    row = store.connection.execute(
        "SELECT value FROM settings WHERE key = ?", (SYNC_DIR,)
    ).fetchone()
    return str(row[0]) if row and isinstance(row[0], str) else ""


def write_sync_dir(store: Store, text: str) -> str:
    """Save (or, with ``""``, forget) the sync folder; returns it as saved."""
    folder = parse_sync_dir(text)
    with store.writing() as db:
        if folder:
            db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (SYNC_DIR, folder),
            )
        else:
            db.execute("DELETE FROM settings WHERE key = ?", (SYNC_DIR,))
    return folder
