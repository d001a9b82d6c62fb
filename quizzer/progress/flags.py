"""Cards set aside: suspended until the learner says otherwise, buried until tomorrow.

Also the undo of a card's last review (``/undo``): the review is deleted, the
card's schedule goes back to what it was, and the card's attempts stay,
marked ``undone``. Time always comes in as an argument (UTC).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta, timezone
from typing import TYPE_CHECKING, Any

from quizzer.progress.changes import BURIED, SUSPENDED, note_change

if TYPE_CHECKING:
    from quizzer.progress.store import Store


@dataclass(frozen=True)
class CardFlags:
    """Whether a card is suspended, and until when it is buried (None: not buried)."""

    suspended: bool = False
    buried_until: datetime | None = None

    def buried(self, now: datetime) -> bool:
        return self.buried_until is not None and self.buried_until > now

    def set_aside(self, now: datetime) -> bool:
        """Whether the card is left out of what quiz, review and drill choose."""
        return self.suspended or self.buried(now)

    def to_dict(self) -> dict[str, Any]:
        """``suspended`` and ``buried_until`` (ISO 8601 or null), as ``list --json`` prints them."""
        until = self.buried_until.isoformat() if self.buried_until else None
        return {"suspended": self.suspended, "buried_until": until}


NOT_FLAGGED = CardFlags()


def tomorrow(now: datetime) -> datetime:
    """The start of the next UTC day: a buried card comes back then."""
    day = now.astimezone(timezone.utc).date() + timedelta(days=1)
    return datetime.combine(day, time(0), tzinfo=timezone.utc)


def card_flags(store: Store) -> dict[str, CardFlags]:
    """Every flagged card's flags, by card id (cards never flagged are absent)."""
    rows = store.connection.execute("SELECT card_id, suspended, buried_until FROM card_flags")
    flags = {}
    for card_id, suspended, until in rows:
        buried = datetime.fromisoformat(str(until)) if until else None
        flags[str(card_id)] = CardFlags(bool(suspended), buried)
    return flags


def set_suspended(
    store: Store, card_ids: Iterable[str], suspended: bool, *, now: datetime | None = None
) -> None:
    """Suspend (or unsuspend) cards, in one transaction; ``now`` dates the change for sync."""
    ids = list(card_ids)
    with store.writing() as db:
        db.executemany(
            "INSERT INTO card_flags (card_id, suspended) VALUES (?, ?)"
            " ON CONFLICT(card_id) DO UPDATE SET suspended = excluded.suspended",
            [(card_id, int(suspended)) for card_id in ids],
        )
        if now is not None:
            note_change(db, [SUSPENDED + card_id for card_id in ids], now)


def bury(store: Store, card_id: str, now: datetime) -> datetime:
    """Bury a card until tomorrow; returns when it comes back."""
    from quizzer.progress.store import iso

    until = tomorrow(now)
    with store.writing() as db:
        db.execute(
            "INSERT INTO card_flags (card_id, buried_until) VALUES (?, ?)"
            " ON CONFLICT(card_id) DO UPDATE SET buried_until = excluded.buried_until",
            (card_id, iso(until)),
        )
        note_change(db, [BURIED + card_id], now)
    return until


def without_set_aside(
    card_ids: Sequence[str], flags: Mapping[str, CardFlags], now: datetime
) -> list[str]:
    """``card_ids`` without the suspended cards and those buried until after ``now``.

    quiz, review and drill call this on every card they would choose, except
    on cards the learner named.
    """
    return [c for c in card_ids if not flags.get(c, NOT_FLAGGED).set_aside(now)]


def undo_review(
    store: Store,
    session_id: int | None,
    card_id: str,
    before: Mapping[str, Any] | None,
    since: datetime,
) -> None:
    """Take back a card's last review in a session, in one transaction.

    Args:
        store: The progress store.
        session_id: The session the review belongs to.
        card_id: The review item.
        before: Its FSRS state before that review (None: it was new).
        since: When the card began; its attempts from then on are marked ``undone``.
    """
    from quizzer.progress.store import iso

    with store.writing() as db:
        db.execute(
            "DELETE FROM reviews WHERE id = (SELECT max(id) FROM reviews"
            " WHERE session_id IS ? AND card_id = ?)",
            (session_id, card_id),
        )
        if before is None:
            db.execute("DELETE FROM schedule WHERE card_id = ?", (card_id,))
        else:
            db.execute(
                "UPDATE schedule SET fsrs_card = ? WHERE card_id = ?",
                (json.dumps(dict(before)), card_id),
            )
        db.execute(
            "UPDATE attempts SET undone = 1 WHERE session_id IS ? AND card_id = ? AND at >= ?",
            (session_id, card_id, iso(since)),
        )
