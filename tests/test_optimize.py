"""`quizzer optimize`: FSRS fitted to a history simulated from known parameters.

The simulated learner recalls each card with the probability FSRS gives under the
TRUE parameters (py-fsrs, the scheduler quizzer uses) and is reviewed when that
scheduler says; the optimiser knows nothing of TRUE and must find weights that
predict the history about as well as TRUE does.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler

from quizzer.progress import optimizer
from quizzer.progress.parameters import saved_parameters
from quizzer.progress.schedule import fsrs_id, learner_scheduler, review
from quizzer.progress.store import Review, Store

#: Known weights, well away from FSRS-6's defaults (initial stabilities, decay).
TRUE = list(Scheduler().parameters)
TRUE[0], TRUE[1], TRUE[2], TRUE[3], TRUE[8], TRUE[20] = 0.6, 2.0, 4.5, 15.0, 1.4, 0.35
START = datetime(2024, 1, 1, tzinfo=timezone.utc)
NOW = "2025-06-01T00:00:00Z"
EXPECTED_KEYS = {
    "reviews",
    "cards",
    "parameters",
    "log_loss_before",
    "log_loss_after",
    "rmse_before",
    "rmse_after",
    "saved",
}


def simulate(path: Path, cards: int, reviews_each: int, seed: int = 7) -> None:
    """Write a learner's history scheduled and recalled under TRUE into ``path``."""
    rng = random.Random(seed)
    scheduler = Scheduler(parameters=TRUE, enable_fuzzing=False)
    with Store.open(path) as store:
        session = store.start_session("review", START)
        for index in range(cards):
            card_id = "attention" if index == 0 else f"sim-{index:03d}"
            state = None
            at = START + timedelta(minutes=index)
            for _ in range(reviews_each):
                if state is None:
                    rating = rng.choices(list(Rating), weights=(15, 10, 65, 10))[0]
                else:
                    card = FsrsCard.from_dict(state)
                    recalled = rng.random() < scheduler.get_card_retrievability(card, at)
                    passed = (Rating.Hard, Rating.Good, Rating.Easy)
                    rating = (
                        rng.choices(passed, weights=(15, 75, 10))[0] if recalled else Rating.Again
                    )
                new, log = review(scheduler, card_id, state, rating, at)
                state = new.to_dict()
                store.save_review(Review(card_id, int(rating), log.to_dict(), at, session), state)
                # Late by up to half the interval, as people are.
                at = new.due + (new.due - at) * rng.uniform(0, 0.5) + timedelta(seconds=1)


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sim") / "progress.db"
    simulate(path, cards=150, reviews_each=14)
    return path


