"""The screens of quizzer.ui: every event has a view, the card heading is drawn one way."""

from __future__ import annotations

import inspect
import io
import re
import typing

import pytest

from quizzer.cards.model import Card
from quizzer.cards.sections import SECTIONS, Depth
from quizzer.study import events
from quizzer.study.results import CardResult
from quizzer.ui.screen import Screen


def screen() -> tuple[Screen, io.StringIO]:
    out = io.StringIO()
    return Screen(no_color=True, file=out, error_file=io.StringIO(), width=80), out


def test_every_event_has_a_view() -> None:
    # One vocabulary: the screen's one dispatch has a case for each event type
    # (mypy proves it through assert_never; this reads the cases, so a view
    # cannot go missing unnoticed where mypy is not run), and nothing is left unshown.
    source = inspect.getsource(Screen._show)
    cased = set(re.findall(r"case flow\.(\w+)\(\)", source))
    drill_only = {
        events.DrillCardStarted,
        events.FollowUpAsked,
        events.FollowUpGraded,
        events.RedFlagsShown,
        events.DrillFinished,
    }
    # CardFinished and ClosingSections take --brief: the dispatch passes it on.
    assert {getattr(events, name) for name in cased} == set(typing.get_args(events.Event))
    assert drill_only <= {getattr(events, name) for name in cased}
    assert "assert_never(event)" in source


CARD = Card.model_validate(
    {
        "id": "scaled",
        "title": "Scaled scores",
        "tags": ["attention"],
        "prompt": "s = q k / sqrt({{d_k}})",
        "blanks": {"d_k": {"answer": "d_k"}},
        "symbols": {"d_k": {"aliases": ["dk"]}, "q": {}, "k": {}},
    }
)


def test_quiz_and_drill_open_a_card_with_the_same_heading() -> None:
    quiz_screen, quiz_out = screen()
    quiz_screen.session_event(events.CardStarted(CARD, 1, 1))
    drill_screen, drill_out = screen()
    from datetime import timedelta

    started = events.DrillCardStarted(
        card=CARD, number=1, total=1, remaining=timedelta(minutes=5), target=timedelta(minutes=1)
    )
    drill_screen.drill_event(started)
    heading = "Scaled scores  #attention\ns = q k / sqrt([1])\nsymbols: d_k (or dk), q, k\n"
    assert quiz_out.getvalue().endswith(heading)
    assert drill_out.getvalue().endswith(heading)


FULL = CARD.model_copy(
    update={
        "intuition": "Keep the scores' spread at one.",
        "explanation": "Var(q · k) = d_k.",
        "worked_example": "d_k = 64 gives a spread of 8.",
        "code": "import numpy as np\nassert np.sqrt(64) == 8",
        "red_flags": ["Dividing by d_k."],
        "limitations": ["Long contexts."],
        "bullets": ["Divide by sqrt(d_k)."],
    }
)


@pytest.mark.parametrize(("brief", "depth"), [(False, Depth.STUDY), (True, Depth.REVIEW)])
def test_after_a_card_the_sections_of_its_depth_follow_the_formula(brief, depth):
    # The study loop shows the follow-ups between the two (see test_study_loop).
    shown, out = screen()
    result = CardResult(card_id=FULL.id, title=FULL.title, blanks=[])
    shown.session_event(events.CardFinished(FULL, result, {"d_k": "d_k"}), brief=brief)
    shown.session_event(events.ClosingSections(FULL), brief=brief)
    text = out.getvalue()
    assert text.startswith("✔ s = q k / sqrt(d_k)\n")
    for section in SECTIONS:
        if getattr(FULL, section.field):
            assert (section.title in text) == (section.depth <= depth), section.field
    assert ("assert np.sqrt(64) == 8" in text) == (not brief)


@pytest.mark.parametrize(("correct", "opening"), [(True, "✔ "), (False, "answer: ")])
@pytest.mark.parametrize("mode", ["quiz", "drill"])
def test_the_filled_formula_ticks_only_a_card_the_learner_got(mode, correct, opening):
    from quizzer.study.results import BlankResult

    shown, out = screen()
    blank = BlankResult(name="d_k", correct=correct, tries=3)
    result = CardResult(card_id=CARD.id, title=CARD.title, blanks=[blank])
    finished = events.CardFinished(CARD, result, {"d_k": "d_k"})
    if mode == "quiz":
        shown.session_event(finished, brief=True)
    else:
        shown.drill_event(finished)
    assert out.getvalue().startswith(f"{opening}s = q k / sqrt(d_k)\n")


@pytest.mark.parametrize(("length", "cut"), [(140, False), (141, True), (1025, True)])
def test_a_long_answer_is_echoed_by_its_start_and_its_length(length, cut):
    from quizzer.answers.judge import Verdict
    from quizzer.ui.verdict import verdict_text

    typed = "9" * length
    verdict = Verdict(blank="d_k", given=typed, correct=False, status="wrong")
    shown, out = screen()
    shown.out.print(verdict_text(verdict, 1))
    if cut:
        assert out.getvalue().count("9") == 140
        assert f"9… ({length} characters)" in out.getvalue().replace("\n", "")
    else:
        assert out.getvalue().count("9") == length and "characters)" not in out.getvalue()
