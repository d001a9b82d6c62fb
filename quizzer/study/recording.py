"""Recording a study session: attempts as judged, a review per card, the rating earned."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from fsrs import Rating, Scheduler

from quizzer.cards.model import Card
from quizzer.progress import schedule
from quizzer.progress.store import Attempt, Review, Store
from quizzer.study.quiz import CardResult

EXPORT_FORMAT = "quizzer-progress"
EXPORT_VERSION = 1


#: A card whose blanks were all right first time within this many ms per blank is Easy.
EASY_MS_PER_BLANK = 10_000


# -- saving a session -----------------------------------------------------------------


@dataclass(frozen=True)
class AnswerChange:
    """A blank whose answer changed in substance since the card was last reviewed."""

    blank: str
    before: str
    now: str


class SessionProgress:
    """What a quiz or review session saves: attempts as judged, a review per card."""

    def __init__(self, store: Store, scheduler: Scheduler, mode: str, now: datetime) -> None:
        self.store = store
        self.scheduler = scheduler
        self.session_id = store.start_session(mode, now)
        self._states = store.fsrs_cards()

    def record_attempt(self, attempt: Attempt) -> None:
        self.store.record_attempt(self.session_id, attempt)

    def preview(self, card_id: str, rating: Rating, now: datetime) -> datetime:
        """When the card would next be due with this rating (nothing is saved)."""
        card, _ = schedule.review(self.scheduler, card_id, self._states.get(card_id), rating, now)
        return card.due

    def save_review(self, result: CardResult, rating: Rating, now: datetime) -> datetime:
        """Schedule the card with ``rating``; returns its next due time."""
        return self.save_rating(result.card_id, rating, now, result.ms)

    def save_rating(
        self, item_id: str, rating: Rating, now: datetime, duration_ms: int | None = None
    ) -> datetime:
        """Schedule any review item (a card, or a follow-up like ``attention#follow-1``)."""
        card, log = schedule.review(
            self.scheduler, item_id, self._states.get(item_id), rating, now, duration_ms
        )
        state = dict(card.to_dict())
        self.store.save_review(
            Review(item_id, int(rating), dict(log.to_dict()), now, self.session_id), state
        )
        self._states[item_id] = state
        return card.due

    def states(self) -> dict[str, dict[str, Any]]:
        """Every review item's FSRS state, as stored."""
        return dict(self._states)

    def answer_changes(
        self, card: Card, fingerprints: Mapping[str, tuple[str, str]]
    ) -> list[AnswerChange]:
        """Blanks whose answer changed since the last review, then remember the new ones.

        ``fingerprints`` maps each blank to (fingerprint of its answer, answer text);
        the judge makes them so that a mere respelling is not a change.
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
        self.store.end_session(self.session_id, now)


def new_cards_seen_on(store: Store, day: date) -> int:
    """Cards whose first review was on ``day`` (UTC): they count against --new."""
    first: dict[str, datetime] = {}
    for item in store.reviews():
        first.setdefault(item.card_id, item.at)
    return sum(1 for moment in first.values() if moment.date() == day)


def rating_for(result: CardResult) -> Rating | None:
    """The rating a card earned, so the learner never has to rate it.

    Any blank revealed or failed: Again. Right only after a retry or a hint:
    Hard. All right first time: Good, or Easy when also fast. A card skipped
    before any blank was tried earns nothing (None).
    """
    if result.skipped and not result.touched:
        return None
    if any(b.revealed or not b.correct for b in result.blanks):
        return Rating.Again
    if any(b.tries > 1 or b.hints for b in result.blanks):
        return Rating.Hard
    if result.ms <= EASY_MS_PER_BLANK * len(result.blanks):
        return Rating.Easy
    return Rating.Good
