"""Sync of what is changed rather than added: flags, settings, fitted parameters; format 1 files."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from quizzer.progress import schedule
from quizzer.progress.flags import bury, card_flags, set_suspended
from quizzer.progress.parameters import saved_parameters
from quizzer.progress.settings import read_settings, read_sync_dir, write_setting, write_sync_dir
from quizzer.progress.stored import LEARNING, REVIEW, utc_time
from quizzer.progress.sync import device_id, replay, sync
from quizzer.progress.sync_files import SUFFIX, SYNC_VERSION, read_file
from tests.test_progress_sync import (
    LATER,
    START,
    fit,
    history,
    set_aside_and_settings,
    study,
    two,  # noqa: F401  (the fixture)
)

HOUR = timedelta(hours=1)


def test_set_aside_cards_settings_and_fits_reach_the_other_device(two) -> None:  # noqa: F811
    a, b, folder = two
    set_suspended(a, ["attention"], True)
    until = bury(a, "bayes", START)
    write_setting(a, "new_per_day", "5")
    fit(a, 2.0, START)
    first = sync(a, folder, now=START + HOUR)
    assert first.sent == 4  # suspended, buried, new_per_day, the parameters
    assert sync(b, folder, now=START + 2 * HOUR).received == first.sent
    assert set_aside_and_settings(b) == set_aside_and_settings(a)
    assert card_flags(b)["attention"].suspended
    assert card_flags(b)["bayes"].buried_until == until
    assert read_settings(b).new_per_day == 5
    saved = saved_parameters(b)
    assert saved is not None and saved.fitted_at == START
    # Nothing changed since: no device sends anything again.
    assert sync(b, folder, now=START + 3 * HOUR).sent == 0
    assert sync(a, folder, now=START + 3 * HOUR).sent == 0


def test_changed_apart_the_newest_change_wins_everywhere(two) -> None:  # noqa: F811
    a, b, folder = two
    set_suspended(a, ["attention"], True)
    sync(a, folder, now=START)
    sync(b, folder, now=START)
    # Apart: a changes new_per_day, then b unsuspends and changes it too, later.
    write_setting(a, "new_per_day", "9")
    sync(a, folder, now=START + 3 * HOUR)
    set_suspended(b, ["attention"], False)
    write_setting(b, "new_per_day", "12")
    fit(a, 0.5, START + 6 * HOUR)
    fit(b, 3.0, START + 7 * HOUR)
    for store, hours in ((b, 4), (a, 8), (b, 9)):
        sync(store, folder, now=START + hours * HOUR)
    for store in (a, b):
        assert read_settings(store).new_per_day == 12
        assert not card_flags(store)["attention"].suspended
        saved = saved_parameters(store)
        assert saved is not None and saved.fitted_at == START + 7 * HOUR  # the newest fit
    assert set_aside_and_settings(a) == set_aside_and_settings(b)


def test_a_change_made_after_a_merge_beats_what_was_merged(two) -> None:  # noqa: F811
    """A clock behind the other device's: what this device did after seeing it still wins."""
    a, b, folder = two
    write_setting(a, "desired_retention", "0.8")
    sync(a, folder, now=START + 10 * HOUR)
    sync(b, folder, now=START)
    write_setting(b, "desired_retention", "0.95")
    sync(b, folder, now=START + HOUR)  # b's clock says earlier than a's change
    sync(a, folder, now=START + 11 * HOUR)
    assert read_settings(a).desired_retention == read_settings(b).desired_retention == 0.95


