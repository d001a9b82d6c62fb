"""How a judged answer looks: in a session, and as ``quizzer check``'s report."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from quizzer.ui.view import View
from quizzer.ui.widgets import visible

if TYPE_CHECKING:
    from quizzer.answers import Verdict
    from quizzer.cards.model import Card

_METHODS = {
    "symbolic": "same expression after SymPy's normalisation",
    "numeric": "compared by value at random points",
    "words": "matched the accepted words",
    "parser": "could not be read",
    "limits": "beyond the judge's limits",
    "forbid": "a word this blank forbids",
    "card": "the card's own answer cannot be judged",
}


class VerdictView(View):
    """The screen of ``check``."""

    def verdicts(self, card: Card, verdicts: Sequence[Verdict]) -> None:
        """``check``'s report: each verdict, with which check decided it."""
        numbers = {name: i for i, name in enumerate(card.blanks, start=1)}
        for verdict in verdicts:
            self.out.print(verdict_text(verdict, numbers.get(verdict.blank, 0), show_method=True))
        right = sum(v.correct for v in verdicts)
        style = "green" if right == len(verdicts) else "yellow"
        self.output.note_styled(f"{right} of {len(verdicts)} blanks right", style)


#: The most of a typed answer the verdict repeats (about two lines at 80 columns).
_ECHO_LIMIT = 140


def _append_shortened(line: Text, text: str, style: str) -> None:
    """``text`` made visible, cut after ``_ECHO_LIMIT`` characters with its length noted.

    A pasted page would push the verdict off the screen; its start is enough.
    """
    if len(text) <= _ECHO_LIMIT:
        line.append(visible(text), style=style)
        return
    line.append(visible(text[:_ECHO_LIMIT]) + "…", style=style)
    line.append(f" ({len(text)} characters)", style="dim")


def verdict_text(verdict: Verdict, number: int, *, show_method: bool = False) -> RenderableType:
    """✓/✗, the blank, what was typed, how it was read, and why it is wrong."""
    mark, style = ("✓", "bold green") if verdict.correct else ("✗", "bold red")
    head = Text.assemble((mark, style), " ", (f"[{number}] {verdict.blank}", "bold"), "  ")
    if verdict.status == "unanswered":
        head.append("not answered", style="dim")
        return head
    typed = verdict.given.strip()
    # Columns count from the start of what was typed, leading spaces included.
    offset = len(head.plain) - (len(verdict.given) - len(verdict.given.lstrip()))
    _append_shortened(head, typed, "")
    if verdict.interpreted and verdict.interpreted != typed:
        head.append("  read as ", style="dim")
        _append_shortened(head, verdict.interpreted, "cyan")
    lines: list[RenderableType] = [head]
    if verdict.column is not None and len(head.plain) < 80:
        lines.append(Text(" " * (offset + verdict.column - 1) + "^", style="bold red"))
    pretty = verdict.pretty or ""
    if verdict.interpreted and verdict.interpreted != typed and pretty != verdict.interpreted:
        # SymPy's two-dimensional form, when it is small enough to help rather than clutter.
        rows = pretty.splitlines()
        if len(rows) <= 6 and max(len(row) for row in rows) <= 60:
            lines.append(Padding(Text(pretty, style="cyan"), (0, 0, 0, 4), expand=False))
    if verdict.feedback:
        # Feedback may quote what was typed ("unexpected '…' at column 4").
        feedback = Text(visible(verdict.feedback), style="green" if verdict.correct else "yellow")
        lines.append(Padding(feedback, (0, 0, 0, 4), expand=False))
    if show_method and verdict.decided_by in _METHODS:
        lines.append(Text(f"    decided by: {_METHODS[verdict.decided_by]}", style="dim"))
    return Group(*lines)
