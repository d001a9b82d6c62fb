"""How a checked follow-up answer looks, and the key banner at narrow widths (#28.2, #24)."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest

from quizzer.answers.keypoints import FollowUpCheck
from quizzer.app.studying import DRILL_KEYS
from quizzer.study.events import ApproachShown, FollowUpId, Grade, GradeAsked
from quizzer.study.quiz import KEYS_HELP
from quizzer.ui.console import key_lines
from quizzer.ui.screen import Screen

ITEM = FollowUpId("attention", 0)
CHECK = FollowUpCheck(
    "attention",
    1,
    covered=("the dot product's variance is d_k",),
    missed=(
        "divide by the standard deviation, not the variance",
        "d_k over-corrects and log(d_k) under-corrects",
    ),
)
SHOWN = ApproachShown(
    item=ITEM, approach="Show Var(q · k) = d_k.", answered="var is d_k", check=CHECK
)


def text_lines(out: io.StringIO) -> list[str]:
    """What was printed, line by line, without the padding Rich adds to fill a column."""
    return [line.rstrip() for line in out.getvalue().splitlines()]


def screen(width: int = 80) -> tuple[Screen, io.StringIO]:
    out = io.StringIO()
    return Screen(no_color=True, file=out, error_file=io.StringIO(), width=width), out


def test_a_quiz_lists_each_point_covered_or_missed_above_the_approach():
    shown, out = screen()
    shown.session_event(SHOWN)
    assert text_lines(out) == [
        "    ✓ the dot product's variance is d_k",
        "    ✗ divide by the standard deviation, not the variance",
        "    ✗ d_k over-corrects and log(d_k) under-corrects",
        "    1 of 3 key points covered · proposed Hard",
        "    Show Var(q · k) = d_k.",
        "",
    ]


def test_a_drill_shows_what_was_said_then_the_check_then_the_strong_answer():
    shown, out = screen()
    shown.drill_event(SHOWN)
    lines = text_lines(out)
    assert lines[:5] == [
        "you said: var is d_k",
        "✓ the dot product's variance is d_k",
        "✗ divide by the standard deviation, not the variance",
        "✗ d_k over-corrects and log(d_k) under-corrects",
        "1 of 3 key points covered · proposed Hard",
    ]
    assert lines[5].startswith("╭─ A strong answer")


def test_an_unchecked_answer_shows_the_approach_as_before():
    quiz, out = screen()
    quiz.session_event(ApproachShown(item=ITEM, approach="Set x = 0.", answered=""))
    assert text_lines(out) == ["    Set x = 0.", ""]
    drill, out = screen()
    drill.drill_event(ApproachShown(item=ITEM, approach="Set x = 0.", answered="x = 0"))
    assert "✓" not in out.getvalue() and "proposed" not in out.getvalue()


def test_a_long_point_wraps_under_its_own_text():
    long = FollowUpCheck("attention", 1, covered=(), missed=("word " * 30,))
    shown, out = screen(60)
    shown.session_event(ApproachShown(item=ITEM, approach="A.", answered="x", check=long))
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("    ✗ word") and lines[1].startswith("      word")
    assert all(len(line) <= 60 for line in lines)
    assert "0 of 1 key point covered · proposed Again" in out.getvalue()


@pytest.mark.parametrize("grade", list(Grade))
def test_the_proposed_grade_prompt_names_it_and_fits_80_columns(grade):
    shown, _ = screen()
    text = shown.prompt_for(GradeAsked(ITEM, grade), timedelta(minutes=12, seconds=5))
    assert text == f"12:05 grade {grade.label} · 1 Again 2 Hard 3 Good 4 Easy · Enter keeps › "
    assert len(text) <= 66
    # Without a proposal, the self-grade prompt is as it was.
    assert shown.prompt_for(GradeAsked(ITEM)).startswith("did you get it? y/n")


@pytest.mark.parametrize("width", [40, 60, 80, 100])
@pytest.mark.parametrize("keys", [KEYS_HELP, DRILL_KEYS])
def test_the_key_banner_breaks_only_between_keys(keys, width):
    lines = key_lines(keys, width)
    assert all(len(line) <= width for line in lines)
    assert lines[0].startswith("Keys: ")
    assert all(line.startswith("      ") and line[6] != " " for line in lines[1:])
    # Every key whole, on one line, in order: the lines rejoin to the one-line banner.
    assert " · ".join(line.strip() for line in lines) == f"Keys: {keys}"
    items = keys.split(" · ")
    for line in lines:
        for piece in line.removeprefix("Keys: ").strip().split(" · "):
            assert piece in items


def test_the_key_banner_at_80_and_60_columns():
    shown, out = screen(80)
    shown.keys_help(KEYS_HELP)
    assert out.getvalue() == (
        "Keys: ? hint · ! reveal · /skip card · /override after ✗ · /suspend · /bury\n"
        "      /undo · /quit or Ctrl-D to stop\n"
    )
    shown, out = screen(60)
    shown.keys_help(KEYS_HELP)
    assert out.getvalue() == (
        "Keys: ? hint · ! reveal · /skip card · /override after ✗\n"
        "      /suspend · /bury · /undo · /quit or Ctrl-D to stop\n"
    )
