"""The FSRS parameters fitted to this learner (``quizzer optimize``), kept in the progress db.

One row of the ``fsrs_parameters`` table: the 21 FSRS-6 weights as JSON, when they
were fitted and on how many reviews. No row, or a row that no longer reads as
parameters py-fsrs accepts, means FSRS's defaults: a damaged row never stops a review.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from quizzer.progress.stored import iso, stored_time

if TYPE_CHECKING:
    from quizzer.progress.store import Store

#: FSRS-6 has 21 weights; py-fsrs's Scheduler and fsrs-rs both use this order.
PARAMETER_COUNT = 21


@dataclass(frozen=True)
class SavedParameters:
    """What ``optimize`` last saved."""

    parameters: tuple[float, ...]
    fitted_at: datetime
    reviews: int
    tag: str | None

    def to_dict(self) -> dict[str, object]:
        return {
            "parameters": list(self.parameters),
            "fitted_at": self.fitted_at.isoformat(),
            "reviews": self.reviews,
            "tag": self.tag,
        }


def acceptable(parameters: Sequence[float]) -> bool:
    """Whether py-fsrs's scheduler takes these weights (count, finite, its bounds)."""
    from fsrs.scheduler import LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

    return len(parameters) == PARAMETER_COUNT and all(
        isinstance(w, float) and math.isfinite(w) and low <= w <= high
        for w, low, high in zip(
            parameters, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=True
        )
    )


def parameters_from(value: object) -> SavedParameters:
    """The parameters a backup carries (:meth:`SavedParameters.to_dict`), checked.

    Raises:
        ValueError: the entry is not parameters py-fsrs would take, with when and on what.
    """
    if not isinstance(value, dict) or set(value) != {"parameters", "fitted_at", "reviews", "tag"}:
        raise ValueError("fsrs_parameters has the fields fitted_at, parameters, reviews, tag")
    weights = value["parameters"]
    if not isinstance(weights, list) or not all(
        isinstance(w, int | float) and not isinstance(w, bool) for w in weights
    ):
        raise ValueError("fsrs_parameters: parameters must be a list of numbers")
    if not acceptable(tuple(float(w) for w in weights)):
        raise ValueError(
            f"fsrs_parameters: {PARAMETER_COUNT} weights within FSRS's bounds are needed"
        )
    at = stored_time(value["fitted_at"])
    reviews, tag = value["reviews"], value["tag"]
    if at is None:
        raise ValueError("fsrs_parameters: fitted_at must be an ISO 8601 time with its zone")
    if isinstance(reviews, bool) or not isinstance(reviews, int) or reviews < 0:
        raise ValueError("fsrs_parameters: reviews must be a whole number")
    if tag is not None and not isinstance(tag, str):
        raise ValueError("fsrs_parameters: tag must be text or null")
    return SavedParameters(tuple(float(w) for w in weights), at, reviews, tag)


def restore_parameters(db: sqlite3.Connection, restored: SavedParameters) -> bool:
    """Save a backup's parameters inside the caller's transaction, if fitted later.

    The parameters fitted last win, whichever side they come from, so importing a
    backup again, or an older one, changes nothing. Returns whether they were saved.
    """
    rows = db.execute("SELECT fitted_at FROM fsrs_parameters WHERE id = 1").fetchall()
    current = stored_time(rows[0][0]) if rows else None
    if current is not None and current >= restored.fitted_at:
        return False
    save_parameters(db, restored.parameters, restored.fitted_at, restored.reviews, restored.tag)
    return True


def saved_parameters(store: Store | None) -> SavedParameters | None:
    """The fitted parameters saved in ``store`` (None: none saved, or unreadable)."""
    if store is None:
        return None
    try:
        rows = store.connection.execute(
            "SELECT parameters, fitted_at, reviews, tag FROM fsrs_parameters WHERE id = 1"
        ).fetchall()
    except sqlite3.Error:  # a read-only copy of an older file has no such table
        return None
    if not rows:
        return None
    text, fitted_at, reviews, tag = rows[0]
    try:
        values = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None
    if not isinstance(values, list):
        return None
    weights = tuple(float(w) if isinstance(w, int | float) else math.nan for w in values)
    at = stored_time(fitted_at)
    if not acceptable(weights) or at is None or not isinstance(reviews, int):
        return None
    return SavedParameters(weights, at, reviews, tag if isinstance(tag, str) else None)


def save_parameters(
    db: sqlite3.Connection,
    parameters: Sequence[float],
    fitted_at: datetime,
    reviews: int,
    tag: str | None,
) -> None:
    """Write the fitted parameters inside the caller's transaction (the rescheduling one)."""
    db.execute(
        "INSERT INTO fsrs_parameters (id, parameters, fitted_at, reviews, tag)"
        " VALUES (1, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET parameters = excluded.parameters,"
        " fitted_at = excluded.fitted_at, reviews = excluded.reviews, tag = excluded.tag",
        (json.dumps([float(w) for w in parameters]), iso(fitted_at), reviews, tag),
    )


def desired_retention(store: Store | None) -> float:
    """The retention the learner asked for (``quizzer config desired_retention``)."""
    from quizzer.progress.settings import read_settings

    return float(read_settings(store).desired_retention)
