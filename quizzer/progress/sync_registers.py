"""Sync of what has one current value: settings, suspensions and buries, fitted parameters.

Unlike answers and reviews, which only ever add up, these are *changed*:
the learner suspends a card on one machine and unsuspends it on the other,
sets ``desired_retention`` twice. Each such value is a register: every
change is a ``set`` entry ``{"key", "value", "at", "device"}``, and the
change with the newest ``(at, id)`` wins, on every device, whatever order
the entries arrive in.

The keys: ``setting:NAME`` (a ``quizzer config`` setting's stored text, or
null for none saved), ``suspended:CARD`` (bool), ``buried:CARD`` (the
``buried_until`` time, or null) and ``parameters`` (what ``optimize``
saved, or null). ``sync_dir`` is no setting here: each machine has its own.

None of these tables records when a value changed, and the schema stays as
it is: a sync compares each value with the one it last sent or merged
(kept in ``sync_meta`` as ``reg:KEY``), and a value that differs is a
change made now, never older than what this device had already seen (so a
change made after a merge always beats what was merged). Fitted
parameters carry their own time, ``fitted_at``: the newest fit wins.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from quizzer.progress.changes import BURIED, CHANGED, SETTING, SUSPENDED
from quizzer.progress.settings import NAMES, SettingError, parse_value
from quizzer.progress.stored import iso, utc_time
from quizzer.progress.sync_ids import set_id

PARAMETERS = "parameters"
#: Settings that belong to one machine and never travel (a folder's path differs on each).
LOCAL_SETTINGS = frozenset({"sync_dir"})
_REGISTER = "reg:"

_TICK = timedelta(milliseconds=1)


def _default(key: str) -> object:
    return False if key.startswith(SUSPENDED) else None


# -- this device's values ------------------------------------------------------------------


def _parameters_value(db: sqlite3.Connection) -> tuple[bool, object]:
    """(readable, value) of the saved parameters; a damaged row is not readable."""
    from quizzer.progress.parameters import acceptable

    row = db.execute(
        "SELECT parameters, fitted_at, reviews, tag FROM fsrs_parameters WHERE id = 1"
    ).fetchone()
    if row is None:
        return True, None
    value = {"parameters": None, "fitted_at": row[1], "reviews": row[2], "tag": row[3]}
    try:
        value["parameters"] = json.loads(row[0])
    except (TypeError, ValueError):
        return False, None
    return check_parameters(value, acceptable), value


def local_values(db: sqlite3.Connection) -> tuple[dict[str, object], set[str]]:
    """Every register's value in this database, and the keys whose value is damaged.

    A damaged value is never sent: the register keeps what it had.
    """
    values: dict[str, object] = {}
    damaged: set[str] = set()
    for name, text in db.execute("SELECT key, value FROM settings"):
        if name in NAMES and isinstance(text, str):
            values[SETTING + name] = text
    for card, suspended, until in db.execute(
        "SELECT card_id, suspended, buried_until FROM card_flags"
    ):
        if isinstance(card, str):
            values[SUSPENDED + card] = bool(suspended)
            if until is None or _time_or_none(until) is not None:
                values[BURIED + card] = until
            else:
                damaged.add(BURIED + card)
    readable, parameters = _parameters_value(db)
    if readable:
        values[PARAMETERS] = parameters
    else:
        damaged.add(PARAMETERS)
    return values, damaged


def _time_or_none(value: object) -> datetime | None:
    try:
        return utc_time(value) if iso(utc_time(value)) == value else None
    except ValueError:
        return None


def registers(db: sqlite3.Connection) -> dict[str, tuple[str, str, object]]:
    """Each register's winner so far: (at, id, value), by key."""
    found: dict[str, tuple[str, str, object]] = {}
    for key, text in db.execute("SELECT key, value FROM sync_meta WHERE key LIKE 'reg:%'"):
        try:
            at, entry_id, value = json.loads(text)
        except (TypeError, ValueError):
            continue  # a damaged register: the next change or merge writes it anew
        found[str(key)[len(_REGISTER) :]] = (str(at), str(entry_id), value)
    return found


def _keep(db: sqlite3.Connection, entry: dict[str, Any]) -> None:
    db.execute(
        "INSERT OR REPLACE INTO sync_meta (key, value) VALUES (?, ?)",
        (_REGISTER + entry["key"], json.dumps([entry["at"], entry["id"], entry["value"]])),
    )


def _changed_at(db: sqlite3.Connection) -> dict[str, datetime]:
    found: dict[str, datetime] = {}
    for key, text in db.execute("SELECT key, value FROM sync_meta WHERE key LIKE 'changed:%'"):
        at = _time_or_none(text)
        if at is not None:  # a damaged time: the change is dated by this sync, as before
            found[str(key)[len(CHANGED) :]] = at
    return found


