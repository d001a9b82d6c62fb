"""A deadline that always holds (issue 13 item 4), and no exit 3 on any card or answer.

Every answer in :data:`tests.slow_answers.SLOW_ANSWERS` once took seconds or
minutes, or could: each must be judged within the limit, in the main thread
(a timer signal) and from another thread (a child process).
"""

from __future__ import annotations

import contextlib
import json
import tempfile
import threading
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quizzer.answers import JUDGE_SECONDS, CardJudge, JudgeTimeout, deadline, judge_bounded
from quizzer.answers.deadline import BudgetSpent, budget
from quizzer.answers.judge import SYMPY_SECONDS
from quizzer.cards.deck import load_card_file

from .conftest import ATTENTION
from .slow_answers import SLOW_ANSWERS

ATTENTION_JUDGE = CardJudge(load_card_file(ATTENTION)[0].card)


def test_the_list_is_long_enough():
    assert len(SLOW_ANSWERS) >= 30


def test_the_timeout_cannot_be_swallowed_by_except_exception():
    assert not issubclass(JudgeTimeout, Exception)
    swallowed = False
    with pytest.raises(JudgeTimeout), deadline(0.05):
        try:
            while True:
                time.sleep(0.001)
        except Exception:  # what SymPy and the judge do: must not catch the deadline
            swallowed = True
    assert not swallowed


def spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_a_budget_inside_a_deadline():
    with deadline(1.0):
        started = time.monotonic()
        with pytest.raises(BudgetSpent), budget(0.05), contextlib.suppress(Exception):
            spin(0.5)  # what SymPy's own handlers do must not stop the budget
        assert time.monotonic() - started < 0.3
        spin(0.1)  # the deadline is still armed and has not fired
    with pytest.raises(JudgeTimeout), deadline(0.05), budget(1.0):
        spin(0.5)  # the deadline comes first and wins


def test_sympy_overrunning_costs_the_read_back_not_the_verdict():
    # SymPy took 113 s to build this; the verdict is numeric and comes in time.
    slow = "sqrt(exp((2 - d_k)^1000))"
    for text, correct in [(slow, False), (f"{slow} - {slow} + sqrt(d_k)", True)]:
        started = time.perf_counter()
        verdict = judge_bounded(ATTENTION_JUDGE, "scale", text)
        assert time.perf_counter() - started < 3 * SYMPY_SECONDS + 0.5
        assert verdict.correct is correct and verdict.interpreted is None


@pytest.mark.parametrize("text", SLOW_ANSWERS, ids=lambda text: text[:40])
def test_slow_answers_are_judged_within_the_limit_in_the_main_thread(text):
    started = time.perf_counter()
    verdict = judge_bounded(ATTENTION_JUDGE, "scale", text)
    assert time.perf_counter() - started < JUDGE_SECONDS
    assert not verdict.correct and verdict.feedback


@pytest.mark.slow
def test_slow_answers_are_judged_within_the_limit_from_another_thread():
    judge_bounded_in_thread = []

    def run() -> None:
        judge_bounded(ATTENTION_JUDGE, "scale", "sqrt(d_k)")  # start the child once
        for text in SLOW_ANSWERS:
            started = time.perf_counter()
            verdict = judge_bounded(ATTENTION_JUDGE, "scale", text)
            judge_bounded_in_thread.append((text, time.perf_counter() - started, verdict))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(300)
    assert len(judge_bounded_in_thread) == len(SLOW_ANSWERS)
    for text, seconds, verdict in judge_bounded_in_thread:
        assert seconds < JUDGE_SECONDS + 1.0, (text, seconds)  # + the child's round trip
        assert not verdict.correct, text


@pytest.mark.parametrize("text", ["(10^9999+1)^(1/3)", "sqrt(10^9999+1)", "(10^3000+1)^(1/3)"])
def test_huge_roots_are_too_large_well_under_a_second(text):
    started = time.perf_counter()
    verdict = judge_bounded(ATTENTION_JUDGE, "scale", text)
    assert time.perf_counter() - started < 0.3
    assert verdict.status == "too_large" and verdict.feedback == "too large to judge"


# -- no exit 3, whatever the card ---------------------------------------------------------

NAMES = ["x", "y", "M", "T", "W", "n"]
FUNCTIONS = ["sqrt", "log", "exp", "tanh", "softmax", "factorial", "cbrt", "max", "abs", "sec"]

symbol = st.fixed_dictionaries(
    {},
    optional={
        "matrix": st.booleans(),
        "positive": st.booleans(),
        "integer": st.booleans(),
        "identity": st.booleans(),
        "range": st.tuples(st.none() | st.integers(-5, 5), st.none() | st.integers(-5, 5)).map(
            list
        ),
    },
)


def expressions() -> st.SearchStrategy[str]:
    leaves = st.sampled_from([*NAMES, "2", "0", "1/2", "0.5", "10^400", "pi"])
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "^"]), inner).map(
                lambda t: f"({t[0]}){t[1]}({t[2]})"
            ),
            st.tuples(st.sampled_from(FUNCTIONS), inner).map(lambda t: f"{t[0]}({t[1]})"),
            inner.map(lambda e: f"({e})'"),
        ),
        max_leaves=6,
    )


cards = st.fixed_dictionaries(
    {
        "id": st.just("generated"),
        "title": st.just("Generated"),
        "prompt": st.just("{{b}}"),
        "symbols": st.dictionaries(st.sampled_from(NAMES), symbol, min_size=1, max_size=4),
        "blanks": st.fixed_dictionaries(
            {
                "b": st.fixed_dictionaries(
                    {
                        "answer": expressions(),
                        "forbid": st.lists(st.sampled_from([*NAMES, *FUNCTIONS, "zz"]), max_size=2),
                        "wrong": st.lists(
                            st.fixed_dictionaries(
                                {"answer": expressions(), "feedback": st.just("no")}
                            ),
                            max_size=2,
                        ),
                        "examples": st.lists(
                            st.fixed_dictionaries(
                                {"answer": expressions(), "correct": st.booleans()}
                            ),
                            max_size=2,
                        ),
                    }
                )
            }
        ),
    }
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(card=cards, answer=expressions())
def test_validate_and_check_never_exit_3(invoke, card, answer):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "generated.yaml"
        path.write_text(yaml.safe_dump(card, allow_unicode=True), encoding="utf-8")
        result = invoke("validate", str(path), "--json")
        assert result.exit_code in (0, 1), result.output
        json.loads(result.stdout)
        result = invoke("check", str(path), "-a", answer, "--json")
        assert result.exit_code in (0, 1, 2), result.output
        assert "Traceback" not in result.output
