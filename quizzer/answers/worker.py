"""Judging where a timer signal cannot reach: a warm child process.

In the main thread :func:`quizzer.answers.judge_bounded` stops a judgement
with a timer signal. Anywhere else (a library caller's worker thread, a web
server) there is no such timer, so the judgement runs in a child process
instead: started once, kept warm, given a memory ceiling, and killed and
replaced when an answer overruns its time.

The child is ``python -m quizzer.answers.worker`` speaking JSON lines on its
standard streams: plain data both ways, and no re-import of the caller's
``__main__`` as multiprocessing's spawn would do.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from quizzer.answers.deadline import WALL_FACTOR

if TYPE_CHECKING:
    from quizzer.answers.judge import CardJudge, Verdict

#: Address-space ceiling for the child, on top of what it uses once warm.
MEMORY_HEADROOM_BYTES = 1 << 30
#: How long a new child may take to import SymPy and numpy and say it is ready.
START_SECONDS = 60.0
#: The child stops an overrun itself with its own timer (CPU time, backed by
#: the clock at WALL_FACTOR times the limit); the parent kills it
#: only when that fails (a C routine that never returns to Python).
GRACE_SECONDS = 1.0


class WorkerError(Exception):
    """The judging process could not be started."""


class JudgeWorker:
    """A child process that judges one answer at a time, within a time limit."""

    def __init__(self, seconds: float, *, memory_headroom: int = MEMORY_HEADROOM_BYTES) -> None:
        self.seconds = seconds
        self.memory_headroom = memory_headroom
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._replies: queue.Queue[str | None] = queue.Queue()
        self.restarts = 0  # how many times a child was replaced after overrunning or dying
        self.unavailable = False  # a child could not be started: do not keep trying

    def judge(self, judge: CardJudge, blank: str, text: str) -> Verdict:
        from quizzer.answers.judge import Verdict

        request = {
            "card": judge.card.model_dump(mode="json", exclude_none=True),
            "seed": judge.seed,
            "blank": blank,
            "text": text,
        }
        with self._lock:  # one answer at a time: the child judges in its main thread
            process = self._started()
            try:
                assert process.stdin is not None
                process.stdin.write(json.dumps(request) + "\n")
                process.stdin.flush()
                reply = self._reply_of(process)
            except (OSError, queue.Empty):
                reply = None
            if reply is not None:
                fields = json.loads(reply)
                fields["accepted"] = tuple(fields.get("accepted", ()))  # JSON made it a list
                return Verdict(**fields)
            self._stop()  # overran, or died (out of memory): the next call starts afresh
            self.restarts += 1
        return Verdict.too_large(blank, text, "took too long to judge")

    def _reply_of(self, process: subprocess.Popen[str]) -> str | None:
        """The child's reply, waiting while it computes: its limit is CPU time, so
        on a loaded machine it may need longer on the clock. Past ``seconds +
        GRACE_SECONDS`` a child that used no CPU in the last slice is stuck
        (stopped, or blocked outside Python), and past WALL_FACTOR times the
        limit it is given up on; either way: raise queue.Empty."""
        started = time.monotonic()
        patient = self.seconds + GRACE_SECONDS
        give_up = started + self.seconds * WALL_FACTOR + GRACE_SECONDS
        used = _cpu_seconds(process.pid)
        while True:
            try:
                return self._replies.get(timeout=_SLICE)
            except queue.Empty:
                now = time.monotonic()
                before, used = used, _cpu_seconds(process.pid)
                stuck = used is None or before is None or used <= before
                if now >= give_up or (now - started >= patient and stuck):
                    raise

    def close(self) -> None:
        with self._lock:
            self._stop()

    def _started(self) -> subprocess.Popen[str]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        if self.unavailable:
            raise WorkerError("the judging process could not be started")
        self._stop()
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "quizzer.answers.worker", str(self.seconds)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                env=environment,
            )
        except OSError as error:  # no usable interpreter (an embedded Python, say)
            self.unavailable = True
            raise WorkerError(f"cannot start the judging process: {error}") from None
        self._replies = queue.Queue()
        threading.Thread(
            target=_forward_lines, args=(self._process, self._replies), daemon=True
        ).start()
        try:
            ready = self._replies.get(timeout=START_SECONDS) == '"ready"'
        except queue.Empty:
            ready = False
        if not ready:
            self._stop()
            self.unavailable = True
            raise WorkerError("the judging process did not start")
        return self._process

    def _stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            for stream in (self._process.stdin, self._process.stdout):
                if stream is not None:
                    stream.close()
        self._process = None


#: How often a waiting parent looks at the child's CPU time.
_SLICE = 0.25


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time a process has used, from /proc (None where that is unknown)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _forward_lines(process: subprocess.Popen[str], replies: queue.Queue[str | None]) -> None:
    """Hand each line the child writes to the waiting caller; None once it is gone."""
    assert process.stdout is not None
    try:
        for line in process.stdout:
            replies.put(line.strip())
    except (OSError, ValueError):  # the parent closed the pipe while killing the child
        pass
    replies.put(None)


# -- the child ------------------------------------------------------------------


def serve(seconds: float) -> None:
    """Judge each request line with the main-thread timer until input ends."""
    from quizzer.answers import symbolic
    from quizzer.answers.judge import CardJudge, judge_in_this_thread
    from quizzer.cards.model import Card

    symbolic.warm()  # before "ready": loading is no answer's time
    _limit_memory(MEMORY_HEADROOM_BYTES)
    judges: dict[str, CardJudge] = {}
    _reply("ready")
    for line in sys.stdin:
        request = json.loads(line)
        key = json.dumps([request["card"], request["seed"]], sort_keys=True)
        if key not in judges:
            judges[key] = CardJudge(Card.model_validate(request["card"]), seed=request["seed"])
        verdict = judge_in_this_thread(judges[key], request["blank"], request["text"], seconds)
        _reply(asdict(verdict))


def _reply(data: Any) -> None:
    sys.stdout.write(json.dumps(data) + "\n")
    sys.stdout.flush()


def _limit_memory(headroom: int) -> None:
    """Cap the child's address space at what it uses now plus ``headroom``."""
    if sys.platform != "linux":
        return  # RLIMIT_AS is unreliable on macOS and absent on Windows
    import resource

    with open("/proc/self/statm") as statm:
        in_use = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    ceiling = in_use + headroom
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        ceiling = min(ceiling, hard)
    resource.setrlimit(resource.RLIMIT_AS, (ceiling, hard))


if __name__ == "__main__":
    serve(float(sys.argv[1]))
