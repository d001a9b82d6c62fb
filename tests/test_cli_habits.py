"""The daily loop from the command line: config, suspend, bury, undo, learning steps (issue 24)."""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from quizzer.progress.settings import DEFAULTS
from quizzer.study import defaults

from .conftest import bundled_deck

NOW = "2026-12-01T10:00:00Z"


def _cards_tagged(tag: str) -> int:
    return sum(tag in loaded.card.tags for loaded in bundled_deck().cards)


#: How many bundled cards carry the attention tag: it grows as cards are written.
ATTENTION_TAGGED = _cards_tagged("attention")
AFTER = f"card 1 of {ATTENTION_TAGGED - 1}"  # one of them suspended or buried


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch):
    monkeypatch.setenv("QUIZZER_NOW", NOW)


def db_rows(query: str) -> list[tuple]:
    with closing(sqlite3.connect(os.environ["QUIZZER_DB"])) as connection:
        return connection.execute(query).fetchall()


def listed(invoke, card_id: str) -> dict:
    result = invoke("list", "--json")
    assert result.exit_code == 0, result.output
    (item,) = [c for c in json.loads(result.stdout) if c["id"] == card_id]
    return item


# -- config -------------------------------------------------------------------------


def test_config_prints_the_defaults_and_creates_nothing(invoke):
    result = invoke("config", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "desired_retention": 0.9,
        "new_per_day": 20,
        "learning_steps": "1m 10m",
        "relearning_steps": "10m",
    }
    assert not Path(os.environ["QUIZZER_DB"]).exists()