def changes(db: sqlite3.Connection, device: str, now: datetime) -> list[dict[str, Any]]:
    """A ``set`` entry for every value changed here since it was last sent or merged.

    Each is kept as its register's winner (inside the caller's transaction:
    a sync killed before it commits finds the same changes again, later).
    """
    known = registers(db)
    values, damaged = local_values(db)
    noted = _changed_at(db)
    # A setting only a newer quizzer knows is never changed here: it is kept as merged.
    foreign = {k for k in known if k.startswith(SETTING) and k[len(SETTING) :] not in NAMES}
    keys = (set(values) | set(known)) - damaged - foreign
    found = []
    for key in sorted(keys):
        value = values.get(key, _default(key))
        if key in known:
            if known[key][2] == value:
                continue
        elif value == _default(key) and key not in noted:
            continue  # never changed here: nothing to say (a noted change back is sent)
        changed = min(noted.get(key, now), now)  # never dated after the sync that sends it
        if key == PARAMETERS and isinstance(value, dict):
            changed = utc_time(value["fitted_at"])  # a fit says when it was made
        if key in known:
            changed = max(changed, utc_time(known[key][0]) + _TICK)
        entry = {"kind": "set", "key": key, "value": value, "at": iso(changed), "device": device}
        entry["id"] = set_id(entry)
        _keep(db, entry)
        found.append(entry)
    return found


# -- merging -------------------------------------------------------------------------------


def merge_sets(db: sqlite3.Connection, entries: Iterable[dict[str, Any]]) -> set[str]:
    """Apply each entry newer than its register's winner; returns the cards whose flags changed.

    Entries are taken newest first per key, so only one write per key is made.
    """
    known = registers(db)
    newest: dict[str, dict[str, Any]] = {}
    for entry in entries:
        best = newest.get(entry["key"])
        if best is None or (entry["at"], entry["id"]) > (best["at"], best["id"]):
            newest[entry["key"]] = entry
    cards: set[str] = set()
    for key, entry in sorted(newest.items()):
        if key in known and (entry["at"], entry["id"]) <= known[key][:2]:
            continue
        _apply(db, key, entry["value"])
        _keep(db, entry)
        if not key.startswith((SETTING, PARAMETERS)):
            cards.add(key.split(":", 1)[1])
    return cards


def _apply(db: sqlite3.Connection, key: str, value: Any) -> None:
    if key.startswith(SETTING):
        name = key[len(SETTING) :]
        if value is None:
            db.execute("DELETE FROM settings WHERE key = ?", (name,))
        else:
            db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (name, value),
            )
    elif key.startswith((SUSPENDED, BURIED)):
        column = "suspended" if key.startswith(SUSPENDED) else "buried_until"
        stored = int(value) if column == "suspended" else value
        db.execute(
            f"INSERT INTO card_flags (card_id, {column}) VALUES (?, ?)"
            f" ON CONFLICT(card_id) DO UPDATE SET {column} = excluded.{column}",
            (key.split(":", 1)[1], stored),
        )
    elif value is None:
        db.execute("DELETE FROM fsrs_parameters")
    else:
        from quizzer.progress.parameters import save_parameters

        save_parameters(
            db,
            value["parameters"],
            utc_time(value["fitted_at"]),
            value["reviews"],
            value["tag"],
        )


# -- checking what a file says -------------------------------------------------------------


def check_parameters(value: object, acceptable: Any) -> bool:
    if not isinstance(value, dict) or set(value) != {"parameters", "fitted_at", "reviews", "tag"}:
        return False
    weights = value["parameters"]
    return (
        isinstance(weights, list)
        and all(type(w) is float for w in weights)
        and acceptable(weights)
        and _time_or_none(value["fitted_at"]) is not None
        and type(value["reviews"]) is int
        and value["reviews"] >= 0
        and isinstance(value["tag"], str | None)
    )


def check_set(entry: dict[str, Any]) -> bool:
    """Whether a ``set`` entry names a register and holds a value it can take."""
    from quizzer.progress.parameters import acceptable

    key, value = entry["key"], entry["value"]
    if not isinstance(key, str) or not isinstance(entry["device"], str):
        return False
    if _time_or_none(entry["at"]) is None:
        return False
    if key.startswith(SETTING):
        name = key[len(SETTING) :]
        if name in LOCAL_SETTINGS or not name or not isinstance(value, str | None):
            return False
        if value is not None and name in NAMES:
            try:
                parse_value(name, value)
            except SettingError:
                return False
        return True  # a setting of a newer quizzer is kept; this one ignores it
    if key.startswith(SUSPENDED):
        return len(key) > len(SUSPENDED) and type(value) is bool
    if key.startswith(BURIED):
        return len(key) > len(BURIED) and (value is None or _time_or_none(value) is not None)
    if key == PARAMETERS:
        return value is None or check_parameters(value, acceptable)
    return False


def scheduler_fingerprint(settings: Any, parameters: Sequence[float] | None) -> str:
    """What a replay's schedules depend on besides the reviews: when it changes, all replay."""
    return json.dumps(
        [
            settings.desired_retention,
            [s.total_seconds() for s in settings.learning_steps],
            [s.total_seconds() for s in settings.relearning_steps],
            list(parameters) if parameters is not None else None,
        ]
    )
