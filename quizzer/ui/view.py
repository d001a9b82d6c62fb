"""What every view is: a part of the screen that draws on the screen's two streams.

A view holds the :class:`~quizzer.ui.console.Output` it draws on and nothing
else; :class:`quizzer.ui.screen.Screen` holds one of each view. A view's
public names are its own: no two views define the same one (a test checks),
so a name can never be silently taken from another view, as it was when the
screen was built from mixins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from quizzer.ui.console import Output


class View:
    """A part of the screen; ``out`` is the screen's standard output console."""

    def __init__(self, output: Output) -> None:
        self.output = output

    @property
    def out(self) -> Console:
        # Read at each use: a test (or the command line) may swap the console.
        return self.output.out
