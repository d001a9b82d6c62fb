"""``stats CARD`` reads only the last answers, and they are the full history's last ones.

The screen shows a card's last 100 answers; a heavy history has 4,800 a card,
so :func:`quizzer.progress.stats.card_history` with ``last`` reads only those
rows (by their times, from the index) and counts the rest in SQL. Whatever the
times (ties, rows saved out of time order as ``sync`` merges them, damage),
the answers shown and the counts must be the full history's.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from fsrs import Scheduler
from hypothesis import given, settings
from hypothesis import strategies as st

from quizzer.progress.stats import card_history
from quizzer.progress.store import Attempt, Store

START = datetime(2026, 1, 1, tzinfo=timezone.utc)
NOW = datetime(2026, 6, 1, tzinfo=timezone.utc)

answers = st.lists(
    st.tuples(
        st.integers(0, 20),  # seconds after START: few values, so many ties
        st.sampled_from(["a", "b"]),
        st.sampled_from(["x", "y", "z"]),
        st.booleans(),
        st.integers(1, 3),
    ),
    max_size=40,
)


def _store_with(tmp_path, rows, card="card", warnings=None) -> Store:
    store = Store.open(tmp_path / "p.db", on_warning=None if warnings is None else warnings.append)
    session = store.start_session("quiz", START)
    store.record_attempt(session, Attempt("other", "a", "x", True, 1, 0, 10, START))
    for seconds, blank, text, correct, try_number in rows:
        at = START + timedelta(seconds=seconds)
        store.record_attempt(session, Attempt(card, blank, text, correct, try_number, 0, 10, at))
    return store


@settings(max_examples=80)
@given(rows=answers, last=st.integers(0, 12), broken=st.sets(st.integers(2, 41), max_size=6))
def test_the_last_answers_are_the_full_historys_last(tmp_path_factory, rows, last, broken):
    tmp_path = tmp_path_factory.mktemp("history")
    scheduler = Scheduler()
    with _store_with(tmp_path, rows, warnings=[]) as store:
        for row in broken:  # damaged rows, anywhere in the history (row 1 is the other card)
            column = "at" if row % 2 else "try"
            store.connection.execute(f"UPDATE attempts SET {column} = 'x' WHERE id = ?", (row,))
        full = card_history(store, "card", scheduler, NOW)
        recent = card_history(store, "card", scheduler, NOW, last=last)
    assert recent.attempts == (full.attempts[-last:] if last else [])
    assert recent.attempt_count == full.attempt_count
    assert (recent.review_count, recent.lapses) == (len(full.reviews), full.lapses)
    assert recent.reviews == []


def test_a_damaged_answer_is_reported_and_not_counted(tmp_path):
    rows = [(second, "a", "x", True, 1) for second in range(5)]
    warnings: list[str] = []
    with _store_with(tmp_path, rows, warnings=warnings) as store:
        # Row 3 (second 1) has no time; row 6 (second 4, the last) a wrong try.
        store.connection.execute("UPDATE attempts SET at = 'garbage' WHERE id = 3")
        store.connection.execute("UPDATE attempts SET try = 'two' WHERE id = 6")
        recent = card_history(store, "card", Scheduler(), NOW, last=2)
    assert recent.attempt_count == 3
    assert [a.at.second for a in recent.attempts] == [2, 3]
    assert warnings == [
        "card card: its stored history is damaged; `quizzer progress reset card --yes` clears it"
    ]
