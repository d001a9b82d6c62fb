"""``quizzer validate``: each problem found in a card file, then a summary."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich.text import Text

from quizzer.ui.view import View
from quizzer.ui.widgets import counted

if TYPE_CHECKING:
    from quizzer.cards.deck import Problem


class ProblemsView(View):
    """The screen of ``validate``."""

    def problems(self, problems: Iterable[Problem]) -> None:
        """One ``path:line:column: message`` line per problem."""
        for problem in problems:
            style = "yellow" if problem.severity == "warning" else "red"
            location = f"{problem.path}:{problem.line}:{problem.column}:"
            prefix = "warning: " if problem.severity == "warning" else ""
            self.out.print(
                Text.assemble((location, "bold"), " ", (prefix, style), problem.message),
                soft_wrap=True,
            )

    def validation_summary(self, cards: int, errors: int, warnings: int) -> None:
        """How many cards were checked and what was found."""
        noun = "card" if cards == 1 else "cards"
        if errors == 0 and warnings == 0:
            self.output.err.print(Text(f"✓ {cards} {noun} checked, no problems", style="green"))
            return
        parts = []
        if errors:
            parts.append(counted(errors, "problem"))
        if warnings:
            parts.append(counted(warnings, "warning"))
        style = "red" if errors else "yellow"
        self.output.err.print(Text(f"{cards} {noun} checked: {', '.join(parts)}", style=style))
