"""When this device changed a setting or a card's flags, for sync to date the change.

Settings and flags keep only their current value. Sync sends a changed value as a
``set`` entry, and the newest change wins on every device, so each local change
notes its time here (``changed:KEY`` in ``sync_meta``, in the writer's own
transaction): a change is dated when it was made, not when the next sync saw it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import datetime

from quizzer.progress.stored import iso

CHANGED = "changed:"
#: The register keys, as sync names them.
SETTING, SUSPENDED, BURIED = "setting:", "suspended:", "buried:"


def note_change(db: sqlite3.Connection, keys: Iterable[str], at: datetime) -> None:
    """Record that these registers changed here at ``at``."""
    db.executemany(
        "INSERT OR REPLACE INTO sync_meta (key, value) VALUES (?, ?)",
        [(CHANGED + key, iso(at)) for key in keys],
    )
