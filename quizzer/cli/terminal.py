"""Reading lines safely: Ctrl-C at every prompt, and bounded lines from a pipe.

Two gaps in how CPython delivers SIGINT can leave ``input()`` waiting after
Ctrl-C, until the next key is pressed:

* the kernel may hand the signal to a background thread (ours, or one of
  OpenBLAS's), and then nothing interrupts the main thread's ``read()``;
* a signal that lands after Python's last check but before ``read()`` or
  readline's ``select()`` starts is only noticed once that call returns.

:func:`start_without_interrupts` closes the first, :func:`interrupts_reach_input`
the second.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from quizzer.ui.screen import Screen

#: How often a pending Ctrl-C is looked at while waiting for a line.
TICK_SECONDS = 0.2

#: Characters kept of one piped line. The judge refuses answers of over 1,000
#: characters, so this keeps enough to say "too large" and no more.
MAX_PIPED_LINE = 1024
#: Characters of one over-long line read and dropped; what follows counts as the next line.
MAX_SKIPPED = 16 << 20
#: Appended to a line cut at :data:`MAX_PIPED_LINE`, so no one mistakes it for the whole.
CUT = "…"


def read_piped_line(stream: TextIO, limit: int = MAX_PIPED_LINE) -> str | None:
    """The next line from a pipe without its newline; None at the end of input.

    Memory stays bounded whatever arrives: a longer line is read to its end in
    pieces and only its first ``limit`` characters are kept, followed by
    :data:`CUT`. A 10 MB line is thus judged (and echoed) as a short one.
    """
    line = stream.readline(limit + 1)
    if line == "":
        return None
    if len(line) <= limit or line.endswith("\n"):
        return line.removesuffix("\n")
    rest, skipped = line, 0
    # Skip the rest of the line, but not forever: /dev/zero as input has no newline.
    while rest and not rest.endswith("\n") and skipped < MAX_SKIPPED:
        rest = stream.readline(1 << 16)
        skipped += len(rest)
    return line[:limit] + CUT


def start_without_interrupts(thread: threading.Thread) -> None:
    """Start ``thread`` with SIGINT blocked in it (and in any thread it starts).

    A new thread inherits its creator's signal mask (OpenBLAS starts its pool
    from the thread that imports numpy), so block SIGINT around the start and
    restore it at once; a Ctrl-C pressed in between stays pending and reaches
    the main thread on restore.
    """
    if not hasattr(signal, "pthread_sigmask"):  # Windows: signals go to the main thread
        thread.start()
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        thread.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextmanager
def interrupts_reach_input(tick: float = TICK_SECONDS) -> Iterator[None]:
    """While waiting for a line, wake the read every ``tick`` seconds.

    Each timer signal makes the blocked ``read()``/``select()`` return EINTR,
    and CPython then runs pending handlers: a Ctrl-C that slipped into the gap
    raises KeyboardInterrupt within ``tick`` instead of waiting for a key.
    The timer handler itself does nothing. Main thread and POSIX only.
    """
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return
    previous = signal.signal(signal.SIGALRM, _wake)
    signal.setitimer(signal.ITIMER_REAL, tick, tick)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _wake(signum: int, frame: object) -> None:
    """Nothing to do: being called at all is what wakes the read."""


def read_line(screen: Screen, prompt: str, interactive: bool, one_key: str = "") -> str | None:
    """The next line typed, or None at the end of input (Ctrl-D, end of a pipe).

    In a terminal a Ctrl-C raises KeyboardInterrupt at once, even while waiting,
    and each character of ``one_key`` acts as soon as it is pressed (no Enter).
    """
    if interactive:
        try:
            with interrupts_reach_input():
                return screen.ask_key(prompt, one_key) if one_key else screen.ask(prompt)
        except EOFError:
            return None
    return read_piped_line(sys.stdin)
