"""Progress across sessions: saving reviews, the stats report, backups.

Everything here works on a :class:`~quizzer.store.Store` and takes the time
as an argument; nothing prints.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from fsrs import Rating, Scheduler

from quizzer import schedule
from quizzer.cards import Card
from quizzer.errors import QuizzerError
from quizzer.session import CardResult
from quizzer.store import Attempt, Review, Store, iso

EXPORT_FORMAT = "quizzer-progress"
EXPORT_VERSION = 1


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


# -- the stats report ---------------------------------------------------------------------


@dataclass(frozen=True)
class TagAccuracy:
    tag: str
    attempts: int
    correct: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.attempts if self.attempts else 0.0


@dataclass(frozen=True)
class Topic:
    """A tag with its number of cards and the learner's answers on them."""

    tag: str
    cards: int
    attempts: int
    correct: int

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.attempts if self.attempts else None


def topics(tags_by_card: Mapping[str, Sequence[str]], attempts: Sequence[Attempt]) -> list[Topic]:
    """Every tag of the deck, with card counts and accuracy, alphabetically."""
    cards = Counter(tag for tags in tags_by_card.values() for tag in tags)
    answered: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for attempt in attempts:
        for tag in tags_by_card.get(attempt.card_id, ()):
            answered[tag] += 1
            right[tag] += attempt.correct
    return [Topic(tag, cards[tag], answered[tag], right[tag]) for tag in sorted(cards)]


@dataclass(frozen=True)
class WeakCard:
    card_id: str
    lapses: int
    retrievability: float | None


@dataclass
class Report:
    """Every figure of ``quizzer stats``."""

    attempts: int
    correct: int
    cards_seen: int
    sessions: int
    reviews: int
    streak_days: int
    study_days: int
    due_now: int
    forecast: list[int]
    tags: list[TagAccuracy] = field(default_factory=list)
    weakest: list[WeakCard] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return self.correct / self.attempts if self.attempts else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "attempts": self.attempts,
            "correct": self.correct,
            "accuracy": self.accuracy,
            "cards_seen": self.cards_seen,
            "sessions": self.sessions,
            "reviews": self.reviews,
            "streak_days": self.streak_days,
            "study_days": self.study_days,
            "due_now": self.due_now,
            "forecast": self.forecast,
            "tags": [
                {"tag": t.tag, "attempts": t.attempts, "correct": t.correct, "accuracy": t.accuracy}
                for t in self.tags
            ],
            "weakest": [
                {"card": w.card_id, "lapses": w.lapses, "retrievability": w.retrievability}
                for w in self.weakest
            ],
        }


def streak(days: set[date], today: date) -> int:
    """Consecutive study days ending today (or yesterday, if today is not over yet)."""
    current = today if today in days else today - timedelta(days=1)
    count = 0
    while current in days:
        count += 1
        current -= timedelta(days=1)
    return count


def lapses(reviews: Sequence[Review]) -> int:
    """Times a card was forgotten after it had first been reviewed."""
    return sum(1 for item in reviews[1:] if item.rating == int(Rating.Again))


def report(
    store: Store,
    tags_by_card: Mapping[str, Sequence[str]],
    scheduler: Scheduler,
    now: datetime,
    *,
    weakest: int = 5,
) -> Report:
    """The progress report: totals, streak, per-tag accuracy, forecast, weakest cards."""
    totals = store.totals()
    attempts = store.attempts()
    by_tag: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for attempt in attempts:
        for tag in tags_by_card.get(attempt.card_id, ()):
            by_tag[tag][0] += 1
            by_tag[tag][1] += attempt.correct
    days = {a.at.date() for a in attempts}
    # Follow-up questions (``card#follow-1``) are review items too, but the report is about cards.
    states = {k: v for k, v in store.fsrs_cards().items() if "#" not in k}
    reviews_by_card: dict[str, list[Review]] = defaultdict(list)
    all_reviews = store.reviews()
    for item in all_reviews:
        reviews_by_card[item.card_id].append(item)
    all_reviews = [r for r in all_reviews if "#" not in r.card_id]
    weak = [
        WeakCard(
            card_id,
            lapses(reviews_by_card[card_id]),
            schedule.retrievability(scheduler, card_id, state, now),
        )
        for card_id, state in states.items()
    ]
    weak.sort(key=lambda w: (-w.lapses, w.retrievability if w.retrievability is not None else 1))
    return Report(
        attempts=totals.attempts,
        correct=totals.correct,
        cards_seen=totals.cards_seen,
        sessions=totals.sessions,
        reviews=len(all_reviews),
        streak_days=streak(days, now.date()),
        study_days=len(days),
        due_now=sum(1 for s in states.values() if schedule.due_at(s) <= now),
        forecast=schedule.forecast(states.values(), now),
        tags=sorted(
            (TagAccuracy(tag, n, right) for tag, (n, right) in by_tag.items()),
            key=lambda t: (t.accuracy, -t.attempts),
        ),
        weakest=weak[:weakest],
    )


