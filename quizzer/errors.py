"""Exit codes and the one error type the command line turns into a message."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum


class ExitCode(IntEnum):
    """What ``quizzer`` exits with. Documented in the README; checks rely on it."""

    OK = 0
    #: Something was judged and found wanting: a wrong answer, a card with problems.
    NOT_OK = 1
    #: The request itself was bad: unknown or invalid card, bad option, unreadable file.
    USAGE = 2
    #: A bug in quizzer. ``--debug`` shows the traceback.
    INTERNAL = 3
    #: Ctrl-C.
    INTERRUPTED = 130


class QuizzerError(Exception):
    """An error with a one-line message for the user and an exit code."""

    exit_code: ExitCode = ExitCode.USAGE

    def __init__(self, message: str, exit_code: ExitCode | None = None) -> None:
        super().__init__(message)
        self.message = message
        if exit_code is not None:
            self.exit_code = exit_code


class CardNotFound(QuizzerError):
    """No card has that id, and no file has that path."""


class DeckNotFound(QuizzerError):
    """A ``--deck`` or ``QUIZZER_DECKS`` path does not exist."""


class InvalidCard(QuizzerError):
    """The card named on the command line has problems."""

    def __init__(self, problems: Sequence[object]) -> None:
        self.problems = list(problems)
        first = str(problems[0]) if problems else "invalid card"
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        super().__init__(f"invalid card: {first}{more}")
