"""Shared fixtures: every test runs with its own data folder and no stray decks."""

from __future__ import annotations

import functools
import os
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from typer.testing import CliRunner

from quizzer.cards.deck import Deck, bundled_content_dir, load_deck
from quizzer.cli import app

REPO = Path(__file__).resolve().parent.parent
ATTENTION = REPO / "content" / "ml" / "attention.yaml"

# Property tests check what is computed, never how fast: on a loaded 2-core machine
# (CI shares one) Hypothesis's per-example deadline and its "too slow" health checks
# fail runs whose every example was right.
settings.register_profile(
    "quizzer",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("quizzer")

MINIMAL_CARD = """\
id: {id}
title: A minimal card
prompt: "y = {{{{slope}}}} x"
symbols:
  m: {{}}
blanks:
  slope:
    answer: m
"""


@pytest.fixture(autouse=True)
def isolated_environment(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Point progress and user data at a temp folder; ignore the user's decks and colours.

    The deck cache is one per test process (each xdist worker has its own base
    folder): it holds only what the card files say, keyed by path, size and
    modification time, so a test cannot see another's cards in it, and a cold
    cache per test read and checked the 200 bundled cards again in every test
    that loads the deck (about a second each). A test about the cache itself
    sets QUIZZER_CACHE to a folder of its own.
    """
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("QUIZZER_DB", str(home / "progress.db"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("QUIZZER_CACHE", str(tmp_path_factory.getbasetemp() / "deck-cache"))
    monkeypatch.delenv("QUIZZER_DECKS", raising=False)
    monkeypatch.delenv("QUIZZER_DEBUG", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "80")
    return home


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def invoke(runner: CliRunner) -> Callable[..., object]:
    def run(*args: str, input: str | None = None):
        return runner.invoke(app, list(args), input=input)

    return run


@pytest.fixture
def write_card(tmp_path: Path) -> Callable[..., Path]:
    """Write a card file (dedented) under tmp_path and return its path."""

    def write(text: str, name: str = "card.yaml") -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path

    return write


def quizzer_in_a_terminal(
    tmp_path: Path, *args: str, rows: int = 24, timeout: float = 30, **env: str
):  # -> pexpect.spawn (imported here: only the terminal tests need pexpect)
    """``python -m quizzer ARGS`` in an 80-column pseudo-terminal.

    Progress goes to ``tmp_path / "p.db"``; TERM is "dumb" unless ``env`` says
    otherwise; the rest of the environment is the test's isolated one.
    """
    import pexpect

    return pexpect.spawn(
        sys.executable,
        ["-m", "quizzer", *args],
        env={**os.environ, "QUIZZER_DB": str(tmp_path / "p.db"), "TERM": "dumb", **env},
        encoding="utf-8",
        timeout=timeout,
        dimensions=(rows, 80),
    )


@functools.lru_cache(maxsize=1)
def bundled_deck() -> Deck:
    """The bundled deck with source positions, read once per test process.

    A dozen modules parametrize over it when they are imported: each reading
    its 200 YAML files again made collecting the suite take 20 s of CPU, and
    every xdist worker collects. Treat the cards as read-only (copy to change one).
    """
    return load_deck([bundled_content_dir()])


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep each module with a costly module- or session-wide fixture (a built wheel,
    an Anki collection, a fitted optimiser, a warm judge worker) on one xdist worker.

    ``--dist loadgroup`` (the README's test command) then builds it once instead of
    once per worker; every other test goes to whichever worker is free.
    """
    for item in items:
        fixtures = getattr(item, "_fixtureinfo", None)
        if fixtures is None:
            continue
        module = item.nodeid.split("::", 1)[0]
        shared = any(
            definitions[-1].scope in ("module", "session") and definitions[-1].baseid == module
            for definitions in fixtures.name2fixturedefs.values()
        )
        if shared:
            item.add_marker(pytest.mark.xdist_group(module))