@dataclass(frozen=True)
class CardHistory:
    card_id: str
    attempts: list[Attempt]
    reviews: list[Review]
    due: datetime | None
    retrievability: float | None
    lapses: int


def card_history(store: Store, card_id: str, scheduler: Scheduler, now: datetime) -> CardHistory:
    state = store.fsrs_cards().get(card_id)
    reviews = store.reviews(card_id)
    return CardHistory(
        card_id=card_id,
        attempts=store.attempts(card_id),
        reviews=reviews,
        due=schedule.due_at(state) if state else None,
        retrievability=schedule.retrievability(scheduler, card_id, state, now) if state else None,
        lapses=lapses(reviews),
    )


# -- backups --------------------------------------------------------------------------------


def export_progress(store: Store) -> dict[str, Any]:
    """All progress as versioned JSON data."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "attempts": [
            {
                "card": a.card_id,
                "blank": a.blank,
                "given": a.given,
                "correct": a.correct,
                "try": a.try_number,
                "hints": a.hints,
                "ms": a.ms,
                "at": iso(a.at),
            }
            for a in store.attempts()
        ],
        "reviews": [
            {"card": r.card_id, "rating": r.rating, "review_log": r.review_log, "at": iso(r.at)}
            for r in store.reviews()
        ],
        "schedule": store.fsrs_cards(),
    }


class BadBackup(QuizzerError):
    """A progress file that quizzer cannot import."""


def read_backup(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadBackup(f"no such file: {path}") from None
    except IsADirectoryError:
        raise BadBackup(f"{path} is a folder, not a progress file") from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise BadBackup(f"{path} is not a quizzer progress file ({error})") from None
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise BadBackup(f"{path} is not a quizzer progress file")
    if data.get("version") != EXPORT_VERSION:
        raise BadBackup(
            f"{path} has progress format version {data.get('version')!r};"
            f" this quizzer reads version {EXPORT_VERSION}"
        )
    return data


def import_progress(store: Store, data: Mapping[str, Any], now: datetime) -> int:
    """Merge exported progress into ``store``. Returns the attempts added.

    Attempts and reviews already present are not added twice, so importing the
    same file again changes nothing. A card's schedule is taken from the file
    only when the file's last review of it is more recent.
    """
    try:
        attempts = [
            Attempt(
                str(a["card"]),
                str(a["blank"]),
                str(a["given"]),
                bool(a["correct"]),
                int(a["try"]),
                int(a["hints"]),
                int(a["ms"]),
                datetime.fromisoformat(a["at"]),
            )
            for a in data.get("attempts", [])
        ]
        reviews = [
            Review(
                str(r["card"]),
                int(r["rating"]),
                dict(r["review_log"]),
                datetime.fromisoformat(r["at"]),
            )
            for r in data.get("reviews", [])
        ]
        incoming = {str(k): dict(v) for k, v in dict(data.get("schedule", {})).items()}
        for state in incoming.values():
            schedule.due_at(state)
    except (KeyError, TypeError, ValueError) as error:
        raise BadBackup(f"progress file has a malformed entry ({error})") from None
    # Counting keys (rather than a set) keeps genuine repeats within one file.
    have_attempts = Counter((a.card_id, a.blank, a.given, a.at) for a in store.attempts())
    have_reviews = Counter((r.card_id, r.at) for r in store.reviews())
    states = store.fsrs_cards()
    new_attempts = []
    for attempt in attempts:
        key = (attempt.card_id, attempt.blank, attempt.given, attempt.at)
        if have_attempts[key]:
            have_attempts[key] -= 1
        else:
            new_attempts.append(attempt)
    session = store.start_session("import", now) if new_attempts or reviews else None
    for attempt in new_attempts:
        store.record_attempt(session, attempt)
    for item in reviews:
        if have_reviews[(item.card_id, item.at)]:
            have_reviews[(item.card_id, item.at)] -= 1
            continue
        mine, theirs = states.get(item.card_id), incoming.get(item.card_id)
        newer = theirs is not None and (mine is None or _last(theirs) >= _last(mine))
        state = theirs if newer and theirs is not None else mine
        if state is None:
            continue
        store.save_review(
            Review(item.card_id, item.rating, item.review_log, item.at, session), state
        )
        states[item.card_id] = state
    if session is not None:
        store.end_session(session, now)
    return len(new_attempts)


def _last(state: Mapping[str, Any]) -> str:
    return str(state.get("last_review") or "")
