"""Progress across sessions: reviews, the report, backups, migration and two writers."""

from __future__ import annotations

import json
import multiprocessing
import os
import sqlite3
from contextlib import closing
from datetime import date, datetime, timedelta, timezone

import pytest
from fsrs import Rating
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quizzer.progress import migrations
from quizzer.progress import store as store_module
from quizzer.progress.backup import BadBackup, export_progress
from quizzer.progress.restore import import_progress, read_backup
from quizzer.progress.schedule import make_scheduler
from quizzer.progress.stats import report, streak
from quizzer.progress.store import Attempt, Store
from quizzer.study.items import Grade
from quizzer.study.quiz import BlankResult, CardResult
from quizzer.study.recording import SessionProgress, new_cards_seen_on

from .test_progress_store import attempts as attempt_strategy

T0 = datetime(2026, 2, 1, 8, 0, tzinfo=timezone.utc)


def finished(card_id="attention", ms=40_000) -> CardResult:
    blanks = [
        BlankResult("scale", True, 1, 0, False),
        BlankResult("values", True, 1, 0, False),
    ]
    return CardResult(card_id, card_id, blanks, ms=ms, finished=True)


def test_saving_a_review_schedules_the_card(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        progress = SessionProgress(store, make_scheduler(fuzz=False), "quiz", T0)
        due = progress.save_review(finished(), Grade.GOOD, T0)
        assert due == T0 + timedelta(minutes=10)
        (review,) = store.reviews()
        assert (review.card_id, review.rating, review.session_id) == (
            "attention",
            3,
            progress.session_id,
        )
        assert review.review_log["review_duration"] == 40_000
        assert store.fsrs_cards()["attention"]["due"] == due.isoformat()
        later = progress.save_review(finished(), Rating.Good, T0 + timedelta(minutes=15))
        assert later > due + timedelta(days=1)
        assert new_cards_seen_on(store, T0.date()) == 1
        assert new_cards_seen_on(store, date(2026, 2, 2)) == 0


def test_answer_changes_are_reported_once(tmp_path):
    from quizzer.cards.model import Card

    card = Card.model_validate(
        {
            "id": "c",
            "title": "C",
            "prompt": "{{b}}",
            "symbols": {"x": {}},
            "blanks": {"b": {"answer": "x"}},
        }
    )
    with Store.open(tmp_path / "p.db") as store:
        progress = SessionProgress(store, make_scheduler(), "quiz", T0)
        assert progress.answer_changes(card, {"b": ("f1", "x")}) == []
        assert progress.answer_changes(card, {"b": ("f1", "x ")}) == []
        (change,) = progress.answer_changes(card, {"b": ("f2", "2x")})
        assert (change.blank, change.before, change.now) == ("b", "x", "2x")
        assert progress.answer_changes(card, {"b": ("f2", "2x")}) == []


def test_streak():
    today = date(2026, 2, 10)
    days = {today, today - timedelta(days=1), today - timedelta(days=2), today - timedelta(days=5)}
    assert streak(days, today) == 3
    assert streak(days - {today}, today) == 2  # today not studied yet: the streak still stands
    assert streak({today - timedelta(days=3)}, today) == 0
    assert streak(set(), today) == 0


def test_report_figures(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        progress = SessionProgress(store, make_scheduler(fuzz=False), "quiz", T0)
        for day in range(3):
            at = T0 + timedelta(days=day)
            progress.record_attempt(Attempt("attention", "scale", "d_k", False, 1, 0, 900, at))
            progress.record_attempt(Attempt("attention", "scale", "sqrt(d_k)", True, 2, 0, 900, at))
            progress.record_attempt(Attempt("bayes", "b", "x", True, 1, 0, 900, at))
        progress.save_review(finished("attention"), Rating.Good, T0)
        progress.save_review(finished("attention"), Rating.Again, T0 + timedelta(days=1))
        progress.save_review(finished("bayes"), Rating.Easy, T0)
        tags = {"attention": ["transformers", "attention"], "bayes": ["probability"]}
        figures = report(store, tags, make_scheduler(), T0 + timedelta(days=2, hours=1))
    assert (figures.attempts, figures.correct, figures.cards_seen) == (9, 6, 2)
    assert figures.accuracy == pytest.approx(6 / 9)
    assert figures.streak_days == 3 and figures.study_days == 3 and figures.reviews == 3
    assert next((t.tag, t.attempts, t.correct) for t in figures.tags) == ("transformers", 6, 3)
    assert figures.weakest[0].card_id == "attention" and figures.weakest[0].lapses == 1
    assert sum(figures.forecast) == 2
    data = figures.to_dict()
    assert {"attempts", "cards_seen", "accuracy", "forecast", "tags", "weakest"} <= set(data)


def fill(store: Store, items: list[Attempt]) -> None:
    progress = SessionProgress(store, make_scheduler(fuzz=False), "quiz", T0)
    for item in items:
        progress.record_attempt(item)
    for index, card_id in enumerate(sorted({a.card_id for a in items})):
        progress.save_review(finished(card_id), Rating.Good, T0 + timedelta(minutes=index))


def comparable(data: dict) -> dict:
    return {key: data[key] for key in ("attempts", "reviews", "schedule")}


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(attempt_strategy, max_size=12))
def test_export_import_round_trip(tmp_path, items):
    tag = os.urandom(6).hex()
    with Store.open(tmp_path / f"a-{tag}.db") as source:
        fill(source, items)
        exported = export_progress(source)
    text = json.dumps(exported)
    with Store.open(tmp_path / f"b-{tag}.db") as target:
        added = import_progress(target, json.loads(text), T0)
        assert added == len(items)
        again = export_progress(target)
        assert import_progress(target, json.loads(text), T0) == 0  # idempotent
        assert export_progress(target) == again
    assert comparable(again)["schedule"] == comparable(exported)["schedule"]
    assert comparable(again)["reviews"] == comparable(exported)["reviews"]
    assert sorted(map(json.dumps, again["attempts"])) == sorted(
        map(json.dumps, exported["attempts"])
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not a quizzer progress file"),
        ('{"format": "other"}', "not a quizzer progress file"),
        ('{"format": "quizzer-progress", "version": 99}', "version 99"),
        ("[1, 2]", "not a quizzer progress file"),
    ],
)
def test_bad_backups(tmp_path, content, message):
    path = tmp_path / "b.json"
    path.write_text(content)
    with pytest.raises(BadBackup, match=message):
        read_backup(path)


