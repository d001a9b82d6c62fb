"""The wall-clock limit on judging one answer, for the thread that can be interrupted.

A timer signal only reaches the main thread: :func:`quizzer.answers.judge_bounded`
uses this there, and the worker child (:mod:`quizzer.answers.worker`) uses it
for every request it serves.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from quizzer.answers.judge import CardJudge, Verdict

#: Wall-clock limit for judging one answer.
JUDGE_SECONDS = 2.0


class JudgeTimeout(BaseException):
    """Judging one answer took longer than its limit.

    A BaseException, like KeyboardInterrupt, so that no ``except Exception``
    on the way (the judge's own, SymPy's, mpmath's) can swallow it.
    """


def _timer_usable() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`JudgeTimeout` in the main thread once ``seconds`` have passed.

    Size limits on the parsed tree already bound the work (and the memory)
    of every step; this is the backstop for anything they miss. A timer
    signal only reaches the main thread; :func:`judge_bounded` sends work
    from other threads to a child process instead.
    """
    if not _timer_usable() or seconds <= 0:
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise JudgeTimeout()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def judge_in_this_thread(
    judge: CardJudge,
    blank: str,
    text: str,
    seconds: float = JUDGE_SECONDS,
    *,
    read_back: bool = True,
) -> Verdict:
    """``judge.judge(blank, text)`` under :func:`deadline`, limits turned into verdicts."""
    try:
        with deadline(seconds):
            return judge.judge(blank, text, read_back=read_back)
    except JudgeTimeout:
        return Verdict(
            blank, text, False, "too_large", feedback="took too long to judge", decided_by="limits"
        )
    except (RecursionError, MemoryError):
        return Verdict(
            blank,
            text,
            False,
            "too_large",
            feedback="answer too complex to judge",
            decided_by="limits",
        )