def test_config_writes_a_setting_to_the_progress_database(invoke):
    assert invoke("config", "learning_steps", "2m, 15m 1h").exit_code == 0
    result = invoke("config", "learning_steps")
    assert result.stdout.split() == ["learning_steps", "2m", "15m", "1h"]
    assert db_rows("SELECT key, value FROM settings") == [("learning_steps", "2m 15m 1h")]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("desired_retention", "0.5"), "desired_retention is a number from 0.7 to 0.99"),
        (("desired_retention", "1"), "desired_retention is a number from 0.7 to 0.99"),
        (("desired_retention", "nan"), "desired_retention is a number from 0.7 to 0.99"),
        (("new_per_day", "many"), "new_per_day is a whole number"),
        (("new_per_day", "2.5"), "new_per_day is a whole number"),
        (("learning_steps", "10"), "'10' is not a step"),
        (("learning_steps", "30s"), "each step is from 1m to under 1d"),
        (("relearning_steps", "2d"), "each step is from 1m to under 1d"),
        (("retention",), "unknown setting 'retention'"),
        (("retention", "0.9"), "unknown setting 'retention'"),
    ],
)
def test_a_bad_setting_is_one_line_and_exit_2(invoke, args, message):
    result = invoke("config", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not Path(os.environ["QUIZZER_DB"]).exists()  # nothing written


def test_the_config_default_is_the_review_default():
    assert DEFAULTS.new_per_day == defaults.NEW_PER_DAY


def test_review_respects_new_per_day_across_sessions_of_one_day(invoke):
    assert invoke("config", "new_per_day", "1").exit_code == 0
    result = invoke("review", input="!\n" * 4)  # the one new card of the day, revealed
    assert "Review: 0 due, 1 new" in result.stdout
    result = invoke("review", input="")
    assert "Nothing due. Next:" in result.stdout  # the day's one new card was taken
    # --new still wins over the setting.
    assert "Review: 0 due, 2 new" in invoke("review", "--new", "3", input="").stdout


# -- suspend, bury, undo ---------------------------------------------------------------


def test_suspend_and_unsuspend_round_trip_and_show_in_list(invoke):
    assert listed(invoke, "attention")["suspended"] is False
    result = invoke("suspend", "attention", "attention")
    assert result.exit_code == 0 and "suspended 1 card: attention" in result.stdout
    item = listed(invoke, "attention")
    assert (item["suspended"], item["buried_until"]) == (True, None)
    assert "suspended" in invoke("list").stdout
    assert invoke("unsuspend", "attention").exit_code == 0
    assert listed(invoke, "attention")["suspended"] is False


def test_suspending_an_unknown_card_is_exit_2_and_writes_nothing(invoke):
    result = invoke("suspend", "no-such-card")
    assert result.exit_code == 2 and "unknown card: no-such-card" in result.stderr
    assert not Path(os.environ["QUIZZER_DB"]).exists()


def test_a_suspended_card_is_never_chosen_unless_named(invoke):
    assert f"card 1 of {ATTENTION_TAGGED}" in invoke("quiz", "--tag", "attention", input="").stdout
    assert (
        f"0 due, {ATTENTION_TAGGED} new" in invoke("review", "--tag", "attention", input="").stdout
    )
    invoke("suspend", "attention")
    assert AFTER in invoke("quiz", "--tag", "attention", input="").stdout
    assert (
        f"0 due, {ATTENTION_TAGGED - 1} new"
        in invoke("review", "--tag", "attention", input="").stdout
    )
    assert AFTER in invoke("drill", "--tag", "attention", "-n", "50", input="").stdout
    named = invoke("quiz", "attention", input="")
    assert "Scaled dot-product attention" in named.stdout


def test_a_suspended_card_is_left_out_of_export_but_not_of_an_audit(invoke, tmp_path):
    from quizzer.app.choosing import CardChoice, choose_cards
    from quizzer.app.workspace import Workspace

    invoke("suspend", "attention")
    exported = tmp_path / "deck.json"
    assert invoke("export", "json", str(exported), "--tag", "attention").exit_code == 0
    ids = [card["id"] for card in json.loads(exported.read_text(encoding="utf-8"))]
    assert "attention" not in ids and len(ids) == ATTENTION_TAGGED - 1
    workspace = Workspace.from_environment()
    every = CardChoice(tags=("attention",), set_aside_too=True)  # what `audit` chooses
    assert "attention" in [c.id for c in choose_cards(workspace, every)]
    assert "attention" not in [
        c.id for c in choose_cards(workspace, CardChoice(tags=("attention",)))
    ]


def test_bury_at_a_prompt_sets_the_card_aside_until_tomorrow(invoke, monkeypatch):
    result = invoke("quiz", "attention", input="/bury\n")
    assert result.exit_code == 0
    assert "buried attention until Wed 02 Dec 00:00 UTC" in result.stdout
    assert listed(invoke, "attention")["buried_until"].startswith("2026-12-02T00:00:00")
    assert db_rows("SELECT count(*) FROM reviews") == [(0,)]  # set aside, not rated
    assert AFTER in invoke("quiz", "--tag", "attention", input="").stdout
    monkeypatch.setenv("QUIZZER_NOW", "2026-12-02T00:00:01Z")
    assert f"card 1 of {ATTENTION_TAGGED}" in invoke("quiz", "--tag", "attention", input="").stdout


def test_suspend_at_a_blank_after_an_answer_saves_the_answer_and_no_review(invoke):
    result = invoke("quiz", "attention", input="sqrt(d_k)\n/suspend\n")
    assert "suspended attention" in result.stdout
    assert db_rows("SELECT blank, correct FROM attempts") == [("scale", 1)]
    assert db_rows("SELECT count(*) FROM reviews") == [(0,)]
    assert listed(invoke, "attention")["suspended"] is True


def test_undo_at_the_next_card_takes_back_the_review_and_marks_the_attempts(invoke):
    # attention then a second card; /undo at the second card's first prompt.
    first = invoke("quiz", "attention", input="sqrt(d_k)\nV\n")
    assert listed(invoke, "attention")["seen"] == 1
    before = db_rows("SELECT fsrs_card FROM schedule WHERE card_id = 'attention'")
    result = invoke("quiz", "attention", "softmax-temperature", input="!\n!\n/undo\n/undo\n")
    assert first.exit_code == 0 and result.exit_code == 0
    assert "took back the rating of attention" in result.stdout
    assert "/undo takes back" in result.stdout  # a second /undo has nothing to take back
    assert listed(invoke, "attention")["seen"] == 1  # the second review is gone
    assert db_rows("SELECT fsrs_card FROM schedule WHERE card_id = 'attention'") == before
    marked = db_rows(
        "SELECT given, revealed, undone FROM attempts WHERE card_id = 'attention' ORDER BY id"
    )
    assert marked == [("sqrt(d_k)", 0, 0), ("V", 0, 0), ("!", 1, 1), ("!", 1, 1)]


def test_undo_of_a_new_card_forgets_its_schedule(invoke):
    invoke("quiz", "attention", "softmax-temperature", input="sqrt(d_k)\nV\n/undo\n")
    assert listed(invoke, "attention")["due"] is None
    assert db_rows("SELECT count(*) FROM reviews WHERE card_id = 'attention'") == [(0,)]


# -- keys ---------------------------------------------------------------------------------


def test_an_unknown_command_is_not_judged(invoke):
    result = invoke("quiz", "attention", input="/help\nsqrt(d_k)\nV\n")
    assert (
        "unknown command /help; try ? ! /skip /override /suspend /bury /undo /quit" in result.stdout
    )
    assert "unexpected '/'" not in result.stdout
    assert db_rows("SELECT given FROM attempts ORDER BY id") == [("sqrt(d_k)",), ("V",)]


def test_the_key_banner_is_not_printed_in_a_piped_run(invoke):
    assert "Keys:" not in invoke("quiz", "attention", input="sqrt(d_k)\nV\n").stdout


# -- learning steps -------------------------------------------------------------------------


def test_a_card_rated_again_comes_back_in_the_session_until_it_graduates(invoke):
    # Revealed first: Again (1m step). Nothing else is left, so it is shown again at once
    # (learn-ahead); right twice takes it through the 10m step out of learning.
    result = invoke("quiz", "attention", input="!\n!\nsqrt(d_k)\nV\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("Scaled dot-product attention  #") == 2
    assert "card 2 of 2" in result.stdout
    assert "attention (shown 2×)" in result.stdout
    ratings = [r for (r,) in db_rows("SELECT rating FROM reviews ORDER BY id")]
    assert ratings[0] == 1 and len(ratings) == 2
    # A revealed blank is a wrong attempt: 2 of 4 right.
    assert "accuracy 50% (2 of 4 answers right)" in result.stdout


def headings(out: str) -> list[str]:
    """Each card shown, in order, as ``N of M title``."""
    lines = out.splitlines()
    return [
        f"{lines[i].split('card ')[-1].strip()} {lines[i + 1].split('  #')[0]}"
        for i in range(len(lines) - 1)
        if lines[i].startswith("─") and " of " in lines[i]
    ]


def test_a_learning_card_waits_for_its_step_while_other_cards_are_left(invoke):
    # attention is revealed (Again, due in 1 minute with the clock stopped): the other
    # card comes first, then attention again since nothing else is left (learn-ahead).
    result = invoke("quiz", "attention", "softmax-temperature", input="!\n" * 12)
    # Both revealed, so both come back, each when its turn is due.
    shown = headings(result.stdout)
    assert shown[:3] == [
        "1 of 2 Scaled dot-product attention",
        "2 of 3 Softmax temperature",
        "3 of 4 Scaled dot-product attention",
    ]
    assert shown[3].startswith("4 of ") and shown[3].endswith("Softmax temperature")


def test_no_learning_card_comes_back_beyond_the_learn_ahead_window(invoke):
    assert invoke("config", "learning_steps", "30m").exit_code == 0
    result = invoke("quiz", "attention", input="!\n!\n" + "x\n" * 6)
    assert headings(result.stdout) == ["1 of 1 Scaled dot-product attention"]
    assert "stopped" not in result.stdout  # the session finished: nothing was left to ask


def test_a_new_card_rated_hard_comes_back_and_graduates_when_easy(invoke):
    # QUIZZER_NOW holds the clock: a hint makes it Hard (still in its first learning
    # step, due in minutes), so it is asked again at once (learn-ahead); right at once
    # the second time is Easy, which graduates it, and the session finishes.
    result = invoke("quiz", "attention", input="?\nsqrt(d_k)\nV\nsqrt(d_k)\nV\n")
    assert result.exit_code == 0, result.output
    assert headings(result.stdout) == [
        "1 of 1 Scaled dot-product attention",
        "2 of 2 Scaled dot-product attention",
    ]
    assert [r for (r,) in db_rows("SELECT rating FROM reviews ORDER BY id")] == [2, 4]
    assert "attention (shown 2×)" in result.stdout
    assert "stopped" not in result.stdout


def test_a_card_answered_right_is_asked_once(invoke):
    result = invoke("quiz", "attention", input="sqrt(d_k)\nV\n")
    assert result.stdout.count("Scaled dot-product attention  #") == 1


def test_override_rates_good_not_easy_and_is_marked_in_stats(invoke):
    result = invoke("quiz", "attention", input="d_k\n/override\nV\n")
    assert "scheduled Good" in result.stdout
    stats = invoke("stats", "attention").stdout
    assert "✓ overridden" in stats


def test_a_card_due_later_today_shows_its_time_in_list(invoke):
    invoke("quiz", "attention", input="!\n!\n")  # Again: due in a minute, then ends
    out = invoke("list").stdout
    (line,) = [ln for ln in out.splitlines() if ln.strip().startswith("attention ")]
    assert "10:0" in line and "2026-12-01" not in line


def test_settings_travel_with_a_progress_backup(invoke, tmp_path, monkeypatch):
    backup = tmp_path / "backup.json"
    assert invoke("config", "desired_retention", "0.85").exit_code == 0
    assert invoke("progress", "export", str(backup)).exit_code == 0
    assert json.loads(backup.read_text())["settings"] == {"desired_retention": "0.85"}
    monkeypatch.setenv("QUIZZER_DB", str(tmp_path / "other.db"))
    assert invoke("config", "desired_retention").stdout.split() == ["desired_retention", "0.9"]
    for _ in range(2):  # importing again changes nothing
        assert invoke("progress", "import", str(backup)).exit_code == 0
        shown = invoke("config", "desired_retention").stdout.split()
        assert shown == ["desired_retention", "0.85"]


def test_a_backup_without_saved_settings_has_no_settings_section(invoke, tmp_path):
    backup = tmp_path / "backup.json"
    invoke("quiz", "attention", input="sqrt(d_k)\nV\n")
    assert invoke("progress", "export", str(backup)).exit_code == 0
    assert "settings" not in json.loads(backup.read_text())