def test_malformed_backup_entries(tmp_path):
    data = {"format": "quizzer-progress", "version": 1, "attempts": [{"card": "x"}]}
    with Store.open(tmp_path / "p.db") as store, pytest.raises(BadBackup, match="malformed"):
        import_progress(store, data, T0)


def insert_old_attempt(store: Store, correct: bool) -> None:
    """An attempt as an older schema stored it (``record_attempt`` writes today's columns)."""
    session = store.start_session("quiz", T0)
    store.connection.execute(
        "INSERT INTO attempts (session_id, card_id, blank, given, correct, try, hints, ms, at)"
        " VALUES (?, 'attention', 'scale', 'd_k', ?, 1, 0, 100, ?)",
        (session, int(correct), T0.isoformat(timespec="milliseconds")),
    )


def test_migration_from_the_first_schema(tmp_path, monkeypatch):
    path = tmp_path / "old.db"
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 1)
    with Store.open(path) as old:
        insert_old_attempt(old, correct=False)
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert "schedule" not in tables
    monkeypatch.undo()
    with Store.open(path) as store:
        assert [a.given for a in store.attempts()] == ["d_k"]
        progress = SessionProgress(store, make_scheduler(), "review", T0)
        progress.save_review(finished(), Rating.Good, T0)
        assert "attention" in store.fsrs_cards()
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == store_module.SCHEMA_VERSION


def write_many(path: str, worker: int, count: int) -> None:
    with Store.open(path) as store:
        progress = SessionProgress(store, make_scheduler(), "quiz", T0)
        for index in range(count):
            progress.record_attempt(
                Attempt(f"card-{worker}", "b", f"{worker}-{index}", True, 1, 0, 1, T0)
            )
            if index % 10 == 0:
                progress.save_review(
                    finished(f"card-{worker}"), Rating.Good, T0 + timedelta(seconds=index)
                )


@pytest.mark.slow
def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    path = str(tmp_path / "p.db")
    Store.open(path).close()
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=write_many, args=(path, n, 150)) for n in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    with Store.open(path) as store:
        given = {a.given for a in store.attempts()}
        assert given == {f"{w}-{i}" for w in range(2) for i in range(150)}
        assert len(store.reviews()) == 30
        assert set(store.fsrs_cards()) == {"card-0", "card-1"}
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_migration_adds_the_overridden_flag_to_old_attempts(tmp_path, monkeypatch):
    path = tmp_path / "v2.db"
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 2)
    with Store.open(path) as old:
        insert_old_attempt(old, correct=True)
    monkeypatch.undo()
    with Store.open(path) as store:
        assert [a.overridden for a in store.attempts()] == [False]
        store.record_attempt(None, Attempt("attention", "scale", "dk", True, 2, 0, 9, T0, True))
        assert [a.overridden for a in store.attempts()] == [False, True]
        with pytest.raises(sqlite3.IntegrityError):
            store.connection.execute("UPDATE attempts SET overridden = 2")
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == store_module.SCHEMA_VERSION


def test_the_overridden_flag_survives_export_and_import(tmp_path):
    with Store.open(tmp_path / "a.db") as store:
        store.record_attempt(None, Attempt("attention", "scale", "dk", True, 1, 0, 9, T0, True))
        store.record_attempt(None, Attempt("attention", "values", "V", True, 1, 0, 9, T0))
        data = export_progress(store)
    assert [a["overridden"] for a in data["attempts"]] == [True, False]
    with Store.open(tmp_path / "b.db") as other:
        import_progress(other, data, T0)
        assert [a.overridden for a in other.attempts()] == [True, False]


def test_a_backup_from_before_overrides_imports_as_not_overridden(tmp_path):
    with Store.open(tmp_path / "a.db") as store:
        store.record_attempt(None, Attempt("attention", "scale", "dk", True, 1, 0, 9, T0))
        data = export_progress(store)
    for item in data["attempts"]:
        del item["overridden"]
    with Store.open(tmp_path / "b.db") as other:
        import_progress(other, data, T0)
        assert [a.overridden for a in other.attempts()] == [False]
