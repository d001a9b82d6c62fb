"""The judges of a session and their one warm-up (quizzer.study.judging)."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from quizzer.cards.deck import deck_sources, resolve_card
from quizzer.study.judging import Judges

TWO_STAGES = """
import sys
from quizzer.cards.deck import deck_sources, resolve_card
from quizzer.study.judging import Judges
card = resolve_card("attention", deck_sources()).card
judges = Judges()
judges.warm_up()
assert judges.numeric_ready.wait(60)
stage_one = sorted(m for m in ("numpy", "mpmath", "quizzer.answers", "sympy") if m in sys.modules)
judges.question_shown(card)
verdict = judges.judge_for(card).judge("scale", "d_k^(1/2)")
print(" ".join(stage_one), "|", "sympy" in sys.modules, verdict.correct)
"""


def test_the_warm_up_loads_the_numeric_judge_first_and_sympy_only_once_a_question_is_shown():
    # Stage 1 loads the numbers-only judge; SymPy waits until the first question
    # is on screen, so the question never waits for it.
    result = subprocess.run(
        [sys.executable, "-c", TWO_STAGES], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == [
        "mpmath",
        "numpy",
        "quizzer.answers",
        "|",
        "True",
        "True",
    ]


def test_one_thread_warms_however_often_it_is_asked():
    started: list[threading.Thread] = []

    def start(thread: threading.Thread) -> None:
        started.append(thread)
        thread.start()

    card = resolve_card("attention", deck_sources()).card
    judges = Judges(start)
    judges.warm_up()
    judges.warm_up()
    judges.question_shown(card)
    assert judges(card, "scale", "sqrt(d_k)").correct
    assert judges(card, "values", "K").correct is False
    assert set(judges.fingerprints(card)) == {"scale", "values"}
    assert len(started) == 1


def test_a_judge_asked_for_before_any_question_starts_the_warm_up_itself():
    card = resolve_card("attention", deck_sources()).card
    judges = Judges()
    assert judges(card, "scale", "d_k").correct is False  # no warm_up() was called
    assert judges.judge_for(card) is judges.judge_for(card)


@pytest.mark.parametrize("command", ["quiz", "review", "drill"])
def test_a_session_starts_the_warm_up_only_once_its_first_question_is_on_screen(command, tmp_path):
    # Under the GIL a thread importing numpy and mpmath slows the main thread by as
    # much: started while the deck and the history were read, it delayed the first
    # card by about 0.3 s (issue 25's target for review is 0.5 s).
    from quizzer.app import studying
    from quizzer.app.choosing import CardChoice
    from quizzer.app.workspace import Workspace

    happened: list[str] = []

    def start(thread: threading.Thread) -> None:
        happened.append("warm-up started")
        thread.start()

    def show(event: object) -> None:
        happened.append(type(event).__name__)

    learner = studying.Learner(
        read=lambda prompt, remaining: None,
        show=show,
        start_thread=start,
        planned=lambda plan: happened.append("planned"),
    )
    workspace = Workspace(db=tmp_path / "p.db", now_text="2026-02-01T00:00:00Z")
    choice = CardChoice(names=("attention",))
    if command == "quiz":
        studying.quiz(workspace, choice, learner)
    elif command == "review":
        studying.review(workspace, choice, learner, new_per_day=5)
    else:
        studying.drill(workspace, choice, learner, count=1, record=False)
    assert "warm-up started" in happened
    assert "BlankAsked" in happened[: happened.index("warm-up started")]
