"""``quizzer quiz`` and ``quizzer review``: a session's events, its prompts and summary."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from rich.padding import Padding
from rich.text import Text

from quizzer.cards.sections import BY_FIELD, SECTIONS, Depth, sections_to
from quizzer.ui.card import section_style, section_view
from quizzer.ui.console import Output
from quizzer.ui.verdict import verdict_text
from quizzer.ui.widgets import (
    card_heading,
    clock_face,
    counted,
    duration,
    filled_line,
    markdown,
    percent,
    prompt_text,
    relative,
    report_table,
    visible,
    when,
)

if TYPE_CHECKING:
    from datetime import datetime, timedelta

    from quizzer.cards.model import Card
    from quizzer.progress import selection
    from quizzer.study import events as flow
    from quizzer.study import overrides, quiz
    from quizzer.study.events import Grade

#: Asked before a follow-up's approach is shown, in a terminal.
APPROACH_PROMPT = "    try it first · Enter shows the approach "


#: What a card's back shows first, in a terminal; the rest is one key each.
CARD_BACK = ("intuition", "explanation")
#: The card back menu's key for each section, and its name there (the 60-second review
#: and the sources come with Enter, and b and s; listed, they would wrap at 80 columns).
MENU = {
    "worked_example": ("e", "example"),
    "code": ("c", "code"),
    "red_flags": ("r", "red flags"),
    "follow_ups": ("f", "follow-ups"),
}


def menu_prompt(asked: flow.SectionAsked, width: int = 80) -> str:
    """``Enter next section · e example · c code · r red flags · f follow-ups · n next card``.

    Only the keys of sections the card has, and not yet shown; "Enter next" where
    the whole line would wrap (it is 85 columns with every key).
    """
    keys = " · ".join(f"{MENU[f][0]} {MENU[f][1]}" for f in asked.left if f in MENU)
    line = f"Enter next section · {keys} · n next card › "
    return line if len(line) < width else line.replace("next section", "next", 1)


class SessionScreen(Output):
    """The screens of ``quiz`` and ``review``."""

    def blank_prompt(self, asked: flow.BlankAsked) -> str:
        """The input prompt for a blank: its number, name and which try this is."""
        tries = (
            f" (try {asked.try_number} of {asked.tries_allowed})" if asked.try_number > 1 else ""
        )
        return f"[{asked.number}] {asked.blank}{tries} › "

    def prompt_for(self, prompt: flow.Prompt, remaining: timedelta | None = None) -> str:
        """The text of the input line that answers ``prompt``, led by the time left if any."""
        from quizzer.study import events as flow

        if isinstance(prompt, flow.BlankAsked):
            text = self.blank_prompt(prompt)
        elif isinstance(prompt, flow.ApproachAsked):
            text = APPROACH_PROMPT
        elif isinstance(prompt, flow.RatingAsked):
            text = self.rating_prompt(prompt.grade)
        elif isinstance(prompt, flow.SectionAsked):
            text = menu_prompt(prompt, self.out.width)
        elif isinstance(prompt, flow.FollowUpAsked):
            text = "your answer (or say it out loud), then Enter › "
        else:
            text = f"did you get it? {flow.GRADE_KEYS_HELP} › "
        return text if remaining is None else f"{clock_face(remaining)} {text}"

    def session_event(self, event: flow.Event, *, brief: bool = False) -> None:
        """Show one thing that happened in a session (``brief``: no explanation)."""
        from quizzer.study import events as flow

        # The two events whose look depends on --brief.
        if isinstance(event, flow.CardFinished):
            self.card_finished(event, brief=brief)
            return
        if isinstance(event, flow.ClosingSections):
            self.closing_sections(event, brief=brief)
            return
        show = _session_views().get(type(event))
        if show is not None:
            show(self, event)

    def card_started(self, event: flow.CardStarted) -> None:
        """A rule with the card's place in the session, then its heading."""
        from rich.rule import Rule

        self.out.print()
        self.out.print(Rule(f"card {event.number} of {event.total}", style="dim", align="right"))
        self.out.print(card_heading(event.card))

    def judged(self, event: flow.Judged) -> None:
        """The verdict, and what the learner can do next."""
        self.out.print(verdict_text(event.verdict, event.number))
        if not event.counted:
            self.out.print(Text("    no try used; type it again", style="dim"))
        elif not event.verdict.correct and event.tries_left > 0:
            left = event.tries_left
            self.out.print(
                Text(
                    f"    {left} {'try' if left == 1 else 'tries'} left · ? for a hint", style="dim"
                )
            )

    def hint_shown(self, event: flow.HintShown) -> None:
        label = "hint" if event.level == 1 else "stronger hint"
        self.out.print(Text.assemble((f"{label}: ", "bold magenta"), event.text))

    def revealed(self, event: flow.Revealed) -> None:
        lead = "out of tries — " if event.because == "out of tries" else ""
        self.out.print(
            Text.assemble(
                (f"{lead}answer [{event.number}] {event.blank}: ", "bold"),
                (event.answer, "bold green"),
            )
        )
        if len(event.accepted) > 1:
            also = ", ".join(event.accepted[1:])
            self.out.print(Text(f"also accepted: {also}", style="green"), soft_wrap=True)

    def notice(self, event: flow.Notice) -> None:
        self.out.print(Text(event.text, style="dim"))

    def card_finished(self, event: flow.CardFinished, *, brief: bool) -> None:
        """The filled formula, then the sections to read while it is fresh, up to the
        follow-ups (which the study loop shows next).

        ``brief`` keeps what fits on the way to an interview (red flags, bullets).
        """
        card = event.card
        self.out.print(filled_line(card, event.filled, right=event.result.all_correct))
        if event.result.skipped:
            self.out.print(Text("skipped", style="dim"))
        self._sections(card, brief=brief, after_follow_ups=False)

    def card_back(self, event: flow.CardBack) -> None:
        """In a terminal: the filled formula, the intuition and the explanation.

        Taller than the terminal, they go through the pager, so nothing unread
        scrolls off the top; the other sections wait for their key.
        """
        card = event.card
        with self.paged():
            self.out.print(filled_line(card, event.filled, right=event.result.all_correct))
            if event.result.skipped:
                self.out.print(Text("skipped", style="dim"))
            for field in CARD_BACK:
                view = section_view(card, BY_FIELD[field])
                if view is not None:
                    self.out.print(view)

    def section_shown(self, event: flow.SectionShown) -> None:
        """One section asked for at the card back's menu (paged when taller than the screen)."""
        view = section_view(event.card, BY_FIELD[event.field])
        if view is not None:
            with self.paged():
                self.out.print(view)

    def closing_sections(self, event: flow.ClosingSections, *, brief: bool = False) -> None:
        """The sections after the follow-ups (the 60-second review)."""
        self._sections(event.card, brief=brief, after_follow_ups=True)

    def _sections(self, card: Card, *, brief: bool, after_follow_ups: bool) -> None:
        follow_ups = SECTIONS.index(BY_FIELD["follow_ups"])
        for section in sections_to(Depth.REVIEW if brief else Depth.STUDY):
            if (SECTIONS.index(section) > follow_ups) != after_follow_ups:
                continue
            view = section_view(card, section) if section.kind != "follow_ups" else None
            if view is not None:
                self.out.print(view)

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
        self.out.print(Padding(markdown(event.approach), (0, 0, 1, 4)))

    def overridden(self, event: flow.Overridden) -> None:
        self.out.print(
            Text.assemble(
                ("counted as right ", "bold yellow"),
                f"[{event.number}] {event.blank}: {visible(event.given)}",
                (" (overridden: quizzer overrides lists it)", "dim"),
            )
        )

    def recap(self, event: flow.Recap) -> None:
        """One line that keeps the card's verdict in view: result, rating, formula."""
        self.out.print(recap_line(event), no_wrap=True, overflow="ellipsis", crop=True)

    def session_summary(self, summary: quiz.SessionSummary) -> None:
        """One row per card shown, then the accuracy and why the session ended."""
        table = report_table("Session summary")
        table.add_column("card", style="cyan", overflow="fold")
        table.add_column("right first time", justify="right")
        table.add_column("tries", justify="right")
        table.add_column("hints", justify="right")
        table.add_column("time", justify="right")
        for total in summary.per_card():
            result = total.first
            first = f"{result.right_first_time}/{len(result.blanks)}"
            style = "green" if result.right_first_time == len(result.blanks) else "yellow"
            note = " (skipped)" if result.skipped else ""
            if any(r.overridden for r in total.showings):
                note += " (overridden)"
            if total.later:
                note += f" (shown {len(total.showings)}×)"
            if not result.skipped and not result.touched and not total.later:
                # On screen when the session stopped, but never answered: not a miss.
                first, style, note = "–", "dim", " (not answered)"
            table.add_row(
                result.card_id + note,
                Text(first, style=style),
                str(total.tries),
                str(total.hints),
                duration(total.ms),
            )
        self.out.print()
        self.out.print(table)
        accuracy = percent(summary.accuracy if summary.attempts else None)
        ended = "" if summary.ended_by == "finished" else f" · stopped: {summary.ended_by}"
        self.out.print(
            Text(
                f"accuracy {accuracy} ({summary.correct} of {summary.attempts} answers"
                f" right){ended}",
                style="bold",
            )
        )

    def session_finished(self, event: flow.SessionFinished) -> None:
        self.session_summary(event.summary)

    # -- scheduling ---------------------------------------------------------------

    def rating_prompt(self, grade: Grade) -> str:
        """The prompt that names the rating saved and lets the learner change it.

        The next review is on the recap line right above; left out here, the
        prompt and a typed key fit 80 columns (readline scrolls longer ones).
        """
        return f"rated {grade.label} · 1 Again 2 Hard 3 Good 4 Easy · Enter keeps › "

    def scheduled(self, event: flow.Scheduled) -> None:
        """The rating saved and when the card comes back."""
        self.out.print(
            Text.assemble(
                ("rescheduled " if event.replaced else "scheduled ", "dim"),
                (event.grade.label, "bold"),
                (f" · next review {relative(event.due - event.now)} ({when(event.due)})", "dim"),
            )
        )

    def answers_changed(self, event: flow.AnswersChanged) -> None:
        """A note for each blank whose answer changed since the learner last saw it."""
        for change in event.changes:
            self.out.print(
                Text.assemble(
                    ("note: ", "bold yellow"),
                    f"the answer to {event.card_id} [{change.blank}] changed since your last"
                    f" review: it was {change.before}, it is now {change.now}. Your progress"
                    " is kept.",
                )
            )

    def overrides(
        self, found: Sequence[overrides.CardOverrides], paths: Mapping[str, str | None]
    ) -> None:
        """Each card's overridden answers, then the examples to paste into it."""
        if not found:
            self.out.print("No overridden answers. After a ✗ verdict, /override counts it right.")
            return
        for item in found:
            self.out.print()
            self.out.print(
                Text.assemble(
                    (item.card_id, "bold cyan"), f"  {counted(len(item.answers), 'answer')}"
                )
            )
            for answer in item.answers:
                self.out.print(
                    Text.assemble(
                        f"  [{answer.blank}] ",
                        (visible(answer.given), "bold"),
                        (f"  {when(answer.at)}", "dim"),
                    )
                )
            where = paths.get(item.card_id) or f"the card {item.card_id}"
            self.out.print(Text(f"  examples for {where}:", style="dim"), soft_wrap=True)
            # Plain and unpadded, so a copy from the terminal pastes as valid YAML.
            snippet = item.examples_yaml().rstrip("\n")
            self.out.print(Text(snippet, style="green"), soft_wrap=True)

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


