"""Choosing what to study by a card's state: due now, weakest recall, never seen.

Feeds ``quiz --due | --weak [N] | --new``, the state column of ``list`` and
the status printed by a bare ``quizzer``. Listing must stay fast, so reading
states needs neither the FSRS package nor anything heavy: the due time is
read straight from the stored FSRS state. Only :func:`weakest` asks FSRS for
each card's probability of recall. Time always comes in as ``now``.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from quizzer.progress.stored import stored_time

if TYPE_CHECKING:
    from fsrs import Scheduler
    from fsrs.card import CardDict

    from quizzer.progress.flags import CardFlags

#: How many cards ``--weak`` picks when no number follows it.
DEFAULT_WEAK = 10
#: ``--weak`` compares recall this far ahead (see :func:`weakest`).
WEAK_HORIZON = timedelta(days=1)


class Pick(enum.Enum):
    """Which cards a session is about."""

    DUE = "due"
    WEAK = "weak"
    NEW = "new"


@dataclass(frozen=True)
class CardState:
    """Where one card stands: when it is next due (None: never reviewed) and reviews so far."""

    due: datetime | None
    seen: int

    @property
    def new(self) -> bool:
        return self.due is None

    def is_due(self, now: datetime) -> bool:
        return self.due is not None and self.due <= now

    def label(self, now: datetime) -> str:
        """``new``, ``due``, or the UTC date the card is next due (``2026-12-03``)."""
        if self.due is None:
            return "new"
        if self.due <= now:
            return "due"
        if self.due.date() == now.date():
            return self.due.strftime("%H:%M")  # later today: the date would say nothing
        return self.due.date().isoformat()

    def to_dict(self) -> dict[str, Any]:
        """``due`` (ISO 8601, null for a new card) and ``seen``, as ``list --json`` prints them."""
        return {"due": self.due.isoformat() if self.due else None, "seen": self.seen}


NEW_CARD = CardState(None, 0)
_LONG_AGO = datetime.min.replace(tzinfo=timezone.utc)


def states_from(
    fsrs_states: Mapping[str, Mapping[str, Any]], review_counts: Mapping[str, int]
) -> dict[str, CardState]:
    """Each scheduled card's state, from stored FSRS states and review counts.

    Follow-up items (``card#follow-1``) are scheduled too, but are not cards.
    A damaged state never gets here: the store reports it and leaves it out,
    so the card counts as new and its next review writes a sound state.
    """
    states = {}
    for card_id, state in fsrs_states.items():
        if "#" in card_id:
            continue
        # The store leaves damaged states out (the card is new); a caller passing raw
        # states gets an unreadable due time as due now: seen, and due to be repaired.
        due = stored_time(state.get("due")) or _LONG_AGO
        states[card_id] = CardState(due, review_counts.get(card_id, 0))
    return states


def choose(
    card_ids: Sequence[str],
    states: Mapping[str, CardState],
    now: datetime,
    pick: Pick,
    *,
    weak: int = DEFAULT_WEAK,
    fsrs_states: Mapping[str, CardDict] | None = None,
    scheduler: Scheduler | None = None,
) -> list[str]:
    """The cards among ``card_ids`` that ``pick`` asks for, in the order to study them.

    Due cards come most overdue first; new cards keep the order given; weak
    cards come lowest probability of recall first (``weak`` of them), which
    needs ``fsrs_states`` and the learner's ``scheduler`` (None: FSRS's defaults).
    """
    if pick is Pick.NEW:
        return [c for c in card_ids if states.get(c, NEW_CARD).new]
    if pick is Pick.DUE:
        due = [c for c in card_ids if states.get(c, NEW_CARD).is_due(now)]
        return sorted(due, key=lambda c: states[c].due or now)
    chosen = [c for c in card_ids if c in states]
    return weakest(chosen, fsrs_states or {}, now, weak, scheduler=scheduler)


def weakest(
    card_ids: Sequence[str],
    fsrs_states: Mapping[str, CardDict],
    now: datetime,
    count: int,
    *,
    scheduler: Scheduler | None = None,
) -> list[str]:
    """The ``count`` seen cards least likely to be recalled a day from now, per FSRS.

    Recall *now* is about 100% for every card just reviewed, so it cannot tell a
    card just failed from one just passed; a day ahead (the shortest review
    interval) the failed card's low stability shows. Ties: lower stability first.
    Recall is the learner's ``scheduler``'s (fitted parameters change the forgetting
    curve); None: FSRS's defaults.
    """
    from quizzer.progress.schedule import make_scheduler, retrievability

    if scheduler is None:
        scheduler = make_scheduler(fuzz=False)
    horizon = now + WEAK_HORIZON
    recall = {
        c: (
            retrievability(scheduler, c, fsrs_states[c], horizon),
            float(fsrs_states[c].get("stability") or 0.0),
        )
        for c in card_ids
        if c in fsrs_states
    }
    # sorted() is stable: cards equally weak keep the order given.
    return sorted(recall, key=recall.__getitem__)[:count]


@dataclass(frozen=True)
class Status:
    """What a bare ``quizzer`` says: cards due now, new cards, study streak, next due.

    ``due``, ``new`` and ``next_due`` leave out the cards set aside; ``new_today``
    is how many of the new ones today's ``new_per_day`` still allows;
    ``suspended`` and ``buried`` say how many cards are set aside.
    """

    cards: int
    due: int
    new: int
    streak: int
    next_due: datetime | None
    suspended: int = 0
    buried: int = 0
    new_today: int | None = None


def status(
    card_ids: Sequence[str],
    states: Mapping[str, CardState],
    study_days: set[date],
    now: datetime,
    *,
    flags: Mapping[str, CardFlags] | None = None,
    new_today: int | None = None,
) -> Status:
    """The learner's standing over ``card_ids`` at ``now``.

    Args:
        card_ids: Every known card.
        states: Each studied card's state.
        study_days: The days anything was answered.
        now: The current time (UTC).
        flags: Suspended and buried cards (none: nothing set aside).
        new_today: How many new cards today still allows (None: every unseen card).
    """
    from quizzer.progress.flags import NOT_FLAGGED

    flags = flags or {}
    kept = [c for c in card_ids if not flags.get(c, NOT_FLAGGED).set_aside(now)]
    known = [states[c] for c in kept if c in states]
    later = [s.due for s in known if s.due is not None and s.due > now]
    unseen = len(kept) - len(known)
    marks = [flags[c] for c in card_ids if c in flags]
    suspended = sum(1 for mark in marks if mark.suspended)
    buried = sum(1 for mark in marks if not mark.suspended and mark.buried(now))
    return Status(
        cards=len(card_ids),
        due=sum(1 for s in known if s.is_due(now)),
        new=unseen,
        streak=streak(study_days, now.date()),
        next_due=min(later) if later else None,
        suspended=suspended,
        buried=buried,
        new_today=unseen if new_today is None else min(unseen, max(0, new_today)),
    )


def streak(days: set[date], today: date) -> int:
    """Consecutive study days ending today (or yesterday, if today is not over yet)."""
    current = today if today in days else today - timedelta(days=1)
    count = 0
    while current in days:
        count += 1
        current -= timedelta(days=1)
    return count
