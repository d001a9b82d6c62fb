"""What every red-team case asserts, and the installed command to run it against.

Issue 27: whatever arrives (an option, a card, the environment, a signal),
quizzer ends with its documented exit code and at most a one-line message:
never exit 3, never a traceback, never a hang, never lost progress.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

#: The longest any hostile case may take, start-up included. The issue's bound is
#: 10 s of work; a loaded 2-core CI machine adds start-up, and a real hang is endless.
HANG_SECONDS = 30
#: The console script next to this interpreter: the command as installed.
QUIZZER = str(Path(sys.executable).with_name("quizzer"))


def assert_clean(exit_code: int, expected: int, stderr: str, output: str = "") -> None:
    """The exact exit code, no internal error, no traceback."""
    assert "Traceback" not in stderr + output, stderr + output
    assert "internal error" not in stderr, stderr
    assert exit_code != 3, stderr
    assert exit_code == expected, (exit_code, stderr, output[-500:])


def one_error_line(stderr: str) -> str:
    """The one error line of stderr (warnings and notes aside); fails unless there is one."""
    errors = [line for line in stderr.splitlines() if line.startswith("quizzer: error:")]
    assert len(errors) == 1, stderr
    assert len(stderr.strip().splitlines()) <= 2, stderr  # the error, at most one note
    return errors[0]


def run(
    *args: str, input: bytes = b"", env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    """The installed ``quizzer ARGS`` with ``input`` on stdin, bounded by :data:`HANG_SECONDS`."""
    return subprocess.run(
        [QUIZZER, *args],
        input=input,
        capture_output=True,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        timeout=HANG_SECONDS,
        check=False,
    )
