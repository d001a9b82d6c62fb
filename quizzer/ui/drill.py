"""``quizzer drill``: the timed interview drill, its report and cheat sheet."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from quizzer.cards.sections import Depth, sections_to
from quizzer.ui.card import section_body, section_style
from quizzer.ui.follow_ups import key_points_checked
from quizzer.ui.view import View
from quizzer.ui.widgets import (
    bullets,
    card_heading,
    clock_face,
    duration,
    filled_line,
    markdown,
    percent,
    relative,
    report_table,
    section_panel,
    visible,
)

if TYPE_CHECKING:
    from quizzer.progress import stats
    from quizzer.study import drill
    from quizzer.study import events as flow


class DrillView(View):
    """What ``drill`` shows of its own: a clock, an interviewer, a report; the blanks and
    verdicts are the session's."""

    def drill_card_started(self, event: flow.DrillCardStarted) -> None:
        """A rule with the clock and the target time, then the card's heading."""
        from rich.rule import Rule

        title = (
            f"card {event.number} of {event.total} · {clock_face(event.remaining)} left"
            f" · aim for {clock_face(event.target)}"
        )
        self.out.print()
        self.out.print(Rule(title, style="magenta", align="right"))
        self.out.print(card_heading(event.card))

    def drill_card_finished(self, event: flow.CardFinished) -> None:
        # In a drill the teaching sections wait for the report's cheat sheet.
        self.out.print(filled_line(event.card, event.filled, right=event.result.all_correct))

    def follow_up_asked(self, event: flow.FollowUpAsked) -> None:
        self.out.print(
            section_panel(
                "The interviewer asks", Text(event.follow_up.question, style="bold"), "magenta"
            )
        )

    def drill_approach_shown(self, event: flow.ApproachShown) -> None:
        if event.answered:
            self.out.print(Text.assemble(("you said: ", "dim"), visible(event.answered)))
        if event.check is not None:
            self.out.print(key_points_checked(event.check))
        self.out.print(section_panel("A strong answer", markdown(event.approach), "green"))

    def red_flags_shown(self, event: flow.RedFlagsShown) -> None:
        self.out.print(
            section_panel(
                "Phrases that signal junior thinking", bullets(event.card.red_flags), "red"
            )
        )

    def drill_scheduled(self, event: flow.Scheduled) -> None:
        """What was scheduled, by name: the card, or one of its follow-ups."""
        from quizzer.study.events import FollowUpId

        later = relative(event.due - event.now)
        if isinstance(event.item, FollowUpId):
            what = f"follow-up {event.item.number} of {event.item.card_id}: again {later}"
        else:
            what = f"{event.item}: next review {later}"
        self.out.print(Text.assemble((what, "dim"), (f" ({event.grade.label})", "dim")))

    def drill_report(self, report: drill.DrillReport) -> None:
        """One row per card, the totals, the topics to revise and a cheat sheet."""
        if not report.cards:
            self.out.print()
            self.out.print(
                Text(f"Drill stopped ({report.ended_by}) before any answer; nothing to report.")
            )
            return
        table = report_table("Drill report")
        table.add_column("card", style="cyan", overflow="fold")
        table.add_column("blanks", justify="right")
        table.add_column("follow-up", justify="center")
        table.add_column("time", justify="right")
        for item in report.cards:
            if item.result is None:
                continue
            total = len(item.result.blanks)
            blanks = Text(
                f"{item.blanks_right}/{total}",
                style="green" if item.blanks_right == total else "red",
            )
            follow = {
                True: Text("✓", style="green"),
                False: Text("✗", style="red"),
                None: Text("–", style="dim"),
            }[item.follow_up_right]
            over = item.ms > report.target_ms
            time = Text(
                f"{duration(item.ms)} / {duration(report.target_ms)}",
                style="yellow" if over else "",
            )
            overridden = " (overridden)" if item.result.overridden else ""
            table.add_row(item.card.id + overridden, blanks, follow, time)
        self.out.print()
        self.out.print(table)
        right, graded = report.follow_ups_right
        finished = len(report.finished_cards)
        ended = {"time": " · time is up", "finished": ""}.get(
            report.ended_by, f" · stopped: {report.ended_by}"
        )
        self.out.print(
            Text(
                f"cards right {report.cards_right}/{finished} · follow-ups"
                f" {right}/{graded} · {duration(report.elapsed_ms)}{ended}",
                style="bold",
            )
        )
        topics = report.weakest_topics()
        if topics:
            self.out.print(
                Text(
                    "revise: " + ", ".join(f"{tag} ({n} missed)" for tag, n in topics),
                    style="yellow",
                )
            )
        if report.missed:
            self.out.print(section_panel("Cheat sheet", cheat_sheet(report.missed), "cyan"))

    def topics(self, topics: Sequence[stats.Topic]) -> None:
        """``drill --list-topics``: each tag, its cards and the learner's accuracy."""
        table = Table(show_edge=False, pad_edge=False, header_style="bold")
        table.add_column("topic (tag)", style="green")
        table.add_column("cards", justify="right")
        table.add_column("your accuracy", justify="right")
        for topic in topics:
            accuracy = percent(topic.accuracy)
            table.add_row(topic.tag, str(topic.cards), accuracy)
        self.out.print(table)


def cheat_sheet(missed: Sequence[drill.DrillCard]) -> RenderableType:
    """Each missed card's title, filled formula and what to keep in mind (red flags,
    60-second review)."""
    from quizzer.answers.formula import filled_prompt  # loads pydantic: not at list's start-up

    parts: list[RenderableType] = []
    for item in missed:
        parts.append(Text(item.card.title, style="bold"))
        parts.append(Text(filled_prompt(item.card), style="green"))
        for section in sections_to(Depth.REVIEW):
            body = section_body(item.card, section)
            if body is not None:
                parts += [Text(section.title, style=section_style(section)), body]
        parts.append(Text())
    return Group(*parts[:-1])
