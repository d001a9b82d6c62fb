"""Shell completion: bash's ``--tag=va<TAB>`` form, on top of Typer's completion classes.

Bash splits a word at ``=`` (it is in ``COMP_WORDBREAKS``), so for
``quizzer list --tag=va<TAB>`` Typer's script passes the words ``--tag``,
``=`` and ``va``: Click then reads ``=`` as the tag and ``va`` as a card, and
offers card ids. Joined back into ``--tag=va``, Click completes the option's
value (``validation``), and bash puts it after the ``=``.
"""

from __future__ import annotations

import os

from typer._click.shell_completion import add_completion_class, split_arg_string
from typer._completion_classes import BashComplete


def joined_option_words(words: list[str], current: int) -> tuple[list[str], str]:
    """The arguments before the cursor and the word being completed, ``--opt=`` rejoined.

    ``words`` are bash's ``COMP_WORDS`` (the program first), ``current`` its
    ``COMP_CWORD``.
    """
    incomplete = words[current] if current < len(words) else ""
    before = words[1:current]
    if len(before) >= 2 and before[-1] == "=" and before[-2].startswith("-"):
        return before[:-2], f"{before[-2]}={incomplete}"  # --tag = va
    if incomplete == "=" and before and before[-1].startswith("-"):
        return before[:-1], f"{before[-1]}="  # --tag =
    return before, incomplete


class QuizzerBashComplete(BashComplete):
    """Typer's bash completion with ``--option=value`` completed as Click means it."""

    def get_completion_args(self) -> tuple[list[str], str]:
        words = split_arg_string(os.environ["COMP_WORDS"])
        return joined_option_words(words, int(os.environ["COMP_CWORD"]))


def use_quizzer_completion() -> None:
    """Register the bash class; called after Typer registers its own, so it wins."""
    add_completion_class(QuizzerBashComplete, "bash")
