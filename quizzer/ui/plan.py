"""What comes before a session: bare ``quizzer``'s status, and what ``review`` or
``quiz --due | --weak | --new`` is about to show (or why nothing)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text

from quizzer.ui.view import View
from quizzer.ui.widgets import counted, relative, when

if TYPE_CHECKING:
    from datetime import datetime

    from quizzer.progress import selection


class PlanView(View):
    """The learner's standing and the cards a session is about to show."""

    def nothing_due(self, next_due: tuple[str, datetime] | None, now: datetime) -> None:
        """What ``review`` says when no card is due, and when the next one is."""
        if next_due is None:
            self.out.print(
                "Nothing to review: no card is scheduled and no new card is left for today."
            )
        else:
            card_id, due = next_due
            self.out.print(f"Nothing due. Next: {card_id}, {relative(due - now)} ({when(due)}).")
        self.out.print(Text("To practise anyway: quizzer quiz", style="dim"))

    def nothing_to_pick(
        self, pick: str, next_due: tuple[str, datetime] | None, now: datetime
    ) -> None:
        """Why ``quiz --due | --weak | --new`` found no card, and what to do instead."""
        if pick == "due" and next_due is not None:
            self.nothing_due(next_due, now)
            return
        if pick == "due":
            self.out.print("Nothing due: no card has been reviewed yet.")
            self.out.print(Text("Next: quizzer quiz --new", style="dim"))
        elif pick == "new":
            self.out.print("No new cards: you have reviewed every card chosen.")
            self.out.print(Text("Next: quizzer quiz --due, or quizzer quiz --weak", style="dim"))
        else:
            self.out.print("No card has been reviewed yet, so none is weak.")
            self.out.print(Text("Next: quizzer quiz --new", style="dim"))

    def status(self, status: selection.Status, now: datetime) -> None:
        """What a bare ``quizzer`` prints: the learner's standing and the command to run next."""
        self.out.print(
            Text.assemble(
                ("quizzer", "bold"),
                f" · {counted(status.cards, 'card')} · ",
                (f"{status.due} due now", "bold yellow" if status.due else ""),
                f" · {status.new} new",
                f" ({status.new_today} today)" if status.new_today != status.new else "",
                f" · streak {counted(status.streak, 'day')}",
                *(
                    (f" · {count} {what}", "dim")
                    for count, what in ((status.suspended, "suspended"), (status.buried, "buried"))
                    if count
                ),
            )
        )
        if status.due:
            command = "quizzer quiz --due"
        elif status.new_today if status.new_today is not None else status.new:
            command = "quizzer quiz --new --limit 5"
        else:
            command = "quizzer quiz --weak"
        if not status.due and status.next_due is not None:
            due = status.next_due
            self.out.print(Text(f"Next review {relative(due - now)} ({when(due)})."))
        self.out.print(
            Text.assemble("Next: ", (command, "bold"), ("  ·  all commands: quizzer --help", "dim"))
        )

    def review_plan(self, due: int, new: int) -> None:
        """How many cards ``review`` is about to show."""
        self.out.print(Text(f"Review: {due} due, {new} new", style="bold"))

    def review_workload(self, counts: Sequence[int], desired_retention: float) -> None:
        """The reviews a day the schedule implies, one dim line (none: nothing scheduled)."""
        from quizzer.ui.charts import workload

        if counts and sum(counts):
            self.out.print(Text(workload(counts, desired_retention), style="dim"))
