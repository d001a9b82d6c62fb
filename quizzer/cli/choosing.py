"""The options that choose cards by their state: ``quiz --due | --weak [N] | --new``.

Choosing itself is :mod:`quizzer.app.choosing`'s.
"""

from __future__ import annotations

from typing import Annotated

import typer

# Typer bundles its own Click: its Context is the type these overrides receive.
from typer._click import Context as ClickContext
from typer.core import TyperCommand

from quizzer.progress.selection import DEFAULT_WEAK

DueOption = Annotated[bool, typer.Option("--due", help="Only cards due now, most overdue first.")]
WeakOption = Annotated[
    int | None,
    typer.Option(
        "--weak",
        metavar="[N]",
        min=1,
        help=f"The N cards you are least likely to recall (default {DEFAULT_WEAK}).",
        show_default=False,
    ),
]
NewOption = Annotated[bool, typer.Option("--new", help="Only cards you have never reviewed.")]

#: Options that may be given without their number, and the number they then mean.
OPTIONAL_COUNTS = {"--weak": DEFAULT_WEAK}


class OptionalCountCommand(TyperCommand):
    """A command whose count options (``--weak``) may stand alone: ``--weak`` is ``--weak 10``.

    Typer's bundled Click has no optional option values, so a bare ``--weak``
    is rewritten before parsing; a following number is kept as its value.
    """

    def parse_args(self, ctx: ClickContext, args: list[str]) -> list[str]:
        return super().parse_args(ctx, with_counts_filled(args, OPTIONAL_COUNTS))


def with_counts_filled(args: list[str], defaults: dict[str, int]) -> list[str]:
    """``args`` with each bare count option given its default (``--weak`` → ``--weak=10``)."""
    filled: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            return filled + args[index:]
        following = args[index + 1] if index + 1 < len(args) else ""
        if arg in defaults and not following.lstrip("-").isdecimal():
            filled.append(f"{arg}={defaults[arg]}")
        else:
            filled.append(arg)
    return filled
