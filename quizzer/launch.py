"""The console script's entry point, kept free of imports.

Loading Typer, Rich and the command modules takes a noticeable moment; a
Ctrl-C pressed then would otherwise end in a KeyboardInterrupt traceback,
before the command layer is there to turn it into exit code 130.
"""

from __future__ import annotations

import sys

from quizzer.errors import ExitCode


def main() -> None:
    try:
        from quizzer.cli import main as run_command_line

        run_command_line()
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        raise SystemExit(int(ExitCode.INTERRUPTED)) from None
