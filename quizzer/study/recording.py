"""Recording a study session: attempts as judged, a review per card, the rating earned."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime

from fsrs import Rating, Scheduler
from fsrs.card import CardDict

from quizzer.cards.model import Card
from quizzer.progress import flags, schedule
from quizzer.progress.store import Attempt, Review, Store
from quizzer.study.items import FollowUpId, Grade
from quizzer.study.results import AnswerChange, CardResult

#: A card whose blanks were all right first time within this many ms per blank is Easy.
EASY_MS_PER_BLANK = 10_000


# -- saving a session -----------------------------------------------------------------


class SessionProgress:
    """What a quiz, review or drill saves: attempts as judged, a review per item.

    Each review is scheduled once (one FSRS call, one fuzz draw) and the due
    time it returns is the one shown and the one stored. A grade changed
    afterwards (:meth:`replace_rating`) replaces that review, scheduled again
    from the state before it.
    """

    def __init__(self, store: Store, scheduler: Scheduler, mode: str, now: datetime) -> None:
        self.store = store
        self.scheduler = scheduler
        self.session_id = store.start_session(mode, now)
        self._states = store.fsrs_cards()
        self._before: dict[str, CardDict | None] = {}

    def record_attempt(self, attempt: Attempt) -> None:
        """Save one judged answer at once, so nothing answered is ever lost.

        Args:
            attempt: The answer as judged.
        """
        self.store.record_attempt(self.session_id, attempt)

    def record_override(self, card_id: str, blank: str, try_number: int) -> None:
        """Store that a rejected attempt was counted right by the learner.

        Args:
            card_id: The card.
            blank: The blank answered.
            try_number: Which try of that blank (1-based).
        """
        self.store.override_attempt(self.session_id, card_id, blank, try_number)

    def save_review(self, result: CardResult, grade: Grade, now: datetime) -> datetime:
        """Schedule a finished card with ``grade`` and save the review.

        Args:
            result: How the card went (its time is the review's duration).
            grade: The grade it earned.
            now: The time of the review (UTC).

        Returns:
            When the card is next due.
        """
        return self.save_rating(result.card_id, grade, now, result.ms)

    def save_rating(
        self,
        item: str | FollowUpId,
        grade: Grade,
        now: datetime,
        duration_ms: int | None = None,
    ) -> datetime:
        """Schedule any review item (a card, or a card's follow-up) and save it.

        Args:
            item: The review item.
            grade: The grade given.
            now: The time of the review (UTC).
            duration_ms: How long the answer took, if measured.

        Returns:
            When the item is next due, as stored.
        """
        key = str(item)
        self._before[key] = self._states.get(key)
        return self._schedule(key, grade, now, duration_ms, replace=False)

    def replace_rating(
        self, item: str | FollowUpId, grade: Grade, now: datetime, duration_ms: int | None = None
    ) -> datetime:
        """Change the grade of the item's last review in this session.

        The item is scheduled again from its state before that review; an item not
        reviewed in this session is simply reviewed.

        Args:
            item: The review item.
            grade: The new grade.
            now: The time of the change (UTC).
            duration_ms: As for :meth:`save_rating`.

        Returns:
            When the item is next due under the new grade.
        """
        key = str(item)
        if key not in self._before:
            return self.save_rating(key, grade, now, duration_ms)
        return self._schedule(key, grade, now, duration_ms, replace=True)

    def _schedule(
        self, key: str, grade: Grade, now: datetime, duration_ms: int | None, *, replace: bool
    ) -> datetime:
        card, log = schedule.review(
            self.scheduler, key, self._before[key], Rating(int(grade)), now, duration_ms
        )
        state = card.to_dict()
        review = Review(key, int(grade), dict(log.to_dict()), now, self.session_id)
        if replace:
            self.store.replace_review(review, state)
        else:
            self.store.save_review(review, state)
        self._states[key] = state
        return card.due

    def in_learning(self, item: str) -> bool:
        """Whether the item's saved state is in its learning or relearning steps.

        Args:
            item: The review item.

        Returns:
            True when FSRS keeps it within the day (it comes back in this session).
        """
        state = self._states.get(item)
        return state is not None and schedule.in_learning(state)

    def suspend(self, card_id: str, now: datetime) -> None:
        """Suspend a card (``/suspend``): no session chooses it until unsuspended.

        Args:
            card_id: The card.
            now: The current time (UTC), which dates the change for sync.
        """
        flags.set_suspended(self.store, [card_id], True, now=now)

    def bury(self, card_id: str, now: datetime) -> datetime:
        """Bury a card until tomorrow (``/bury``).

        Args:
            card_id: The card.
            now: The current time (UTC).

        Returns:
            When it may be chosen again.
        """
        return flags.bury(self.store, card_id, now)

    def undo_review(self, card_id: str, since: datetime) -> None:
        """Take back the card's last review in this session (``/undo``).

        The schedule goes back to what it was before; the attempts stay, marked.

        Args:
            card_id: The card.
            since: When the card began in the session.
        """
        if card_id not in self._before:
            return
        before = self._before.pop(card_id)
        flags.undo_review(self.store, self.session_id, card_id, before, since)
        if before is None:
            self._states.pop(card_id, None)
        else:
            self._states[card_id] = before

    def states(self) -> dict[str, CardDict]:
        """Every review item's FSRS state, as stored.

        Returns:
            A copy, by item id (``attention``, ``attention#follow-1``).
        """
        return dict(self._states)

    def answer_changes(
        self, card: Card, fingerprints: Mapping[str, tuple[str, str]]
    ) -> list[AnswerChange]:
        """Blanks whose answer changed since the last review, then remember the new ones.

        Args:
            card: The card just finished.
            fingerprints: Each blank's (fingerprint of its answer, answer text); the
                judge makes them so that a mere respelling is not a change.

        Returns:
            The changed blanks, with the answer before and now.
        """
        known = self.store.fingerprints(card.id)
        changes = [
            AnswerChange(blank, known[blank][1], text)
            for blank, (fingerprint, text) in fingerprints.items()
            if blank in known and known[blank][0] != fingerprint
        ]
        if changes or set(fingerprints) - set(known):
            self.store.save_fingerprints(card.id, dict(fingerprints))
        return changes

    def end(self, now: datetime) -> None:
        """Close the session's record.

        Args:
            now: When the session ended (UTC).
        """
        self.store.end_session(self.session_id, now)


def new_cards_seen_on(store: Store, day: date) -> int:
    """How many cards were reviewed for the first time on ``day``.

    Args:
        store: The progress store.
        day: The calendar day (UTC).

    Returns:
        The count that ``review``'s per-day limit of new cards is held against.
    """
    # Counted in SQLite: reading every review took 6.7 s before a heavy learner's first card.
    return store.first_reviews_on(day.isoformat())


def rating_for(result: CardResult) -> Grade | None:
    """The rating a card earned, so the learner never has to rate it.

    Any blank revealed or failed: Again. Right only after a retry or a hint:
    Hard. All right first time: Good, or Easy when also fast.

    Args:
        result: How the card went.

    Returns:
        The grade, or None for a card skipped before any blank was tried.
    """
    if result.skipped and not result.touched:
        return None
    if any(b.revealed or not b.correct for b in result.blanks):
        return Grade.AGAIN
    if any(b.tries > 1 or b.hints for b in result.blanks):
        return Grade.HARD
    # An answer the learner counted right over the judge is a first-try right answer
    # (Good); it is not also "fast", so never Easy.
    if result.overridden:
        return Grade.GOOD
    if result.ms <= EASY_MS_PER_BLANK * len(result.blanks):
        return Grade.EASY
    return Grade.GOOD
