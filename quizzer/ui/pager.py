"""A pager for long output (``show``, ``stats``, ``list``), as git does it.

Only when standard output is a terminal and the text is taller than it:
``QUIZZER_PAGER`` (empty: no pager), else ``$PAGER``, else ``less -R``.
Piped output is printed whole, as before.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

PAGER_ENV = "QUIZZER_PAGER"
DEFAULT_PAGER = "less -R"


def pager_command(env: Mapping[str, str] | None = None) -> list[str] | None:
    """The pager to run, or None when paging is turned off (``QUIZZER_PAGER=``).

    Args:
        env: The environment (default: the process's).

    Returns:
        The command as a list of words, or None.
    """
    env = os.environ if env is None else env
    text = env[PAGER_ENV] if PAGER_ENV in env else env.get("PAGER") or DEFAULT_PAGER
    words = shlex.split(text) if text.strip() else []
    return words or None


def taller_than_screen(text: str, height: int) -> bool:
    """Whether ``text`` needs more lines than the terminal has (less the prompt line)."""
    return text.count("\n") > height - 1


@contextmanager
def paged(console: Console, enabled: bool = True) -> Iterator[None]:
    """Send what is printed on ``console`` inside the block through a pager, if it must.

    Args:
        console: Rich's console for standard output.
        enabled: False for ``--no-pager``.
    """
    command = pager_command() if enabled else None
    to_terminal = console.file is sys.stdout and sys.stdout.isatty()
    if command is None or not to_terminal or shutil.which(command[0]) is None:
        yield
        return
    with console.capture() as captured:
        yield
    text = captured.get()
    if not taller_than_screen(text, console.size.height):
        console.file.write(text)
        console.file.flush()
        return
    env = dict(os.environ)
    env.setdefault("LESS", "FRX")  # as git: quit at the end of short text, keep colours
    try:
        subprocess.run(command, input=text, text=True, env=env, check=False)
    except OSError:
        console.file.write(text)
        console.file.flush()