@pytest.fixture
def history(simulated: Path, isolated_environment: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh copy of the simulated history as this test's progress database."""
    path = isolated_environment / "progress.db"
    shutil.copy(simulated, path)
    monkeypatch.setenv("QUIZZER_NOW", NOW)
    return path


def schedule_rows(path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT card_id, fsrs_card FROM schedule ORDER BY card_id").fetchall()


def parameter_rows(path: Path) -> list[tuple[str]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT parameters FROM fsrs_parameters").fetchall()


def test_fitted_parameters_predict_within_one_percent_of_the_true_ones(history):
    from fsrs_rs_python import FSRS

    with Store.open(history) as store:
        items = [i.item for i in optimizer.training_items(store, None)]
        fit = optimizer.fit(store)
    true_loss = FSRS(TRUE).evaluate(items).log_loss
    assert fit.reviews == 150 * 14 and fit.cards == 150
    assert fit.after.log_loss <= true_loss * 1.01, (fit.after.log_loss, true_loss)
    # The defaults are measurably worse on this learner: the test can tell a fit from none.
    assert fit.before.log_loss > true_loss * 1.01
    assert fit.held_out_after is not None and fit.held_out_before is not None


def test_optimize_json_shape_and_a_session_after_it_schedules_with_the_fit(invoke, history):
    before = dict(schedule_rows(history))
    result = invoke("optimize", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == EXPECTED_KEYS
    assert data["reviews"] == 150 * 14 and data["cards"] == 150 and data["saved"] is True
    assert len(data["parameters"]) == 21 and all(isinstance(w, float) for w in data["parameters"])
    for key in ("log_loss_before", "log_loss_after", "rmse_before", "rmse_after"):
        assert isinstance(data[key], float) and 0 <= data[key] < 1
    assert data["log_loss_after"] < data["log_loss_before"]
    with Store.open(history) as store:
        saved = saved_parameters(store)
        assert saved is not None and list(saved.parameters) == data["parameters"]
        assert list(learner_scheduler(store).parameters) == data["parameters"]
        state = store.fsrs_card("attention")
    after = dict(schedule_rows(history))
    assert after.keys() == before.keys() and after != before  # every card rescheduled
    # A real quiz now: attention answered right first time is rated Easy with the fit.
    assert state is not None
    quiz = invoke("quiz", "attention", input="sqrt(d_k)\nV\n")
    assert quiz.exit_code == 0, quiz.output
    moment = datetime.fromisoformat(NOW.replace("Z", "+00:00"))
    fitted = Scheduler(parameters=data["parameters"], enable_fuzzing=False)
    expected = fitted.review_card(FsrsCard.from_dict(state), Rating.Easy, moment)[0]
    default = Scheduler(enable_fuzzing=False).review_card(
        FsrsCard.from_dict(state), Rating.Easy, moment
    )[0]
    with Store.open(history) as store:
        now_state = store.fsrs_card("attention")
    assert now_state is not None
    assert now_state["stability"] == pytest.approx(expected.stability)
    assert expected.stability != pytest.approx(default.stability)


def test_optimize_human_view_shows_both_fits_and_the_held_out_part(invoke, history):
    result = invoke("optimize")
    assert result.exit_code == 0, result.output
    assert "fitted FSRS to 2100 reviews of 150 cards" in result.stdout
    assert "held out" in result.stdout and "log loss" in result.stdout
    assert "150 cards rescheduled" in result.output


def test_optimize_refuses_too_little_history_and_changes_nothing(invoke, isolated_environment):
    path = isolated_environment / "progress.db"
    result = invoke("optimize")
    assert result.exit_code == 1
    assert "needs at least 400 reviews (you have 0)" in result.output
    assert not path.exists()  # nothing created
    simulate(path, cards=10, reviews_each=5)
    before = schedule_rows(path)
    result = invoke("optimize", "--json")
    assert result.exit_code == 1
    assert "optimize needs at least 400 reviews (you have 50)" in result.output
    assert "Traceback" not in result.output and result.stdout == ""
    assert schedule_rows(path) == before and parameter_rows(path) == []


def test_optimize_with_an_unknown_tag_is_a_usage_error(invoke, history):
    result = invoke("optimize", "--tag", "no-such-tag")
    assert result.exit_code == 2
    assert "no card has the tag 'no-such-tag'" in result.output


def test_optimize_by_tag_fits_only_that_tags_reviews(invoke, history):
    # Only attention (tag "attention" among others) of the simulated cards is in the deck.
    result = invoke("optimize", "--tag", "attention", "--json")
    assert result.exit_code == 1
    assert "needs at least 400 reviews (you have 14)" in result.output


def test_a_failure_while_rescheduling_leaves_the_old_schedule(history, monkeypatch, invoke):
    before = schedule_rows(history)
    calls = []

    def fail_after_a_few(card_id: str) -> None:
        calls.append(card_id)
        if len(calls) == 20:
            raise OSError("disk gone")

    real = optimizer.save_and_reschedule
    monkeypatch.setattr(
        optimizer,
        "save_and_reschedule",
        lambda *args, **kw: real(*args, **kw, on_card=fail_after_a_few),
    )
    result = invoke("optimize")
    assert result.exit_code != 0 and len(calls) == 20
    assert schedule_rows(history) == before and parameter_rows(history) == []


KILLED_MID_WAY = """
import os, signal, sys
from quizzer.progress import optimizer
real = optimizer.save_and_reschedule
written = []
def kill_at_the_30th(card_id):
    written.append(card_id)
    if len(written) == 30:
        os.kill(os.getpid(), signal.SIGKILL)
optimizer.save_and_reschedule = lambda *a, **k: real(*a, **k, on_card=kill_at_the_30th)
from quizzer.launch import main
sys.argv = ["quizzer", "optimize"]
main()
"""


def test_a_kill_while_rescheduling_leaves_the_old_schedule(history):
    """A real process SIGKILLed with 29 cards rewritten in its transaction."""
    before = schedule_rows(history)
    env = dict(os.environ, QUIZZER_DB=str(history))
    process = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(KILLED_MID_WAY)],
        env=env,
        capture_output=True,
        timeout=300,
    )
    assert process.returncode == -signal.SIGKILL, process.stderr
    assert schedule_rows(history) == before and parameter_rows(history) == []
    with Store.open(history) as store:  # the file opens cleanly and still fits
        assert saved_parameters(store) is None


def test_damaged_saved_parameters_mean_the_defaults(history):
    with sqlite3.connect(history) as db:
        db.execute(
            "INSERT INTO fsrs_parameters VALUES (1, '[1, \"x\"]', '2025-01-01T00:00:00Z', 5, NULL)"
        )
    with Store.open(history) as store:
        assert saved_parameters(store) is None
        assert tuple(learner_scheduler(store).parameters) == tuple(Scheduler().parameters)


def test_the_fsrs_card_ids_are_the_schedulers(history):
    # The simulated states are the ones quizzer itself writes (same id mapping).
    with Store.open(history) as store:
        state = store.fsrs_card("sim-001")
    assert state is not None and state["card_id"] == fsrs_id("sim-001")


def test_the_fitted_parameters_as_config_lists_them(invoke, history):
    import io

    from quizzer.app.optimizing import saved
    from quizzer.app.workspace import Workspace
    from quizzer.ui.screen import Screen

    out = io.StringIO()
    screen = Screen(no_color=True, file=out, error_file=io.StringIO(), width=80)
    workspace = Workspace.from_environment()
    screen.optimizing.fitted_parameters(saved(workspace))
    assert invoke("optimize").exit_code == 0
    screen.optimizing.fitted_parameters(saved(workspace))
    lines = out.getvalue().splitlines()
    assert lines[0] == "fsrs_parameters    FSRS defaults (quizzer optimize fits yours)"
    assert lines[1] == "fsrs_parameters    fitted 2025-06-01 on 2100 reviews"
    assert len(lines) == 5 and all(len(line) <= 80 for line in lines)


def test_config_lists_the_parameters_in_use(invoke, history):
    assert "fsrs_parameters    FSRS defaults" in invoke("config").stdout
    assert invoke("optimize").exit_code == 0
    result = invoke("config")
    assert result.exit_code == 0
    assert "fsrs_parameters    fitted 2025-06-01 on 2100 reviews" in result.stdout
    assert "desired_retention" in result.stdout
    assert "fsrs_parameters" not in invoke("config", "--json").stdout  # settings only
