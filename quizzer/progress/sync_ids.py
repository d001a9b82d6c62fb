"""Content ids of sync entries: a hash of what an entry says, the same on every device.

Two devices that recorded the same thing (a backup imported on both) give
it the same id, so it is merged once; a changed rating is new content with
a new id (its old id is retracted).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

#: ``undone`` (an attempt of a review taken back with ``/undo``) and ``set`` (a changed
#: setting, flag or fitted parameters, :mod:`.sync_registers`) came with format 2.
KINDS = ("session", "attempt", "review", "override", "retract", "undone", "set")


# -- content ids ---------------------------------------------------------------------------


def content_id(kind: str, *parts: object) -> str:
    """The id of an entry: a hash of its kind and what it says (the same on every device)."""
    text = json.dumps([kind, *parts], ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _copy(e: dict[str, Any]) -> list[int]:
    """``copy`` (format 2): the how-manieth row that says all the same on its device.

    Answers piped in, or a stopped clock, can record two answers alike to the
    millisecond; they are two answers, not one recorded twice. The first of
    them (``copy`` absent) keeps the id format 1 gave it.
    """
    return [e["copy"]] if e.get("copy") else []


def attempt_id(e: dict[str, Any]) -> str:
    # correct and overridden change with /override, so they are no part of the id;
    # nor is revealed (format 2): an attempt sent by format 1 keeps its id.
    return content_id(
        "attempt",
        e["card"],
        e["blank"],
        e["given"],
        e["try"],
        e["hints"],
        e["ms"],
        e["at"],
        *_copy(e),
    )


def review_id(e: dict[str, Any]) -> str:
    return content_id("review", e["card"], e["rating"], e["at"], e["review_log"], *_copy(e))


def session_id(e: dict[str, Any]) -> str:
    return content_id("session", e["device"], e["number"], e["mode"], e["started_at"])


def override_id(attempt: str) -> str:
    return content_id("override", attempt)


def retract_id(target: str) -> str:
    return content_id("retract", target)


def undone_id(attempt: str) -> str:
    return content_id("undone", attempt)


def set_id(e: dict[str, Any]) -> str:
    """A changed value's id: which value, what it became, when, on which device."""
    return content_id("set", e["key"], e["value"], e["at"], e["device"])


def expected_id(entry: dict[str, Any]) -> str:
    kind = entry["kind"]
    if kind == "attempt":
        return attempt_id(entry)
    if kind == "review":
        return review_id(entry)
    if kind == "session":
        return session_id(entry)
    if kind == "override":
        return override_id(entry["attempt"])
    if kind == "undone":
        return undone_id(entry["attempt"])
    if kind == "set":
        return set_id(entry)
    return retract_id(entry["target"])
