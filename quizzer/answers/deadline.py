"""Wall-clock limits on judging one answer, for the thread that can be interrupted.

A timer signal only reaches the main thread. :func:`deadline` bounds the
whole judgement of one answer (:func:`quizzer.answers.judge.judge_in_this_thread`
puts it around one judgement: :func:`quizzer.answers.judge_bounded` in the
main thread, and the worker child, :mod:`quizzer.answers.worker`, for every
request it serves); :func:`budget` gives one step inside it (SymPy's read-back) a
share of the time, so that a step that overruns costs its own result, not
the verdict.

Both raise exceptions that derive from BaseException, like KeyboardInterrupt,
so that no ``except Exception`` on the way (the judge's own, SymPy's,
mpmath's) can swallow them.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

#: Wall-clock limit for judging one answer.
JUDGE_SECONDS = 2.0


class JudgeTimeout(BaseException):
    """Judging one answer took longer than its limit."""


class BudgetSpent(BaseException):
    """One step of a judgement used up its share of the time."""


#: Active limits of the main thread, innermost last: (monotonic end, what to raise).
_active: list[tuple[float, type[BaseException]]] = []


def _timer_usable() -> bool:
    """Whether a timer signal can interrupt this thread."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def _arm() -> None:
    now = time.monotonic()
    pending = [end for end, _ in _active if end > now]
    signal.setitimer(signal.ITIMER_REAL, max(min(pending) - now, 1e-4) if pending else 0)


def _expire(signum: int, frame: object) -> None:
    now = time.monotonic()
    expired = [kind for end, kind in _active if end <= now + 1e-4]
    if not expired:
        _arm()  # an early tick: wait for the nearest end
        return
    raise JudgeTimeout() if JudgeTimeout in expired else BudgetSpent()


@contextmanager
def _limit(seconds: float, kind: type[BaseException]) -> Iterator[None]:
    if not _timer_usable() or seconds <= 0:
        yield
        return
    first = not _active
    previous = signal.signal(signal.SIGALRM, _expire) if first else None
    entry = (time.monotonic() + seconds, kind)
    _active.append(entry)
    _arm()
    try:
        yield
    finally:
        _active.remove(entry)
        _arm()
        if first:
            signal.signal(signal.SIGALRM, previous)


def deadline(seconds: float) -> AbstractContextManager[None]:
    """Raise :class:`JudgeTimeout` in the main thread once ``seconds`` have passed.

    Size limits on the parsed tree already bound the work (and the memory)
    of every step; this is the backstop for anything they miss. Elsewhere
    than the main thread it does nothing: :func:`judge_bounded` sends work
    from other threads to a child process instead.
    """
    return _limit(seconds, JudgeTimeout)


def budget(seconds: float) -> AbstractContextManager[None]:
    """Raise :class:`BudgetSpent` once ``seconds`` have passed (main thread only).

    The enclosing :func:`deadline` still wins when it comes first.
    """
    return _limit(seconds, BudgetSpent)
