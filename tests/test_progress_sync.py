"""Sync through one folder: databases converge, whatever the order of studying and syncing."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from fsrs import Rating
from fsrs.scheduler import DEFAULT_PARAMETERS
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from typer.testing import CliRunner

from quizzer.cli import app
from quizzer.progress import schedule
from quizzer.progress.flags import NOT_FLAGGED, bury, card_flags, set_suspended
from quizzer.progress.parameters import save_parameters, saved_parameters
from quizzer.progress.settings import SYNC_DIR, saved_settings, write_setting
from quizzer.progress.store import Attempt, Store
from quizzer.progress.sync import device_id, sync
from quizzer.progress.sync_files import SUFFIX, SYNC_VERSION, read_file
from quizzer.study.items import Grade
from quizzer.study.recording import SessionProgress

START = datetime(2026, 1, 1, 9, tzinfo=timezone.utc)
CARDS = ("attention", "softmax", "bayes")
#: When the single cases sync: after everything they study.
LATER = START + timedelta(days=60)


def study(
    store: Store,
    card: str,
    grade: int,
    at: datetime,
    *,
    override: bool = False,
    revealed: bool = False,
) -> None:
    """One card studied: a (wrong or right) attempt and a review, as a session saves them."""
    progress = SessionProgress(store, schedule.make_scheduler(), "review", at)
    correct = grade > 1 and not revealed
    progress.record_attempt(Attempt(card, "x", "y", correct, 1, 0, 1200, at, revealed=revealed))
    if override:
        progress.record_override(card, "x", 1)
    progress.save_rating(card, Grade(grade), at, 1200)
    progress.end(at)


def history(store: Store) -> dict[str, object]:
    """Everything two converged databases must agree on."""
    attempts = sorted(
        (a.card_id, a.blank, a.given, a.correct, a.try_number, a.ms, a.at, a.overridden)
        for a in store.each_attempt()
    )
    marks = sorted(store.connection.execute("SELECT card_id, at, revealed, undone FROM attempts"))
    reviews = sorted((r.card_id, r.rating, r.at) for r in store.each_review())
    return {
        "attempts": attempts,
        "marks": marks,
        "reviews": reviews,
        "schedule": store.fsrs_cards(),
        "sessions": store.session_count(),
        **set_aside_and_settings(store),
    }


def set_aside_and_settings(store: Store) -> dict[str, object]:
    """What a learner chose rather than did: flags, settings, fitted parameters."""
    flags = {card: f for card, f in card_flags(store).items() if f != NOT_FLAGGED}
    chosen = {k: v for k, v in saved_settings(store).items() if k != SYNC_DIR}
    return {"flags": flags, "settings": chosen, "parameters": saved_parameters(store)}


def fit(store: Store, factor: float, at: datetime) -> None:
    """As `optimize` saves a fit (FSRS's defaults, the first weight scaled)."""
    weights = [float(w) for w in DEFAULT_PARAMETERS]
    weights[0] *= factor
    with store.writing() as db:
        save_parameters(db, weights, at, 100, None)


SETTINGS = (
    ("desired_retention", "0.8"),
    ("desired_retention", "0.95"),
    ("learning_steps", "1h"),
    ("learning_steps", "5m 30m"),
    ("relearning_steps", ""),
    ("new_per_day", "7"),
)


class SyncMachine(RuleBasedStateMachine):
    """2-3 databases and one folder; any interleaving of studying, changing and syncing."""

    def __init__(self) -> None:
        super().__init__()
        self.root = Path(__import__("tempfile").mkdtemp(prefix="quizzer-sync-"))
        self.folder = self.root / "shared"
        self.folder.mkdir()
        self.stores: list[Store] = []
        self.clock = START
        self.expected_reviews: set[tuple[str, int, datetime]] = set()

    @initialize(devices=st.integers(2, 3))
    def open_devices(self, devices: int) -> None:
        self.stores = [Store.open(self.root / f"{n}.db") for n in range(devices)]

    def tick(self) -> datetime:
        self.clock += timedelta(minutes=7, milliseconds=13)
        return self.clock

    @rule(
        device=st.integers(0, 2),
        card=st.sampled_from(CARDS),
        grade=st.integers(1, 4),
        override=st.booleans(),
        revealed=st.booleans(),
    )
    def study_a_card(
        self, device: int, card: str, grade: int, override: bool, revealed: bool
    ) -> None:
        store = self.stores[device % len(self.stores)]
        at = self.tick()
        revealed = revealed and grade == 1
        study(
            store,
            card,
            grade,
            at,
            override=override and grade == 1 and not revealed,
            revealed=revealed,
        )

    @rule(device=st.integers(0, 2), card=st.sampled_from(CARDS), grade=st.integers(1, 4))
    def undo_in_a_session(self, device: int, card: str, grade: int) -> None:
        """`/undo`: the review taken back, the card's attempts kept and marked undone."""
        store = self.stores[device % len(self.stores)]
        at = self.tick()
        progress = SessionProgress(store, schedule.make_scheduler(), "review", at)
        progress.record_attempt(Attempt(card, "x", "u", grade > 1, 1, 0, 900, at))
        progress.save_rating(card, Grade(grade), at, 900)
        progress.undo_review(card, at)
        progress.end(at)

    @rule(device=st.integers(0, 2), card=st.sampled_from(CARDS), suspended=st.booleans())
    def suspend(self, device: int, card: str, suspended: bool) -> None:
        set_suspended(self.stores[device % len(self.stores)], [card], suspended)

    @rule(device=st.integers(0, 2), card=st.sampled_from(CARDS))
    def bury_a_card(self, device: int, card: str) -> None:
        bury(self.stores[device % len(self.stores)], card, self.tick())

    @rule(device=st.integers(0, 2), setting=st.sampled_from(SETTINGS))
    def configure(self, device: int, setting: tuple[str, str]) -> None:
        write_setting(self.stores[device % len(self.stores)], *setting)

    @rule(device=st.integers(0, 2), factor=st.sampled_from((0.5, 2.0, 3.0)))
    def optimize(self, device: int, factor: float) -> None:
        fit(self.stores[device % len(self.stores)], factor, self.tick())

    @rule(device=st.integers(0, 2), card=st.sampled_from(CARDS), grade=st.integers(1, 4))
    def change_a_rating(self, device: int, card: str, grade: int) -> None:
        """A review given, then its grade changed in the same session (maybe after a sync)."""
        store = self.stores[device % len(self.stores)]
        at = self.tick()
        progress = SessionProgress(store, schedule.make_scheduler(), "review", at)
        progress.save_rating(card, Grade(grade), at)
        progress.replace_rating(card, Grade(5 - grade), at + timedelta(seconds=1))
        progress.end(at)

    @rule(device=st.integers(0, 2), card=st.sampled_from((*CARDS, None)))
    def reset(self, device: int, card: str | None) -> None:
        """`progress reset` (one card or all): carried to every device."""
        self.stores[device % len(self.stores)].reset(card)

    @rule(device=st.integers(0, 2), card=st.sampled_from(CARDS))
    def undo_last_review(self, device: int, card: str) -> None:
        """As `/undo` does it: the card's last review deleted, whatever synced it."""
        store = self.stores[device % len(self.stores)]
        with store.writing() as db:
            db.execute(
                "DELETE FROM reviews WHERE id = (SELECT max(id) FROM reviews WHERE card_id = ?)",
                (card,),
            )

    @rule(device=st.integers(0, 2))
    def sync_one(self, device: int) -> None:
        store = self.stores[device % len(self.stores)]
        sync(store, self.folder, now=self.tick())

    @rule(device=st.integers(0, 2))
    def cut_a_file_short(self, device: int) -> None:
        """A file half-delivered: its last line arrives without its end (then in full)."""
        reader = self.stores[device % len(self.stores)]
        own = f"{device_id(reader)}{SUFFIX}"
        files = sorted(p for p in self.folder.glob(f"*{SUFFIX}") if p.name != own)
        if files:
            path = files[device % len(files)]
            data = path.read_bytes()
            path.write_bytes(data[: max(1, len(data) - 17)])
            sync(reader, self.folder, now=self.tick())
            path.write_bytes(data)  # the rest arrives

    @rule(device=st.integers(0, 2))
    def conflicted_copy(self, device: int) -> None:
        """Dropbox keeps both versions of a file: the copy merges like any file."""
        files = sorted(p for p in self.folder.glob(f"*{SUFFIX}") if "conflicted" not in p.name)
        if files:
            path = files[device % len(files)]
            shutil.copyfile(path, path.with_name(f"{path.stem} (conflicted copy){SUFFIX}"))

    @precondition(lambda self: bool(self.stores))
    @invariant()
    def everyone_converges_after_two_rounds(self) -> None:
        pass  # checked in teardown: syncing mid-run would change the interleavings tested

    def teardown(self) -> None:
        try:
            if self.stores:
                for _ in range(2):
                    for store in self.stores:
                        sync(store, self.folder, now=self.tick())
                first = history(self.stores[0])
                for store in self.stores[1:]:
                    assert history(store) == first
                # Once converged, syncing again sends and receives nothing.
                for store in self.stores:
                    again = sync(store, self.folder, now=self.tick())
                    assert (again.sent, again.received) == (0, 0)
        finally:
            for store in self.stores:
                store.close()
            shutil.rmtree(self.root, ignore_errors=True)


SyncMachine.TestCase.settings = settings(
    max_examples=50,
    stateful_step_count=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_sync_machine = SyncMachine.TestCase


# -- single cases ----------------------------------------------------------------------------


@pytest.fixture
def two(tmp_path: Path):
    folder = tmp_path / "shared"
    folder.mkdir()
    a, b = Store.open(tmp_path / "a.db"), Store.open(tmp_path / "b.db")
    yield a, b, folder
    a.close()
    b.close()


def test_the_same_card_studied_apart_ends_with_one_schedule(two) -> None:
    a, b, folder = two
    study(a, "attention", 3, START)
    study(b, "attention", 1, START + timedelta(hours=1))
    study(a, "attention", 4, START + timedelta(days=3))
    for store in (a, b, a):
        sync(store, folder, now=LATER)
    assert history(a) == history(b)
    assert [r.rating for r in sorted(a.each_review(), key=lambda r: r.at)] == [3, 1, 4]
    # The schedule is what FSRS makes of the three reviews in time order.
    state = a.fsrs_cards()["attention"]
    assert state["last_review"].startswith("2026-01-04")


def test_sync_counts_what_it_sends_and_receives(two) -> None:
    a, b, folder = two
    study(a, "attention", 3, START)
    first = sync(a, folder, now=LATER)
    assert first.sent == 3  # the session, the attempt, the review
    assert first.received == 0
    second = sync(b, folder, now=LATER)
    assert (second.sent, second.received, second.devices) == (0, 3, 2)
    assert sync(b, folder, now=LATER).received == 0


def test_a_partial_last_line_waits_for_the_next_sync(two) -> None:
    a, b, folder = two
    study(a, "attention", 3, START)
    sync(a, folder, now=LATER)
    path = next(folder.glob(f"*{SUFFIX}"))
    whole = path.read_bytes()
    path.write_bytes(whole[:-5])
    assert sync(b, folder, now=LATER).received == 2
    path.write_bytes(whole)
    assert sync(b, folder, now=LATER).received == 1
    assert history(a) == history(b)


def test_a_kill_mid_write_loses_nothing(two, monkeypatch: pytest.MonkeyPatch) -> None:
    """Killed after half a write and before the database knew: the next sync sends it all."""
    a, b, folder = two
    study(a, "attention", 3, START)
    import quizzer.progress.sync as module

    real = module.append

    def killed(path: Path, device: str, entries: list[dict[str, object]]) -> None:
        real(path, device, entries)
        data = path.read_bytes()
        path.write_bytes(data[: len(data) - 30])
        raise KeyboardInterrupt

    monkeypatch.setattr(module, "append", killed)
    with pytest.raises(KeyboardInterrupt):
        sync(a, folder, now=LATER)
    monkeypatch.setattr(module, "append", real)
    assert sync(a, folder, now=LATER).sent == 3
    assert sync(b, folder, now=LATER).received == 3
    assert history(a) == history(b)
    assert any("damaged" in p for p in read_problems(folder))


def read_problems(folder: Path) -> list[str]:
    return [p for path in folder.glob(f"*{SUFFIX}") for p in read_file(path).problems]


def test_a_newer_format_is_refused_with_a_message(two) -> None:
    a, _, folder = two
    (folder / "future.jsonl").write_text(
        json.dumps({"format": "quizzer-sync", "version": SYNC_VERSION + 1, "device": "f"})
        + "\n"
        + json.dumps({"id": "x", "kind": "attempt"})
        + "\n"
    )
    heard: list[str] = []
    result = sync(a, folder, now=LATER, on_problem=heard.append)
    assert result.received == 0
    assert any("newer quizzer" in line and "future.jsonl" in line for line in heard)


def test_an_edited_entry_is_skipped(two) -> None:
    a, b, folder = two
    study(a, "attention", 3, START)
    sync(a, folder, now=LATER)
    path = next(folder.glob(f"*{SUFFIX}"))
    path.write_text(path.read_text().replace('"given":"y"', '"given":"z"'))
    heard: list[str] = []
    assert sync(b, folder, now=LATER, on_problem=heard.append).received == 2
    assert any("damaged entry" in line for line in heard)


def test_a_reset_card_is_reset_everywhere(two) -> None:
    a, b, folder = two
    study(a, "attention", 3, START)
    study(a, "softmax", 3, START)
    sync(a, folder, now=LATER)
    sync(b, folder, now=LATER)
    b.reset("attention")
    sync(b, folder, now=LATER)
    sync(a, folder, now=LATER)
    assert "attention" not in a.fsrs_cards()
    assert history(a) == history(b)


def test_the_sync_command(tmp_path: Path) -> None:
    runner = CliRunner()
    folder = tmp_path / "shared"
    folder.mkdir()
    with Store.open(tmp_path / "a.db") as store:
        study(store, "attention", 3, START)
    result = runner.invoke(app, ["sync", str(folder), "--json", "--db", str(tmp_path / "a.db")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"device", "sent", "received", "devices"}
    assert (data["sent"], data["received"], data["devices"]) == (3, 0, 1)
    result = runner.invoke(app, ["sync", str(folder), "--db", str(tmp_path / "b.db")])
    assert result.exit_code == 0
    assert "received 3 records" in result.output
    missing = runner.invoke(
        app, ["sync", str(tmp_path / "nowhere"), "--db", str(tmp_path / "b.db")]
    )
    assert missing.exit_code == 2
    assert "sync folder not found" in missing.stderr


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_sync_git_through_a_bare_repository(tmp_path: Path) -> None:
    runner = CliRunner()
    bare = tmp_path / "remote.git"
    _git("init", "--bare", "-q", str(bare), cwd=tmp_path)
    clones = []
    for name in ("one", "two"):
        _git("clone", "-q", str(bare), name, cwd=tmp_path)
        _git("config", "user.email", f"{name}@example.com", cwd=tmp_path / name)
        _git("config", "user.name", name, cwd=tmp_path / name)
        clones.append(tmp_path / name)
    with Store.open(tmp_path / "a.db") as store:
        study(store, "attention", 3, START)
    with Store.open(tmp_path / "b.db") as store:
        study(store, "softmax", 2, START)
    for clone, db in ((clones[0], "a.db"), (clones[1], "b.db"), (clones[0], "a.db")):
        result = runner.invoke(
            app, ["sync", "--git", str(clone), "--json", "--db", str(tmp_path / db)]
        )
        assert result.exit_code == 0, result.output
    with Store.open(tmp_path / "a.db") as a, Store.open(tmp_path / "b.db") as b:
        assert history(a) == history(b)
    # A plain sync into the clone leaves its file changed: --git commits it before pulling.
    with Store.open(tmp_path / "a.db") as store:
        study(store, "softmax", 4, START + timedelta(hours=5))
        sync(store, clones[0], now=LATER)
    for clone, db in ((clones[0], "a.db"), (clones[1], "b.db"), (clones[0], "a.db")):
        result = runner.invoke(app, ["sync", "--git", str(clone), "--db", str(tmp_path / db)])
        assert result.exit_code == 0, result.output
    with Store.open(tmp_path / "a.db") as a, Store.open(tmp_path / "b.db") as b:
        assert history(a) == history(b)
        assert len(b.reviews("softmax")) == 2
    # A git failure is git's own message, one line, exit 1.
    shutil.rmtree(bare)
    with Store.open(tmp_path / "a.db") as store:
        study(store, "bayes", 3, START + timedelta(days=1))
    failed = runner.invoke(app, ["sync", "--git", str(clones[0]), "--db", str(tmp_path / "a.db")])
    assert failed.exit_code == 1
    assert "git pull failed" in failed.stderr


def test_rating_enum_matches_grade() -> None:
    assert int(Rating.Again) == int(Grade.AGAIN)


def test_a_file_replaced_under_its_name_is_read_again(two, tmp_path: Path) -> None:
    """Merged files are read from where the last sync stopped, unless they changed under it."""
    a, b, folder = two
    study(a, "attention", 3, START)
    sync(a, folder, now=LATER)
    sync(b, folder, now=LATER)
    path = next(p for p in folder.glob(f"*{SUFFIX}") if p.stat().st_size > 100)
    with Store.open(tmp_path / "c.db") as c:
        study(c, "softmax", 3, START)
        sync(c, folder, now=LATER)
        own = folder / f"{device_id(c)}{SUFFIX}"
        path.write_bytes(own.read_bytes())  # a different file now has the old one's name
    assert sync(b, folder, now=LATER).received == 3
    assert "softmax" in b.fsrs_cards()


def test_a_sync_killed_at_any_moment_loses_and_doubles_nothing(tmp_path: Path) -> None:

    folder = tmp_path / "shared"
    folder.mkdir()
    with Store.open(tmp_path / "a.db") as a:
        for n in range(60):
            study(a, CARDS[n % 3], 1 + n % 4, START + timedelta(hours=n))
    sync_killed_after(tmp_path / "a.db", folder, (0.05, 0.2, 0.6))
    with Store.open(tmp_path / "a.db") as a, Store.open(tmp_path / "b.db") as b:
        for store in (a, b, a, b):
            sync(store, folder, now=LATER)
        assert history(a) == history(b)
        assert len(list(b.each_review())) == 60
        assert len(list(b.each_attempt())) == 60


def test_study_commands_sync_at_start_and_end(tmp_path: Path) -> None:
    runner = CliRunner()
    folder = tmp_path / "shared"
    folder.mkdir()
    env = {"QUIZZER_SYNC_DIR": str(folder), "QUIZZER_NOW": "2026-12-01T10:00:00Z"}
    with Store.open(tmp_path / "a.db") as store:
        study(store, "attention", 3, START)
    done = runner.invoke(
        app, ["--db", str(tmp_path / "a.db"), "quiz", "attention"], input="sqrt(d_k)\nV\n", env=env
    )
    assert done.exit_code == 0, done.output
    # At the start it sent the earlier study; at the end, this quiz.
    with Store.open(tmp_path / "b.db") as b:
        sync(b, folder, now=LATER)
        assert len(b.attempts("attention")) == 3
    missing = runner.invoke(
        app,
        ["--db", str(tmp_path / "a.db"), "quiz", "attention"],
        input="sqrt(d_k)\nV\n",
        env={**env, "QUIZZER_SYNC_DIR": str(tmp_path / "gone")},
    )
    assert missing.exit_code == 0
    assert "sync skipped: sync folder not found" in missing.stderr


def test_a_sync_that_does_not_answer_in_time_is_left(tmp_path: Path) -> None:
    from quizzer.app.syncing import auto_sync
    from quizzer.app.workspace import Workspace

    folder = tmp_path / "shared"
    folder.mkdir()
    workspace = Workspace(db=tmp_path / "a.db", environ={"QUIZZER_SYNC_DIR": str(folder)})
    message = auto_sync(workspace, limit=0.01)
    assert message is not None
    assert "did not answer within 0.01 s" in message
    assert auto_sync(workspace, limit=60) is None
    assert list(folder.glob(f"*{SUFFIX}"))


_SYNC_CHILD = (
    "import sys; from pathlib import Path; from quizzer.progress.store import Store;"
    "from datetime import datetime, timezone; from quizzer.progress.sync import sync;"
    "s = Store.open(Path(sys.argv[1]));"
    "sync(s, Path(sys.argv[2]), now=datetime.now(timezone.utc))"
)


def sync_killed_after(db: Path, folder: Path, delays: tuple[float, ...]) -> None:
    """Start a sync of ``db`` through ``folder`` in a child, SIGKILLed after each delay."""
    for delay in delays:
        child = subprocess.Popen([sys.executable, "-c", _SYNC_CHILD, str(db), str(folder)])
        time.sleep(delay)
        if child.poll() is None:
            os.kill(child.pid, signal.SIGKILL)
        child.wait()