def recap_line(recap: flow.Recap) -> Text:
    """``✔ 2/2 right · Good · next review in 5 days · <the filled formula>``."""
    result = recap.result
    right = sum(b.correct for b in result.blanks)
    mark = ("✔ ", "bold green") if result.all_correct else ("✗ ", "bold red")
    line = Text.assemble(mark, (f"{right}/{len(result.blanks)} right", "bold"))
    if result.overridden:
        line.append(" (overridden)", style="yellow")
    if recap.grade is not None:
        line.append(" · ")
        line.append(recap.grade.label, style="bold")
    if recap.due is not None:
        line.append(f" · next review {relative(recap.due - recap.now)}", style="dim")
    line.append(" · ")
    line.append_text(prompt_text(recap.card.prompt_parts(), recap.filled))
    return line


@functools.cache
def _session_views() -> dict[type, Callable[[SessionScreen, flow.Event], None]]:
    """Which method shows each kind of event (CardFinished takes options: see session_event)."""
    from quizzer.study import events as flow

    def ignore(screen: SessionScreen, event: flow.Event) -> None:
        """The input prompt asks; piped verdict lines name their blank."""

    views: dict[type, Callable[..., None]] = {
        flow.CardStarted: SessionScreen.card_started,
        flow.BlankAsked: ignore,
        flow.Judged: SessionScreen.judged,
        flow.HintShown: SessionScreen.hint_shown,
        flow.Revealed: SessionScreen.revealed,
        flow.Overridden: SessionScreen.overridden,
        flow.Notice: SessionScreen.notice,
        flow.FollowUpsListed: SessionScreen.follow_ups_listed,
        flow.QuestionShown: SessionScreen.question_shown,
        flow.ApproachShown: SessionScreen.approach_shown,
        flow.Recap: SessionScreen.recap,
        flow.CardBack: SessionScreen.card_back,
        flow.SectionShown: SessionScreen.section_shown,
        flow.Scheduled: SessionScreen.scheduled,
        flow.AnswersChanged: SessionScreen.answers_changed,
        flow.SessionFinished: SessionScreen.session_finished,
    }
    return views
