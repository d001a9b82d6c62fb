"""FSRS scheduling: ratings from attempts, golden histories, due order, the new-card limit."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from fsrs import Rating, State

from quizzer.progress.schedule import (
    forecast,
    fsrs_id,
    make_scheduler,
    plan_review,
    retrievability,
    review,
)
from quizzer.study.quiz import BlankResult, CardResult
from quizzer.study.recording import EASY_MS_PER_BLANK, rating_for

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)


def result(*blanks: BlankResult, ms: int = 30_000, skipped: bool = False) -> CardResult:
    return CardResult("attention", "Attention", list(blanks), ms=ms, skipped=skipped, finished=True)


def blank(correct=True, tries=1, hints=0, revealed=False) -> BlankResult:
    return BlankResult("b", correct=correct, tries=tries, hints=hints, revealed=revealed)


@pytest.mark.parametrize(
    ("card", "rating"),
    [
        (result(blank(), blank()), Rating.Good),
        (result(blank(), blank(), ms=2 * EASY_MS_PER_BLANK), Rating.Easy),
        (result(blank(), blank(), ms=2 * EASY_MS_PER_BLANK + 1), Rating.Good),
        (result(blank(), blank(tries=2)), Rating.Hard),
        (result(blank(), blank(hints=1)), Rating.Hard),
        (result(blank(tries=2), blank(hints=1), ms=1), Rating.Hard),
        (result(blank(), blank(correct=False, tries=3)), Rating.Again),
        (result(blank(), blank(correct=False, tries=0, revealed=True)), Rating.Again),
        (result(blank(), blank(correct=False, tries=0), skipped=True), Rating.Again),
        (result(blank(correct=False, tries=0), blank(correct=False, tries=0), skipped=True), None),
    ],
)
def test_rating_from_the_attempt(card, rating):
    assert rating_for(card) == rating


# A fixed history at fixed UTC times with fuzzing off: the expected states and due
# dates were computed once with fsrs 6.3 defaults and pinned here.
GOLDEN = [
    # (days after T0, rating, expected state, expected due)
    (0, Rating.Good, State.Learning, T0 + timedelta(minutes=10)),
    (0.01, Rating.Good, State.Review, datetime(2026, 1, 7, 9, 14, 24, tzinfo=timezone.utc)),
    (2, Rating.Good, State.Review, None),
    (10, Rating.Again, State.Relearning, T0 + timedelta(days=10, minutes=10)),
    (10.01, Rating.Good, State.Review, None),
]


def test_golden_history():
    scheduler = make_scheduler(fuzz=False)
    state = None
    dues = []
    for days, rating, expected_state, expected_due in GOLDEN:
        now = T0 + timedelta(days=days)
        card, log = review(scheduler, "attention", state, rating, now, 1234)
        assert card.state == expected_state
        if expected_due is not None:
            assert card.due == expected_due
        assert card.card_id == fsrs_id("attention")
        assert (log.rating, log.review_datetime, log.review_duration) == (rating, now, 1234)
        state = card.to_dict()
        dues.append(card.due)
    assert dues == sorted(dues)
    # Stable after a lapse: the interval after relearning is shorter than the one before.
    assert dues[4] - (T0 + timedelta(days=10.01)) < dues[2] - (T0 + timedelta(days=2))


def test_review_is_deterministic_without_fuzz():
    scheduler = make_scheduler(fuzz=False)
    first, _ = review(scheduler, "x", None, Rating.Good, T0)
    second, _ = review(scheduler, "x", None, Rating.Good, T0)
    assert first.to_dict() == second.to_dict()


def test_non_utc_times_raise():
    with pytest.raises(ValueError):
        review(
            make_scheduler(),
            "x",
            None,
            Rating.Good,
            datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=2))),
        )


def state_due(when: datetime) -> dict:
    card, _ = review(make_scheduler(fuzz=False), "x", None, Rating.Good, T0)
    data = dict(card.to_dict())
    data["due"] = when.isoformat()
    return data


def test_due_cards_come_most_overdue_first_then_new_ones():
    states = {
        "a": state_due(T0 - timedelta(days=1)),
        "b": state_due(T0 - timedelta(days=5)),
        "c": state_due(T0 + timedelta(days=2)),
        "d": state_due(T0 + timedelta(hours=3)),
    }
    plan = plan_review(["a", "b", "c", "d", "n1", "n2", "n3"], states, T0, new_limit=2)
    assert plan.due == ["b", "a"]
    assert plan.new == ["n1", "n2"]
    assert plan.cards == ["b", "a", "n1", "n2"]
    assert plan.next_due == ("d", T0 + timedelta(hours=3))


def test_new_card_limit_counts_cards_started_today():
    plan = plan_review(["n1", "n2", "n3"], {}, T0, new_limit=2, new_seen_today=1)
    assert plan.new == ["n1"]
    assert plan_review(["n1"], {}, T0, new_limit=2, new_seen_today=5).new == []
    assert plan_review(["n1", "n2"], {}, T0, new_limit=0).cards == []


def test_limit_takes_due_before_new():
    states = {"a": state_due(T0 - timedelta(days=1)), "b": state_due(T0 - timedelta(days=2))}
    plan = plan_review(["a", "b", "n1"], states, T0, limit=1)
    assert plan.cards == ["b"]
    assert plan_review(["a", "b", "n1"], states, T0, limit=3).cards == ["b", "a", "n1"]


def test_forecast_counts_calendar_days():
    states = [
        state_due(T0 - timedelta(days=3)),
        state_due(T0 + timedelta(hours=20)),
        state_due(T0 + timedelta(days=13, hours=1)),
        state_due(T0 + timedelta(days=20)),
    ]
    counts = forecast(states, T0)
    assert len(counts) == 14 and counts[0] == 1 and counts[1] == 1 and counts[13] == 1
    assert sum(counts) == 3


def test_retrievability_falls_with_time():
    card, _ = review(make_scheduler(fuzz=False), "x", None, Rating.Good, T0)
    state = card.to_dict()
    soon = retrievability(make_scheduler(), "x", state, T0 + timedelta(hours=1))
    later = retrievability(make_scheduler(), "x", state, T0 + timedelta(days=30))
    assert 0 < later < soon <= 1
