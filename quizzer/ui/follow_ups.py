"""A card's follow-up questions after its blanks, and a typed answer's key points checked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from quizzer.cards.sections import BY_FIELD
from quizzer.ui.card import section_style, section_view
from quizzer.ui.view import View
from quizzer.ui.widgets import counted, markdown

if TYPE_CHECKING:
    from quizzer.answers.keypoints import FollowUpCheck
    from quizzer.study import events as flow


class FollowUpView(View):
    """The follow-ups of ``quiz`` and ``review``: listed when piped, one at a time in a
    terminal, each typed answer checked on its key points."""

    def follow_ups_listed(self, event: flow.FollowUpsListed) -> None:
        """Every follow-up with its approach (no terminal to wait on)."""
        view = section_view(event.card, BY_FIELD["follow_ups"])
        if view is not None:
            self.out.print(view)

    def question_shown(self, event: flow.QuestionShown) -> None:
        """One follow-up question; its approach waits for Enter."""
        if event.item.index == 0:
            from rich.rule import Rule

            section = BY_FIELD["follow_ups"]
            self.out.print(Rule(section.title, style=section_style(section), align="left"))
        question = Text.assemble(
            (f"Q{event.item.number}. ", "bold magenta"), (event.follow_up.question, "bold")
        )
        self.out.print(question)

    def approach_shown(self, event: flow.ApproachShown) -> None:
        """The key points the answer covered and missed (if it was checked), then the approach."""
        if event.check is not None:
            self.out.print(Padding(key_points_checked(event.check), (0, 0, 0, 4), expand=False))
        self.out.print(Padding(markdown(event.approach), (0, 0, 1, 4)))


def key_points_checked(check: FollowUpCheck) -> RenderableType:
    """``✓ point`` for each key point covered, ``✗ point`` for each missed, then the
    grade the coverage proposes; a long point wraps under its own text."""
    from quizzer.study.follow_ups import proposed_grade

    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for point in check.covered:
        grid.add_row(Text("✓", style="bold green"), Text(point, style="green"))
    for point in check.missed:
        grid.add_row(Text("✗", style="bold red"), Text(point))
    total = len(check.covered) + len(check.missed)
    summary = Text.assemble(
        (f"{len(check.covered)} of {counted(total, 'key point')} covered · proposed ", "dim"),
        (proposed_grade(check).label, "bold"),
    )
    return Group(grid, summary)
