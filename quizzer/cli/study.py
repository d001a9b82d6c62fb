"""What ``quiz``, ``review`` and ``drill`` share in the terminal: the learner at the keyboard.

The session itself is built and run by :mod:`quizzer.app.studying`; this
module gives it a :class:`~quizzer.app.studying.Learner` that reads from the
terminal (or a pipe) and draws on the screen, and turns Ctrl-C into exit 130.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

import typer

from quizzer.cli.terminal import ended_by_signal, read_line, start_without_interrupts
from quizzer.errors import ExitCode

if TYPE_CHECKING:
    from quizzer.app.studying import Learner, ReviewPlan
    from quizzer.app.workspace import Workspace
    from quizzer.study.events import EndReason, Event, Prompt
    from quizzer.ui.screen import Screen


def terminal_learner(
    workspace: Workspace,
    screen: Screen,
    show: Callable[[Event], None],
    *,
    planned: Callable[[ReviewPlan], None] | None = None,
) -> Learner:
    """A learner who reads prompts on ``screen`` and types at the terminal (or a pipe).

    ``planned`` shows a review's plan before its first card.
    """
    from quizzer.app.studying import Learner

    interactive = workspace.interactive

    def read(prompt: Prompt, remaining: timedelta | None) -> str | None:
        text = screen.prompt_for(prompt, remaining)
        try:
            line = read_line(screen, text, interactive, _one_keys(prompt))
        except KeyboardInterrupt:
            end_prompt_line()
            raise
        if line is None:
            end_prompt_line()
        return line

    def end_prompt_line() -> None:
        # Ctrl-C and Ctrl-D leave the cursor after the prompt: the summary starts below.
        if interactive:
            screen.line("")

    return Learner(
        read=read,
        show=show,
        note=screen.note,
        # A pipe has no one to read the keys.
        keys=screen.keys_help if interactive else _no_keys_help,
        start_thread=start_without_interrupts,
        planned=planned or _no_plan,
    )


def _no_plan(plan: ReviewPlan) -> None:
    """Nothing: a quiz or drill has no plan to show."""


def _no_keys_help(keys: str) -> None:
    """Nothing: the key line is for a person at a terminal."""


#: The rating keys, each acting as soon as it is pressed (issue 24: "one key is one key").
RATING_KEYS = "1234"
#: The card back menu's keys (see quizzer.study.loop.MENU_KEYS), each acting at once.
MENU_KEYS = "ecrfbsn"


def _one_keys(prompt: Prompt) -> str:
    """The keys that act alone at ``prompt``: rating keys (also at a follow-up's proposed
    grade), or the card back menu's keys."""
    from quizzer.study.events import GradeAsked, RatingAsked, SectionAsked

    if isinstance(prompt, SectionAsked):
        return MENU_KEYS
    if isinstance(prompt, GradeAsked) and prompt.proposed is not None:
        return RATING_KEYS
    return RATING_KEYS if isinstance(prompt, RatingAsked) else ""


def exit_if_interrupted(ended: EndReason) -> None:
    """Ctrl-C ended the session: exit 130 (143 after SIGTERM, 129 after SIGHUP)."""
    if ended == "interrupted":
        raise typer.Exit(ended_by_signal() or int(ExitCode.INTERRUPTED))
