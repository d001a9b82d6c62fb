"""A state machine over the store and backups: no answer is ever lost or duplicated.

Random sequences of answering, reviewing, exporting, importing (fresh or stale
backups, again and again), resetting, and processes killed mid-write or
mid-import are checked against a model: a multiset of what the store should
hold. An import adds, per key, what the store lacks; a second import adds
nothing; a failed one changes nothing.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule

from quizzer.progress.backup import BadBackup, write_backup
from quizzer.progress.restore import import_backup
from quizzer.progress.store import Attempt, Review, Store, iso

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
CARDS = ["attention", "bayes", "adam"]
STATE = {
    "card_id": 1,
    "state": 2,
    "step": None,
    "stability": 3.0,
    "difficulty": 5.0,
    "due": "2026-03-05T12:00:00+00:00",
    "last_review": "2026-03-01T12:00:00+00:00",
}

# A few instants, some sharing their millisecond: the store keeps milliseconds.
moments = st.sampled_from([T0 + timedelta(microseconds=us) for us in (0, 400, 999, 1000, 250_000)])
attempts = st.builds(
    Attempt,
    card_id=st.sampled_from(CARDS),
    blank=st.sampled_from(["a", "b"]),
    given=st.sampled_from(["x", "sqrt(d_k)", 'é\n"q"']),
    correct=st.booleans(),
    try_number=st.integers(1, 3),
    hints=st.integers(0, 2),
    ms=st.integers(0, 10_000),
    at=moments,
    overridden=st.booleans(),
)


def attempt_key(a: Attempt) -> tuple[object, ...]:
    return (a.card_id, a.blank, a.given, iso(a.at))


def review_key(r: Review) -> tuple[object, ...]:
    return (r.card_id, iso(r.at))


class ProgressMachine(RuleBasedStateMachine):
    backups = Bundle("backups")

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="quizzer-machine-"))
        self.path = self.folder / "p.db"
        self.store = Store.open(self.path)
        self.attempts: Counter[tuple[object, ...]] = Counter()
        self.reviews: Counter[tuple[object, ...]] = Counter()
        self.exports = 0

    def teardown(self) -> None:
        self.store.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    @rule(attempt=attempts)
    def answer(self, attempt: Attempt) -> None:
        self.store.record_attempt(None, attempt)
        self.attempts[attempt_key(attempt)] += 1

    @rule(card=st.sampled_from(CARDS), at=moments, rating=st.integers(1, 4))
    def review(self, card: str, at: datetime, rating: int) -> None:
        review = Review(card, rating, {"card_id": 1, "rating": rating}, at)
        self.store.save_review(review, STATE)
        self.reviews[review_key(review)] += 1

    @rule(target=backups)
    def export(self) -> tuple[Path, Counter, Counter]:
        self.exports += 1
        path = self.folder / f"backup-{self.exports}.json"
        written = write_backup(self.store, path)
        assert written.attempts == sum(self.attempts.values())
        return path, Counter(self.attempts), Counter(self.reviews)

    @rule(backup=backups, times=st.integers(1, 3))
    def import_(self, backup: tuple[Path, Counter, Counter], times: int) -> None:
        path, exported_attempts, exported_reviews = backup
        sessions = self.store.totals().sessions
        merged = import_backup(self.store, path, T0)
        # A session for what was added, and none for an import that added nothing.
        added = merged.attempts + merged.reviews
        assert self.store.totals().sessions == sessions + (1 if added else 0)
        for _ in range(times - 1):
            again = import_backup(self.store, path, T0)
            assert (again.attempts, again.reviews, again.schedules) == (0, 0, 0)
        assert self.store.totals().sessions == sessions + (1 if added else 0)
        for key, count in exported_attempts.items():
            self.attempts[key] = max(self.attempts[key], count)
        for key, count in exported_reviews.items():
            self.reviews[key] = max(self.reviews[key], count)

    @rule(backup=backups, cut=st.floats(0.05, 0.95))
    def import_a_damaged_copy(self, backup: tuple[Path, Counter, Counter], cut: float) -> None:
        data = backup[0].read_bytes()
        damaged = self.folder / "damaged.json"
        damaged.write_bytes(data[: int(len(data) * cut)])
        with pytest.raises(BadBackup):
            import_backup(self.store, damaged, T0)

    @rule(card=st.none() | st.sampled_from(CARDS))
    def reset(self, card: str | None) -> None:
        self.store.reset(card)
        for counter in (self.attempts, self.reviews):
            for key in list(counter):
                if card is None or key[0] == card:
                    del counter[key]

    @rule(attempt=attempts)
    def kill_mid_write(self, attempt: Attempt) -> None:
        # A process killed inside its transaction: SQLite rolls back what it never committed.
        other = sqlite3.connect(self.path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        other.execute(
            "INSERT INTO attempts (card_id, blank, given, correct, try, hints, ms, at)"
            " VALUES (?, 'a', 'lost', 1, 1, 0, 0, ?)",
            (attempt.card_id, iso(attempt.at)),
        )
        other.close()  # no COMMIT

    @rule()
    def restart(self) -> None:
        self.store.close()
        self.store = Store.open(self.path)

    @invariant()
    def nothing_lost_or_duplicated(self) -> None:
        assert Counter(map(attempt_key, self.store.attempts())) == self.attempts
        assert Counter(map(review_key, self.store.reviews())) == self.reviews


ProgressMachine.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_progress_machine = ProgressMachine.TestCase