def test_the_replay_uses_the_learners_settings_as_merged(two) -> None:  # noqa: F811
    a, b, folder = two
    write_setting(a, "learning_steps", "1h")
    write_setting(a, "desired_retention", "0.8")
    sync(a, folder, now=START)
    at = START + HOUR
    study(b, "attention", 3, at)  # b's own settings: the default steps, 1m 10m
    live = b.fsrs_cards()["attention"]
    assert live["state"] == LEARNING
    assert utc_time(live["due"]) == at + timedelta(minutes=10)
    sync(b, folder, now=LATER)
    sync(a, folder, now=LATER)
    assert history(a) == history(b)
    # One step (1h): Good graduates the card; FSRS gives days, not the default's 10 minutes.
    replayed = b.fsrs_cards()["attention"]
    assert replayed["state"] == REVIEW
    assert utc_time(replayed["due"]) - at >= timedelta(days=1)
    # What the merged settings' scheduler makes of the reviews, and not the default one.
    learner = schedule.learner_scheduler(b)
    assert learner.learning_steps == (HOUR,)
    with b.writing() as db:
        replay(db, learner, {"attention"})
    assert b.fsrs_cards()["attention"] == replayed
    with b.writing() as db:
        replay(db, schedule.make_scheduler(), {"attention"})
    assert b.fsrs_cards()["attention"] != replayed


def test_a_fit_from_the_other_device_replays_every_card(two) -> None:  # noqa: F811
    a, b, folder = two
    study(a, "attention", 1, START)  # a first Again: its stability is the first weight
    study(a, "attention", 3, START + timedelta(days=2))
    sync(a, folder, now=LATER)
    sync(b, folder, now=LATER)
    before = b.fsrs_cards()["attention"]
    fit(a, 3.0, LATER)
    sync(a, folder, now=LATER + HOUR)
    sync(b, folder, now=LATER + HOUR)
    after = b.fsrs_cards()["attention"]
    assert after != before  # stability from the fitted first weights
    assert after == a.fsrs_cards()["attention"]


def test_revealed_answers_and_undone_reviews_reach_the_other_device(two) -> None:  # noqa: F811
    from quizzer.progress.store import Attempt
    from quizzer.study.items import Grade
    from quizzer.study.recording import SessionProgress

    a, b, folder = two
    study(a, "attention", 1, START, revealed=True)
    progress = SessionProgress(a, schedule.make_scheduler(), "review", START + HOUR)
    progress.record_attempt(Attempt("bayes", "x", "u", True, 1, 0, 900, START + HOUR))
    progress.save_rating("bayes", Grade(3), START + HOUR, 900)
    sync(a, folder, now=LATER)  # sent before the undo
    progress.undo_review("bayes", START + HOUR)
    progress.end(START + HOUR)
    sync(a, folder, now=LATER)
    sync(b, folder, now=LATER)
    marks = dict(
        b.connection.execute("SELECT card_id, revealed || undone FROM attempts").fetchall()
    )
    assert marks == {"attention": "10", "bayes": "01"}
    assert "bayes" not in b.fsrs_cards()
    assert history(a) == history(b)


def test_the_sync_folder_setting_stays_on_its_machine(two) -> None:  # noqa: F811
    a, b, folder = two
    write_sync_dir(a, str(folder))
    write_setting(a, "new_per_day", "4")
    sync(a, folder, now=LATER)
    sync(b, folder, now=LATER)
    assert read_sync_dir(a) == str(folder)
    assert read_sync_dir(b) == ""
    assert read_settings(b).new_per_day == 4
    assert all("sync_dir" not in p.read_text() for p in folder.glob(f"*{SUFFIX}"))


def _as_format_1(path: Path) -> None:
    """Rewrite a file as a format 1 quizzer wrote it: no revealed, none of the new kinds."""
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    head["version"] = 1
    kept = [json.dumps(head)]
    for line in lines[1:]:
        entry = json.loads(line)
        if entry["kind"] in ("undone", "set"):
            continue
        entry.pop("revealed", None)  # not part of an attempt's id: the ids stay
        kept.append(json.dumps(entry))
    path.write_text("\n".join(kept) + "\n")


