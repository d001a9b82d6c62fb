"""Judging off the main thread: a warm child process, killed and replaced on overrun."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

import pytest

from quizzer.answers import CardJudge, judge_bounded
from quizzer.answers.worker import GRACE_SECONDS, JudgeWorker
from quizzer.cards.deck import load_card_file

from .conftest import ATTENTION

pytestmark = pytest.mark.slow

ATTENTION_JUDGE = CardJudge(load_card_file(ATTENTION)[0].card)

CASES = [
    ("scale", "d_k^(1/2)"),
    ("scale", "\\sqrt{d_k}"),
    ("scale", "d_k"),
    ("scale", "log(d_k)"),
    ("scale", "2*sqrt(d_k)"),
    ("scale", "sqrt(d_model)"),
    ("scale", "sqrt(d_k"),
    ("values", "V"),
    ("values", "V^T"),
    ("values", "__import__('os').system('true')"),
]


@pytest.fixture(scope="module")
def worker():
    worker = JudgeWorker(2.0)
    yield worker
    worker.close()


def in_a_thread(function, *args):
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("value", function(*args)))
    thread.start()
    thread.join(120)
    return result["value"]


@pytest.mark.parametrize(("blank", "text"), CASES)
def test_the_child_judges_exactly_as_the_main_thread(worker, blank, text):
    assert worker.judge(ATTENTION_JUDGE, blank, text) == ATTENTION_JUDGE.judge(blank, text)


def test_judge_bounded_off_the_main_thread_goes_through_a_child():
    verdict = in_a_thread(judge_bounded, ATTENTION_JUDGE, "scale", "d_k**0.5")
    assert verdict.correct and verdict.interpreted == "sqrt(d_k)"
    from quizzer.answers import _workers

    assert _workers[2.0]._process is not None  # a child did the work


@pytest.mark.parametrize("text", ["9**9**9**9", "factorial(10**10)", "(" * 10_000 + "x"])
def test_pathological_answers_from_a_thread_are_quick_and_not_correct(worker, text):
    started = time.perf_counter()
    verdict = worker.judge(ATTENTION_JUDGE, "scale", text)
    assert time.perf_counter() - started < 2.5  # generous: this is a hang guard
    assert not verdict.correct


def test_a_stuck_child_is_killed_and_replaced(worker):
    worker.judge(ATTENTION_JUDGE, "scale", "d_k")  # warm
    assert worker._process is not None
    stuck = worker._process.pid
    os.kill(stuck, signal.SIGSTOP)  # stands in for a C routine that never returns
    started = time.perf_counter()
    verdict = worker.judge(ATTENTION_JUDGE, "scale", "sqrt(d_k)")
    waited = time.perf_counter() - started
    assert verdict.status == "too_large" and not verdict.correct
    assert worker.seconds <= waited < worker.seconds + GRACE_SECONDS + 1
    assert worker.restarts == 1
    with pytest.raises(ProcessLookupError):  # killed and reaped
        os.kill(stuck, 0)
    assert worker.judge(ATTENTION_JUDGE, "scale", "sqrt(d_k)").correct  # a fresh child


def test_a_dead_child_is_replaced(worker):
    worker.judge(ATTENTION_JUDGE, "scale", "d_k")
    assert worker._process is not None
    worker._process.kill()
    worker._process.wait()
    assert worker.judge(ATTENTION_JUDGE, "values", "V").correct


def test_threads_judging_at_once_each_get_their_own_verdict(worker):
    results: dict[int, object] = {}

    def run(index: int) -> None:
        blank, text = CASES[index % len(CASES)]
        results[index] = worker.judge(ATTENTION_JUDGE, blank, text)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    for index, verdict in results.items():
        blank, text = CASES[index % len(CASES)]
        assert verdict == ATTENTION_JUDGE.judge(blank, text)


@pytest.mark.skipif(sys.platform != "linux", reason="address-space limits are set on Linux")
def test_the_child_has_a_memory_ceiling(worker):
    worker.judge(ATTENTION_JUDGE, "scale", "d_k")
    assert worker._process is not None
    with open(f"/proc/{worker._process.pid}/limits") as limits:
        line = next(row for row in limits if row.startswith("Max address space"))
    assert line.split()[3] != "unlimited"


def test_without_a_child_process_judging_still_works_in_the_thread(monkeypatch):
    # An embedded Python may have no interpreter to start: fall back to size limits.
    from quizzer.answers import _workers

    broken = JudgeWorker(2.0)
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    monkeypatch.setitem(_workers, 2.0, broken)
    verdict = in_a_thread(judge_bounded, ATTENTION_JUDGE, "scale", "d_k^(1/2)")
    assert verdict.correct
    assert broken.unavailable
    started = time.perf_counter()
    assert not in_a_thread(judge_bounded, ATTENTION_JUDGE, "scale", "d_k").correct
    assert time.perf_counter() - started < 1  # no second attempt to start a child
