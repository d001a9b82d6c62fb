"""Shared fixtures: every test runs with its own data folder and no stray decks."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from typer.testing import CliRunner

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
    """Point progress and user data at a temp folder; ignore the user's decks and colours."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("QUIZZER_DB", str(home / "progress.db"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("QUIZZER_CACHE", str(home / "cache"))
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