def test_a_format_1_file_is_merged_and_its_device_goes_on_in_a_new_file(two) -> None:  # noqa: F811
    a, b, folder = two
    study(a, "attention", 3, START)
    sync(a, folder, now=LATER)
    old = folder / f"{device_id(a)}{SUFFIX}"
    _as_format_1(old)
    assert read_file(old).problems == []
    assert sync(b, folder, now=LATER).received == 3
    # a, upgraded, must not append format 2 entries to a file a format 1 quizzer reads.
    set_suspended(a, ["softmax"], True)
    study(a, "softmax", 2, START + HOUR)
    sync(a, folder, now=LATER + HOUR)
    new = folder / f"{device_id(a)}.v{SYNC_VERSION}{SUFFIX}"
    assert json.loads(new.read_text().splitlines()[0])["version"] == SYNC_VERSION
    assert len(old.read_text().splitlines()) == 4  # the header and three entries, untouched
    result = sync(b, folder, now=LATER + HOUR)
    assert result.devices == 2
    assert history(a) == history(b)
    assert card_flags(b)["softmax"].suspended


def test_answers_alike_to_the_millisecond_are_two_answers(two) -> None:  # noqa: F811
    """Piped answers (or a stopped clock) record attempts and reviews that say all the same."""
    a, b, folder = two
    for _ in range(3):
        study(a, "attention", 1, START, revealed=True)
    sync(a, folder, now=LATER)
    sync(b, folder, now=LATER)
    assert len(list(b.each_attempt())) == len(list(a.each_attempt())) == 3
    assert len(b.reviews("attention")) == 3
    assert history(a) == history(b)
    assert b.reviews_by_card() == a.reviews_by_card() == {"attention": (3, 2)}


def test_a_setting_only_a_newer_quizzer_knows_is_kept_as_it_came(two) -> None:  # noqa: F811
    from quizzer.progress.sync_ids import set_id

    a, _, folder = two
    sync(a, folder, now=START)
    entry = {
        "kind": "set",
        "key": "setting:daily_goal",
        "value": "30",
        "at": "2026-01-01T09:00:00.000+00:00",
        "device": "f",
    }
    entry["id"] = set_id(entry)
    head = {"format": "quizzer-sync", "version": SYNC_VERSION, "device": "f"}
    (folder / "f.jsonl").write_text(json.dumps(head) + "\n" + json.dumps(entry) + "\n")
    assert sync(a, folder, now=LATER).received == 1
    assert sync(a, folder, now=LATER).sent == 0  # not taken back as "changed here"
    assert a.connection.execute(
        "SELECT value FROM settings WHERE key = 'daily_goal'"
    ).fetchone() == ("30",)


def test_a_change_is_dated_when_it_was_made_not_when_it_was_synced(two) -> None:  # noqa: F811
    """a changes first but syncs last; b's later change is the newest and wins everywhere."""
    a, b, folder = two
    write_setting(a, "new_per_day", "7", now=START + HOUR)
    set_suspended(a, ["attention"], True, now=START + HOUR)
    write_setting(b, "new_per_day", "11", now=START + 2 * HOUR)
    set_suspended(b, ["attention"], False, now=START + 2 * HOUR)
    sync(b, folder, now=START + 3 * HOUR)
    sync(a, folder, now=START + 5 * HOUR)  # a's changes reach the folder last
    sync(b, folder, now=START + 6 * HOUR)
    for store in (a, b):
        assert read_settings(store).new_per_day == 11
        assert not card_flags(store)["attention"].suspended
    assert set_aside_and_settings(a) == set_aside_and_settings(b)


def test_a_bury_is_dated_by_its_own_time(two) -> None:  # noqa: F811
    a, b, folder = two
    bury(b, "bayes", START + 2 * HOUR)  # the newer bury
    bury(a, "bayes", START + HOUR)
    sync(b, folder, now=START + 3 * HOUR)
    sync(a, folder, now=START + 4 * HOUR)
    sync(b, folder, now=START + 5 * HOUR)
    until = card_flags(b)["bayes"].buried_until
    assert card_flags(a)["bayes"].buried_until == until
    assert until is not None and until > START + 2 * HOUR
