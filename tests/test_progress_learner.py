"""The learner's own scheduler and settings, wherever progress is read or carried.

Backups carry the fitted FSRS parameters beside the settings; ``quiz --weak``
ranks recall with the learner's scheduler; the status of a bare ``quizzer``
leaves out suspended and buried cards, says how many there are, and holds new
cards to ``new_per_day``.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from fsrs import Rating
from fsrs.scheduler import DEFAULT_PARAMETERS

from quizzer.progress import schedule, selection
from quizzer.progress.backup import BadBackup, write_backup
from quizzer.progress.flags import bury, set_suspended
from quizzer.progress.parameters import save_parameters, saved_parameters
from quizzer.progress.restore import import_backup, read_backup
from quizzer.progress.selection import CardState
from quizzer.progress.settings import read_settings, write_setting
from quizzer.progress.store import Attempt, Store
from quizzer.study.items import Grade
from quizzer.study.recording import SessionProgress

T0 = datetime(2026, 2, 1, 9, tzinfo=timezone.utc)
#: Fitted weights unlike the defaults (a slower forgetting curve), within FSRS's bounds.
FITTED = tuple(
    round(w * 1.1, 4) if i in (0, 1, 2, 3) else w for i, w in enumerate(DEFAULT_PARAMETERS)
)


def studied(store: Store, card: str, rating: Rating, at: datetime) -> None:
    progress = SessionProgress(store, schedule.make_scheduler(), "review", at)
    progress.record_attempt(Attempt(card, "x", "y", rating > 1, 1, 0, 900, at))
    progress.save_rating(card, Grade(int(rating)), at, 900)
    progress.end(at)


def fitted(store: Store, at: datetime, weights: tuple[float, ...] = FITTED) -> None:
    with store.writing() as db:
        save_parameters(db, weights, at, 1234, None)


# -- backups carry the fit and the settings --------------------------------------------------


def test_a_backup_carries_the_fitted_parameters_and_the_settings(tmp_path: Path) -> None:
    with Store.open(tmp_path / "a.db") as a:
        studied(a, "attention", Rating.Good, T0)
        write_setting(a, "desired_retention", "0.85")
        write_setting(a, "new_per_day", "7")
        fitted(a, T0)
        write_backup(a, tmp_path / "a.json")
        wanted = saved_parameters(a)
    assert read_backup(tmp_path / "a.json")["fsrs_parameters"]["parameters"] == list(FITTED)
    with Store.open(tmp_path / "b.db") as b:
        import_backup(b, tmp_path / "a.json", T0)
        assert saved_parameters(b) == wanted
        assert read_settings(b).desired_retention == 0.85
        assert read_settings(b).new_per_day == 7
        # The scheduler of the restored learner is the fitted one.
        assert schedule.learner_scheduler(b).parameters == FITTED


def test_an_older_fit_in_a_backup_never_replaces_a_later_one(tmp_path: Path) -> None:
    with Store.open(tmp_path / "a.db") as a:
        fitted(a, T0)
        write_backup(a, tmp_path / "old.json")
    later = tuple(DEFAULT_PARAMETERS)
    with Store.open(tmp_path / "b.db") as b:
        fitted(b, T0 + timedelta(days=3), later)
        import_backup(b, tmp_path / "old.json", T0)
        saved = saved_parameters(b)
        assert saved is not None and saved.parameters == later
        write_backup(b, tmp_path / "new.json")
    with Store.open(tmp_path / "a.db") as a:
        import_backup(a, tmp_path / "new.json", T0)
        import_backup(a, tmp_path / "new.json", T0)  # again: nothing changes
        saved = saved_parameters(a)
        assert saved is not None and saved.parameters == later
        assert saved.fitted_at == T0 + timedelta(days=3)


@pytest.mark.parametrize(
    "entry",
    [
        {"parameters": [1.0, 2.0], "fitted_at": "2026-02-01T00:00:00Z", "reviews": 5, "tag": None},
        {"parameters": list(FITTED), "fitted_at": "yesterday", "reviews": 5, "tag": None},
        {
            "parameters": list(FITTED),
            "fitted_at": "2026-02-01T00:00:00Z",
            "reviews": -1,
            "tag": None,
        },
        {"parameters": ["1"] * 21, "fitted_at": "2026-02-01T00:00:00Z", "reviews": 5, "tag": None},
        [1, 2, 3],
    ],
)
def test_a_malformed_fit_in_a_backup_is_refused_and_changes_nothing(
    tmp_path: Path, entry: object
) -> None:
    with Store.open(tmp_path / "a.db") as a:
        studied(a, "attention", Rating.Good, T0)
        write_backup(a, tmp_path / "a.json")
    data = json.loads((tmp_path / "a.json").read_text())
    data["fsrs_parameters"] = entry
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with Store.open(tmp_path / "b.db") as b:
        with pytest.raises(BadBackup, match="fsrs_parameters"):
            import_backup(b, tmp_path / "bad.json", T0)
        assert saved_parameters(b) is None and b.totals().attempts == 0


def test_progress_export_and_import_carry_the_fit(invoke, tmp_path: Path) -> None:
    with Store.open(tmp_path / "a.db") as a:
        studied(a, "attention", Rating.Good, T0)
        fitted(a, T0)
    out = invoke("progress", "export", str(tmp_path / "a.json"), "--db", str(tmp_path / "a.db"))
    assert out.exit_code == 0, out.output
    back = invoke("progress", "import", str(tmp_path / "a.json"), "--db", str(tmp_path / "b.db"))
    assert back.exit_code == 0, back.output
    with Store.open(tmp_path / "b.db") as b:
        saved = saved_parameters(b)
        assert saved is not None and saved.parameters == FITTED


# -- quiz --weak ranks with the learner's scheduler ------------------------------------------


def test_weakest_asks_the_scheduler_it_is_given() -> None:
    states = {
        card: schedule.review(schedule.make_scheduler(fuzz=False), card, None, rating, T0)[
            0
        ].to_dict()
        for card, rating in (("a", Rating.Good), ("b", Rating.Again), ("c", Rating.Easy))
    }
    asked: list[object] = []

    class Spy:
        def get_card_retrievability(self, card: object, now: datetime) -> float:
            asked.append(card)
            return {"a": 0.5, "b": 0.9, "c": 0.1}[
                next(k for k, v in states.items() if v["card_id"] == card.card_id)
            ]  # type: ignore[attr-defined]

    ranked = selection.weakest(list(states), states, T0, 3, scheduler=Spy())  # type: ignore[arg-type]
    assert ranked == ["c", "a", "b"] and len(asked) == 3


def test_quiz_weak_uses_the_saved_parameters(invoke, isolated_environment, monkeypatch) -> None:
    with Store.open(isolated_environment / "progress.db") as store:
        studied(store, "attention", Rating.Again, T0)
        studied(store, "softmax", Rating.Good, T0)
        fitted(store, T0)
        write_setting(store, "desired_retention", "0.8")
    used: list[tuple[float, ...]] = []
    real = selection.weakest

    def spying(*args: object, scheduler: object = None, **kwargs: object) -> list[str]:
        used.append(tuple(scheduler.parameters))  # type: ignore[attr-defined]
        assert scheduler.desired_retention == 0.8  # type: ignore[attr-defined]
        return real(*args, scheduler=scheduler, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(selection, "weakest", spying)
    monkeypatch.setenv("QUIZZER_NOW", (T0 + timedelta(hours=1)).isoformat())
    result = invoke("quiz", "--weak", "1", input="")
    assert result.exit_code == 0, result.output
    assert used == [FITTED]
    assert "attention" in result.stdout.lower() or "Scaled dot-product" in result.stdout


# -- the status of a bare quizzer ------------------------------------------------------------


def test_status_leaves_out_cards_set_aside_and_counts_them() -> None:
    now = T0
    states = {
        "due": CardState(now - timedelta(days=1), 3),
        "suspended-due": CardState(now - timedelta(days=1), 3),
        "buried-due": CardState(now - timedelta(hours=1), 1),
        "later": CardState(now + timedelta(days=2), 1),
    }
    from quizzer.progress.flags import CardFlags

    flags = {
        "suspended-due": CardFlags(suspended=True),
        "buried-due": CardFlags(buried_until=now + timedelta(hours=5)),
        "suspended-new": CardFlags(suspended=True),
    }
    cards = [*states, "new-1", "new-2", "new-3", "suspended-new"]
    found = selection.status(cards, states, set(), now, flags=flags, new_today=2)
    assert (found.due, found.new, found.new_today) == (1, 3, 2)
    assert (found.suspended, found.buried) == (2, 1)
    assert found.next_due == now + timedelta(days=2)
    # Without flags or a daily limit, as before.
    plain = selection.status(cards, states, set(), now)
    assert (plain.due, plain.new, plain.new_today, plain.suspended) == (3, 4, 4, 0)


def test_bare_quizzer_uses_the_settings_and_says_what_is_set_aside(
    invoke, isolated_environment, monkeypatch
) -> None:
    db = isolated_environment / "progress.db"
    with Store.open(db) as store:
        for card in ("attention", "gelu", "alibi"):
            studied(store, card, Rating.Again, T0 - timedelta(days=3))
        studied(store, "gae", Rating.Good, T0)  # a new card seen today
        set_suspended(store, ["attention"], True)
        bury(store, "gelu", T0)
        write_setting(store, "new_per_day", "3")
    # gae, Good on its first review, is in its 10-minute learning step: not due yet.
    monkeypatch.setenv("QUIZZER_NOW", (T0 + timedelta(minutes=2)).isoformat())
    result = invoke()
    assert result.exit_code == 0, result.output
    first = " ".join(result.stdout.split())
    cards = len(json.loads(invoke("list", "--json").stdout))
    assert "1 due now" in first  # alibi; attention suspended, gelu buried
    assert f"{cards - 4} new (2 today)" in first  # 3 a day, one seen today
    assert "1 suspended" in first and "1 buried" in first
