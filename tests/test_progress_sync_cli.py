"""Sync as a learner uses it: two installs through one folder, config sync_dir, a kill."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from quizzer.cli import app
from quizzer.progress.settings import write_setting
from quizzer.progress.store import Store
from quizzer.progress.sync import sync
from quizzer.progress.sync_files import SUFFIX
from tests.test_progress_sync import (
    CARDS,
    LATER,
    START,
    history,
    set_aside_and_settings,
    study,
    sync_killed_after,
)

ATTENTION = "sqrt(d_k)\nV\n"
REVEAL = "!\n" * 8


class Install:
    """One quizzer install: its own progress database (QUIZZER_DB, or its data folder)."""

    def __init__(self, root: Path, *, data_folder_only: bool) -> None:
        self.env: dict[str, str | None] = {"XDG_DATA_HOME": str(root / "data")}
        # The second install has no QUIZZER_DB: its database is in its own data folder.
        self.env["QUIZZER_DB"] = None if data_folder_only else str(root / "progress.db")
        self.runner = CliRunner()

    def run(self, *args: str, at: str, input: str | None = None, code: int = 0):
        result = self.runner.invoke(
            app, list(args), input=input, env={**self.env, "QUIZZER_NOW": at}
        )
        assert result.exit_code == code, (args, result.output)
        return result

    def stats_and_due(self, at: str) -> tuple[dict[str, object], dict[str, object]]:
        stats = json.loads(self.run("stats", "--json", at=at).stdout)
        stats["cards"] = [
            json.loads(self.run("stats", card, "--json", at=at).stdout)
            for card in ("attention", "online-softmax")
        ]
        listed = json.loads(self.run("list", "--json", at=at).stdout)
        return stats, {c["id"]: (c["due"], c["suspended"]) for c in listed}


def test_two_installs_through_one_folder_end_with_the_same_stats_and_due_dates(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    one = Install(tmp_path / "one", data_folder_only=False)
    two = Install(tmp_path / "two", data_folder_only=True)
    sync_one = ("sync", str(folder), "--json")
    one.run("quiz", "attention", at="2026-12-01T09:00:00Z", input=ATTENTION)
    two.run("quiz", "attention", at="2026-12-01T09:30:00Z", input=REVEAL)  # the same card
    two.run("quiz", "online-softmax", at="2026-12-01T10:00:00Z", input=REVEAL)  # another
    one.run("suspend", "bayes-rule", at="2026-12-01T10:00:00Z")
    two.run("config", "desired_retention", "0.85", at="2026-12-01T10:00:00Z")
    sent = json.loads(two.run(*sync_one, at="2026-12-01T11:00:00Z").stdout)
    assert sent["devices"] == 1 and sent["sent"] > 0
    got = json.loads(one.run(*sync_one, at="2026-12-01T12:00:00Z").stdout)
    assert got["received"] == sent["sent"]
    assert got["devices"] == 2
    one.run("quiz", "attention", at="2026-12-03T09:00:00Z", input=ATTENTION)  # after merging
    for install, hour in ((one, 13), (two, 14), (one, 15)):
        install.run(*sync_one, at=f"2026-12-03T{hour}:00:00Z")
    at = "2026-12-03T16:00:00Z"
    stats, due = one.stats_and_due(at)
    other_stats, other_due = two.stats_and_due(at)
    assert stats == other_stats, (stats, other_stats)
    assert due == other_due
    assert stats["reviews"] >= 4  # both attention reviews of one, two's of both cards
    assert stats["desired_retention"] == 0.85
    assert due["bayes-rule"] == (None, True)
    assert due["attention"][0] is not None and due["online-softmax"][0] is not None
    assert len(list(folder.glob(f"*{SUFFIX}"))) == 2
    # Syncing again, in either order, changes nothing more.
    for install in (two, one):
        again = json.loads(install.run(*sync_one, at=at).stdout)
        assert (again["sent"], again["received"]) == (0, 0)


def test_a_sync_killed_at_any_moment_loses_flags_and_settings_neither(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    with Store.open(tmp_path / "a.db") as a:
        for n in range(60):
            study(a, CARDS[n % 3], 1 + n % 4, START.replace(hour=n % 24, minute=n))
        a.reset("bayes")
        write_setting(a, "learning_steps", "2m 20m")
        write_setting(a, "desired_retention", "0.85")
        from quizzer.progress.flags import bury, set_suspended

        set_suspended(a, ["softmax"], True)
        bury(a, "attention", START)
    sync_killed_after(tmp_path / "a.db", folder, (0.05, 0.3, 0.8))
    with Store.open(tmp_path / "a.db") as a, Store.open(tmp_path / "b.db") as b:
        for store in (a, b, a, b):
            sync(store, folder, now=LATER)
        assert history(a) == history(b)
        assert set_aside_and_settings(b) == set_aside_and_settings(a)
        assert set_aside_and_settings(b)["settings"] == {
            "learning_steps": "2m 20m",
            "desired_retention": "0.85",
        }
        assert len(list(b.each_review())) == 40  # bayes's 20 were reset before any sync


# -- config sync_dir: automatic sync ---------------------------------------------------------

NOW = "2026-12-01T10:00:00Z"


@pytest.fixture
def invoke(runner: CliRunner):
    def run(*args: str, input: str | None = None, **env: str | None):
        return runner.invoke(app, list(args), input=input, env={"QUIZZER_NOW": NOW, **env})

    return run


def attempts_seen_through(folder: Path, tmp_path: Path) -> int:
    """How many attempts another device gets from the folder."""
    with Store.open(tmp_path / "other.db") as other:
        sync(other, folder, now=LATER)
        return len(list(other.each_attempt()))


def test_config_sync_dir_makes_study_commands_sync_at_start_and_end(invoke, tmp_path: Path):
    folder = tmp_path / "shared"
    folder.mkdir()
    chosen = invoke("config", "sync_dir", str(folder))
    assert chosen.exit_code == 0, chosen.output
    assert chosen.stdout.split() == ["sync_dir", str(folder)]
    assert json.loads(invoke("config", "sync_dir", "--json").stdout) == {"sync_dir": str(folder)}
    assert json.loads(invoke("config", "--json").stdout)["sync_dir"] == str(folder)
    done = invoke("quiz", "attention", input=ATTENTION)
    assert done.exit_code == 0, done.output
    assert "sync" not in done.stderr
    assert attempts_seen_through(folder, tmp_path) == 2  # sent by the sync at its end
    # What another device did arrives at the start of the next session.
    with Store.open(tmp_path / "other.db") as other:
        write_setting(other, "new_per_day", "3")
        sync(other, folder, now=LATER)
    assert invoke("review", input="").exit_code == 0
    assert json.loads(invoke("config", "new_per_day", "--json").stdout) == {"new_per_day": 3}


def test_an_unreachable_sync_dir_is_one_line_and_the_session_is_kept(invoke, tmp_path: Path):
    gone = tmp_path / "unplugged" / "quizzer"
    assert invoke("config", "sync_dir", str(gone)).exit_code == 0
    done = invoke("quiz", "attention", input=ATTENTION)
    assert done.exit_code == 0, done.output
    lines = [line for line in done.stderr.splitlines() if "sync" in line]
    expected = f"quizzer: warning: sync skipped: sync folder not found: {gone}"
    assert lines == [expected] * 2  # at its start and at its end
    with Store.open(Path(os.environ["QUIZZER_DB"])) as store:
        assert len(store.reviews("attention")) == 1  # the review is kept, here
    # The folder is back: the next session sends everything.
    gone.mkdir(parents=True)
    later = "2026-12-02T10:00:00Z"
    assert invoke("quiz", "attention", input=ATTENTION, QUIZZER_NOW=later).exit_code == 0
    assert attempts_seen_through(gone, tmp_path) == 4


def test_quizzer_sync_dir_wins_and_an_empty_sync_dir_turns_it_off(invoke, tmp_path: Path):
    configured, from_env = tmp_path / "configured", tmp_path / "env"
    configured.mkdir()
    from_env.mkdir()
    assert invoke("config", "sync_dir", str(configured)).exit_code == 0
    done = invoke("quiz", "attention", input=ATTENTION, QUIZZER_SYNC_DIR=str(from_env))
    assert done.exit_code == 0, done.output
    assert list(from_env.glob(f"*{SUFFIX}")) and not list(configured.glob(f"*{SUFFIX}"))
    off = invoke("config", "sync_dir", "")
    assert off.exit_code == 0
    assert off.stdout.split() == ["sync_dir"]
    assert "sync_dir" not in json.loads(invoke("config", "--json").stdout)
    assert invoke("quiz", "attention", input=ATTENTION).exit_code == 0
    assert not list(configured.glob(f"*{SUFFIX}"))


def test_sync_dir_is_a_folder(invoke, tmp_path: Path):
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x")
    refused = invoke("config", "sync_dir", str(a_file))
    assert refused.exit_code == 2
    assert refused.stderr.strip().splitlines()[-1].endswith(f"{a_file} is a file")
    assert not Path(os.environ["QUIZZER_DB"]).exists()  # nothing created for a refusal
