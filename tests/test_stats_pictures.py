"""`stats` pictures (calendar heatmap, 30-day forecast, retention by month) and their JSON."""

from __future__ import annotations

import io
import itertools
import json
import re
from datetime import datetime, timedelta, timezone

import pytest

from quizzer.progress.calendar import Retention, calendar_start, reviews_per_day
from quizzer.progress.stats import Report
from quizzer.progress.store import Store
from quizzer.ui.screen import Screen
from tests.test_optimize import START, simulate

NOW = datetime(2024, 9, 15, 12, tzinfo=timezone.utc)
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def sample_report() -> Report:
    days = {
        (NOW - timedelta(days=back)).date().isoformat(): (back * 7) % 50
        for back in range(0, 180, 2)
    }
    return Report(
        attempts=10,
        correct=7,
        cards_seen=3,
        sessions=2,
        reviews=40,
        streak_days=1,
        study_days=5,
        due_now=2,
        forecast=[3, 0, 1] + [0] * 11,
        calendar=days,
        retention={"2024-07": Retention(100, 85), "2024-08": Retention(80, 76)},
        retention_by_tag={"ml": Retention(50, 45)},
        desired_retention=0.9,
        forecast_month=[(i * 5) % 17 for i in range(30)],
    )


def rendered(colour: bool, monkeypatch: pytest.MonkeyPatch) -> str:
    if colour:
        monkeypatch.delenv("NO_COLOR", raising=False)
        monkeypatch.setenv("FORCE_COLOR", "1")
    out = io.StringIO()
    screen = Screen(no_color=not colour, file=out, error_file=io.StringIO(), width=80)
    screen.stats.report(sample_report(), "progress.db", NOW)
    return out.getvalue()


@pytest.mark.parametrize("colour", [False, True], ids=["NO_COLOR", "colour"])
def test_stats_pictures_fit_80_columns(colour, monkeypatch):
    text = rendered(colour, monkeypatch)
    for line in ANSI.sub("", text).splitlines():
        assert len(line) <= 80, line
    assert ("\x1b[" in text) is colour


def test_stats_pictures_say_the_same_without_colour(monkeypatch):
    plain = rendered(False, monkeypatch)
    coloured = ANSI.sub("", rendered(True, monkeypatch))
    assert [line.rstrip() for line in plain.splitlines()] == [
        line.rstrip() for line in coloured.splitlines()
    ]
    for heading in (
        "Reviews, the last 26 weeks",
        "Due in the next 30 days (peak 16)",
        "Retention by month (bars from 50%; desired 90%, marked |)",
        "Lowest recall by tag",
        "recall (desired 90%)",  # achieved next to desired, by tag as by month
    ):
        assert heading in plain
    assert "2024-07" in plain and "85.0%" in plain and "95.0%" in plain
    # The busiest day of the sample is the darkest shade; a day without reviews is a dot.
    assert "█" in plain and "·" in plain
    assert "about 8 a day at 90% desired retention" in plain


def test_calendar_counts_reviews_a_day_in_sql(tmp_path):
    path = tmp_path / "progress.db"
    simulate(path, cards=20, reviews_each=6)
    now = START + timedelta(days=60)
    with Store.open(path) as store:
        counted = reviews_per_day(store, now)
        every = [r.at for r in store.reviews() if calendar_start(now) <= r.at <= now]
    expected: dict[str, int] = {}
    for at in every:
        expected[at.date().isoformat()] = expected.get(at.date().isoformat(), 0) + 1
    assert counted == expected and sum(counted.values()) > 0


def test_stats_json_has_calendar_and_retention(invoke, isolated_environment, monkeypatch):
    path = isolated_environment / "progress.db"
    simulate(path, cards=40, reviews_each=8)
    monkeypatch.setenv("QUIZZER_NOW", "2024-06-01T00:00:00Z")
    now = datetime(2024, 6, 1, tzinfo=timezone.utc)
    result = invoke("stats", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["forecast"]) == 14  # the contract's forecast is unchanged
    assert data["calendar"] and all(
        re.fullmatch(r"\d{4}-\d\d-\d\d", day) and n > 0 for day, n in data["calendar"].items()
    )
    assert data["retention"] and all(
        re.fullmatch(r"\d{4}-\d\d", month) and 0 <= rate <= 1
        for month, rate in data["retention"].items()
    )
    assert data["desired_retention"] == 0.9
    # Recomputed from the stored reviews: recall among reviews a day or more after the last.
    with Store.open(path) as store:
        reviews = sorted(store.reviews(), key=lambda r: (r.card_id, r.at))
    recalled: dict[str, list[int]] = {}
    for before, after in itertools.pairwise(reviews):
        same_card = before.card_id == after.card_id and after.at <= now
        if same_card and after.at.date() > before.at.date():
            month = recalled.setdefault(after.at.strftime("%Y-%m"), [0, 0])
            month[0] += 1
            month[1] += after.rating > 1
    expected = {m: r / n for m, (n, r) in sorted(recalled.items()) if m >= "2023-07"}
    assert data["retention"] == pytest.approx(expected)


def test_review_shows_the_workload_the_schedule_implies(invoke, isolated_environment, monkeypatch):
    path = isolated_environment / "progress.db"
    simulate(path, cards=1, reviews_each=3)  # attention, scheduled
    monkeypatch.setenv("QUIZZER_NOW", "2099-01-01T00:00:00Z")
    result = invoke("review", "--new", "0", input="")
    assert result.exit_code == 0, result.output
    assert "Review: 1 due, 0 new" in result.stdout
    assert "1 review due in the next 30 days, about 0 a day at 90% desired retention" in (
        result.stdout
    )
