"""The CLI's defaults are the core's constants, not literals that can drift from them."""

from __future__ import annotations

import inspect

import pytest
import typer

from quizzer.cli import app
from quizzer.progress import schedule
from quizzer.study import defaults
from quizzer.study.drill import DrillSession
from quizzer.study.quiz import QuizSession


def option_default(command: str, option: str) -> object:
    group = typer.main.get_command(app)
    (param,) = [p for p in group.commands[command].params if p.name == option]
    return param.default


@pytest.mark.parametrize(
    ("command", "option", "value"),
    [
        ("quiz", "tries", defaults.TRIES),
        ("review", "tries", defaults.TRIES),
        # review --new has no fixed default: without it, config's new_per_day decides
        ("review", "new", None),
        ("drill", "minutes", defaults.DRILL_MINUTES),
        ("drill", "cards", defaults.DRILL_CARDS),
    ],
)
def test_options_default_to_the_study_constants(command, option, value):
    assert option_default(command, option) == value


def test_the_study_constants_are_the_sessions_and_the_schedulers():
    assert inspect.signature(QuizSession).parameters["tries"].default == defaults.TRIES
    assert inspect.signature(DrillSession).parameters["minutes"].default == defaults.DRILL_MINUTES
    # Mirrored so that --help need not import the scheduler (and fsrs).
    assert defaults.NEW_PER_DAY == schedule.DEFAULT_NEW_PER_DAY
    assert inspect.signature(schedule.plan_review).parameters["new_limit"].default == (
        defaults.NEW_PER_DAY
    )
