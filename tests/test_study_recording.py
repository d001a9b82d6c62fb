"""Saving a session: one scheduling call per review, replaced when the grade changes."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

from quizzer.progress.schedule import make_scheduler
from quizzer.progress.store import Attempt, Store
from quizzer.study.items import FollowUpId, Grade
from quizzer.study.recording import SessionProgress

T0 = datetime(2026, 2, 1, 9, 0, tzinfo=timezone.utc)


def test_a_changed_grade_replaces_the_review_from_the_state_before_it(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        progress = SessionProgress(store, make_scheduler(fuzz=False), "quiz", T0)
        first = progress.save_rating("attention", Grade.GOOD, T0)
        again = progress.replace_rating("attention", Grade.AGAIN, T0 + timedelta(seconds=5))
        assert again < first
        ((card_id, rating),) = [(r.card_id, r.rating) for r in store.reviews()]
        assert (card_id, rating) == ("attention", 1)
        assert store.fsrs_cards()["attention"]["due"] == again.isoformat()
        # Replacing twice starts from the same state, not from the replaced review.
        easy = progress.replace_rating("attention", Grade.EASY, T0)
        fresh = SessionProgress(store, make_scheduler(fuzz=False), "quiz", T0)
        other = fresh.save_rating("elsewhere", Grade.EASY, T0)
        assert easy == other and len(store.reviews()) == 2
        # A follow-up is a review item under its stored name.
        progress.save_rating(FollowUpId("attention", 1), Grade.HARD, T0)
        assert store.reviews()[-1].card_id == "attention#follow-2"


def test_an_override_marks_the_attempt_of_this_session(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        earlier = SessionProgress(store, make_scheduler(fuzz=False), "quiz", T0)
        progress = SessionProgress(store, make_scheduler(fuzz=False), "quiz", T0)
        wrong = Attempt("attention", "scale", "d_k", False, 1, 0, 500, T0)
        earlier.record_attempt(wrong)
        progress.record_attempt(wrong)
        progress.record_attempt(replace(wrong, try_number=2))
        progress.record_override("attention", "scale", 1)
        marks = [(a.try_number, a.correct, a.overridden) for a in store.attempts()]
        assert marks == [(1, False, False), (1, True, True), (2, False, False)]
