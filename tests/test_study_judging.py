"""The judges of a session and their one warm-up (quizzer.study.judging)."""

from __future__ import annotations

import subprocess
import sys
import threading

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
    # Stage 1 runs while the deck is read; SymPy waits until the first question is
    # on screen, so the question never waits for it.
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
