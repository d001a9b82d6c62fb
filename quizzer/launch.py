"""The console script's entry point, kept free of imports.

Loading Typer, Rich and the command modules takes a noticeable moment; a
Ctrl-C pressed then would otherwise end in a KeyboardInterrupt traceback,
before the command layer is there to turn it into exit code 130.
"""

from __future__ import annotations

import sys

#: quizzer.errors.ExitCode.INTERRUPTED, written out: importing even that module
#: (and the enum module behind it) would widen the unguarded window.
INTERRUPTED = 130


def main() -> None:
    try:
        from quizzer.cli import main as run_command_line

        run_command_line()
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        raise SystemExit(INTERRUPTED) from None
