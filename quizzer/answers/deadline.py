"""Time limits on judging one answer, for the thread that can be interrupted.

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

A limit counts the CPU time of the judging (main) thread, not the clock: on a machine shared
with other work a simple answer would otherwise run out of time waiting for
a core, and a right answer would be refused because of the load (issue 22).
The clock still backs it up at :data:`WALL_FACTOR` times the limit, for a
judgement that waits without computing.
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import AbstractContextManager
from types import FrameType
from typing import Any

#: CPU-time limit for judging one answer (see the module note).
JUDGE_SECONDS = 2.0


class JudgeTimeout(BaseException):
    """Judging one answer took longer than its limit."""


class BudgetSpent(BaseException):
    """One step of a judgement used up its share of the time."""


#: The wall-clock backstop of a limit, as a multiple of its CPU time.
WALL_FACTOR = 5.0

#: Active limits of the main thread, innermost last:
#: [CPU-time end, monotonic end, what to raise].
_active: list[list[Any]] = []


def _timer_usable() -> bool:
    """Whether a timer signal can interrupt this thread."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def _arm() -> None:
    # The process CPU timer fires no later than this thread's own time is up
    # (it counts every thread); _expire checks this thread's time and re-arms.
    # An expired limit fires again until its block has exited: an exception
    # raised where Python drops it (a gc callback) must not lose the limit.
    cpu, now = time.thread_time(), time.monotonic()
    cpu_ends = [cpu_end for cpu_end, _, _ in _active]
    wall_ends = [wall_end for _, wall_end, _ in _active]
    signal.setitimer(signal.ITIMER_PROF, max(min(cpu_ends) - cpu, _REFIRE) if cpu_ends else 0)
    signal.setitimer(signal.ITIMER_REAL, max(min(wall_ends) - now, _REFIRE) if wall_ends else 0)


#: How soon an expired limit fires again while its block has not yet exited.
_REFIRE = 0.005


def _expire(signum: int, frame: FrameType | None) -> None:
    cpu, now = time.thread_time(), time.monotonic()
    expired = [
        kind
        for cpu_end, wall_end, kind in _active
        if cpu_end <= cpu + 1e-4 or wall_end <= now + 1e-4
    ]
    _arm()
    if not expired or (frame is not None and frame.f_code.co_filename == __file__):
        return  # early, or inside this module's own clean-up: fire again later
    raise JudgeTimeout() if JudgeTimeout in expired else BudgetSpent()


class _Limit(AbstractContextManager[None]):
    """One time limit; its clean-up runs in this module, where no limit fires."""

    def __init__(self, seconds: float, kind: type[BaseException]) -> None:
        self.seconds = seconds
        self.kind = kind
        self.active = False

    def __enter__(self) -> None:
        if not _timer_usable() or self.seconds <= 0:
            return
        self.first = not _active
        if self.first:
            self.previous = (
                signal.signal(signal.SIGALRM, _expire),
                signal.signal(signal.SIGPROF, _expire),
            )
        self.entry = [
            time.thread_time() + self.seconds,
            time.monotonic() + self.seconds * WALL_FACTOR,
            self.kind,
        ]
        _active.append(self.entry)
        self.active = True
        _arm()

    def __exit__(self, *exc_info: object) -> None:
        if not self.active:
            return
        _active[:] = [item for item in _active if item is not self.entry]
        _arm()
        if self.first:
            signal.signal(signal.SIGALRM, self.previous[0])
            signal.signal(signal.SIGPROF, self.previous[1])


def deadline(seconds: float) -> AbstractContextManager[None]:
    """Raise :class:`JudgeTimeout` in the main thread once ``seconds`` of CPU time
    have passed (or ``WALL_FACTOR`` times as many on the clock).

    Size limits on the parsed tree already bound the work (and the memory)
    of every step; this is the backstop for anything they miss. Elsewhere
    than the main thread it does nothing: :func:`judge_bounded` sends work
    from other threads to a child process instead.
    """
    return _Limit(seconds, JudgeTimeout)


def budget(seconds: float) -> AbstractContextManager[None]:
    """Raise :class:`BudgetSpent` once ``seconds`` of CPU time have passed (main thread only).

    The enclosing :func:`deadline` still wins when it comes first.
    """
    return _Limit(seconds, BudgetSpent)
