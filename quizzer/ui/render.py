"""Everything quizzer shows on a terminal. The only module that imports rich.

The rest of quizzer hands this module plain values (cards, problems,
verdicts) and it decides how they look. A :class:`Screen` wraps one console
for standard output and one for standard error, so tests can render into a
string and the command line can honour ``NO_COLOR`` / ``--no-color``.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from quizzer.cards.model import Card, Gap

if TYPE_CHECKING:
    from collections.abc import Callable
    from datetime import datetime

    from rich.markdown import Markdown

    from quizzer.answers import Verdict
    from quizzer.cards.deck import LoadedCard, Problem
    from quizzer.progress import selection, stats
    from quizzer.study import quiz as flow
    from quizzer.study import recording


def _markdown(text: str) -> Markdown:
    # rich.markdown pulls in markdown-it; only screens that show prose need it.
    from rich.markdown import Markdown

    return Markdown(text)


GAP_STYLE = "bold reverse cyan"
SECTION_STYLES = {
    "intuition": "blue",
    "explanation": "blue",
    "limitations": "yellow",
    "used_in": "green",
    "red_flags": "red",
    "follow_ups": "magenta",
    "bullets": "cyan",
    "sources": "dim",
}


_ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _line_editing(console: Console) -> bool:
    """Whether input() will edit with readline: stdin and stdout both the terminal."""
    if console.file is not sys.stdout or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    return _readline_ready()


@functools.cache
def _readline_ready() -> bool:
    """Load and set up readline, once per process."""
    try:
        import readline
    except ImportError:  # Windows, or Python built without it
        return False
    # Tab would complete file names by default; answers never name files.
    readline.set_completer(lambda text, state: None)
    _leave_signals_to_python(readline)
    return True


def _leave_signals_to_python(readline: Any) -> None:
    """Stop GNU readline catching SIGINT itself while it handles a key.

    With its default ``rl_catch_signals = 1``, a Ctrl-C that lands while
    readline is processing a keystroke is held by readline until the next
    key, and the prompt seems to ignore it (seen in a stress test, with
    readline's handlers still installed in the stuck process). Python's
    readline module offers no switch for this, so set the C variable; where
    that is impossible (libedit, no symbol), keep the default.
    """
    try:
        import ctypes

        library = ctypes.CDLL(readline.__file__)
        ctypes.c_int.in_dll(library, "rl_catch_signals").value = 0
    except (OSError, ValueError, AttributeError, TypeError):
        pass


class Screen:
    """The two output streams, styled or plain."""

    def __init__(
        self,
        *,
        no_color: bool = False,
        file: IO[str] | None = None,
        error_file: IO[str] | None = None,
        width: int | None = None,
    ) -> None:
        # no_color=True keeps bold/underline but drops colour, as NO_COLOR asks;
        # Rich also reads NO_COLOR from the environment on its own.
        # markup=False: card text such as "E[y²]" or "[bold]" is shown as written,
        # never read as Rich markup (which silently swallowed it). Styling is
        # always given as Text and Style objects here.
        self.out = Console(
            file=file, no_color=no_color or None, width=width, highlight=False, markup=False
        )
        self.err = Console(
            file=error_file,
            stderr=error_file is None,
            no_color=no_color or None,
            width=width,
            highlight=False,
            markup=False,
        )

    # -- plain output ---------------------------------------------------------

    def json(self, data: Any) -> None:
        """Machine-readable output: plain JSON, no styling, no wrapping."""
        stream = self.out.file if self.out.file is not None else sys.stdout
        if isinstance(data, list) and data:
            # One item a line: json.dumps is C only without indent (10,000 cards: 0.4 s to 0.03 s).
            items = ",\n  ".join(json.dumps(item, ensure_ascii=False) for item in data)
            stream.write(f"[\n  {items}\n]\n")
        else:
            stream.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        stream.flush()

    def line(self, text: str) -> None:
        """One unstyled line on standard output (never wrapped)."""
        self.out.print(Text(text), soft_wrap=True)

    def error(self, message: str) -> None:
        """The one-line error for a failed command."""
        self.err.print(Text.assemble(("quizzer: error: ", "bold red"), message), soft_wrap=True)

    def warning(self, message: str) -> None:
        self.err.print(Text.assemble(("quizzer: warning: ", "yellow"), message), soft_wrap=True)

    def note(self, message: str) -> None:
        self.err.print(Text(message, style="dim"), soft_wrap=True)

    # -- cards ----------------------------------------------------------------

    def card_list(
        self, cards: Sequence[LoadedCard], states: Mapping[str, str] | None = None
    ) -> None:
        """One line per card, grouped under a heading per deck with its commonest tags.

        ``states`` labels each card by id (new, due, or the date it is due).

        Each line is cropped to the terminal width and styled once with
        precomputed escape codes rather than through a Rich renderable: listing
        10,000 cards this way takes milliseconds instead of a second.
        """
        from collections import Counter, defaultdict

        from rich.cells import cell_len
        from rich.style import Style

        system = None if self.out.no_color else self.out._color_system

        def styled(text: str, style: str) -> str:
            return Style.parse(style).render(text, color_system=system) if system else text

        width = self.out.width
        by_deck: dict[str, list[LoadedCard]] = defaultdict(list)
        for loaded in cards:
            by_deck[loaded.deck].append(loaded)
        id_width = min(32, max((len(c.id) for c in cards), default=0) + 2)
        state_styles = {"due": "bold yellow", "new": "blue"}
        state_width = max((len(label) + 1 for label in (states or {}).values()), default=0)
        lines: list[str] = []
        for number, (deck, group) in enumerate(by_deck.items()):
            tags = Counter(tag for c in group for tag in c.tags)
            summary = ", ".join(f"{tag} {n}" for tag, n in tags.most_common(4))
            heading = f"{deck}/"
            rest = _crop(f"  {len(group)} cards · {summary}", width - cell_len(heading))
            if number:
                lines.append("")
            lines.append(styled(heading, "bold magenta") + styled(rest, "dim"))
            for loaded in group:
                name = ("  " + loaded.id).ljust(id_width + 2)
                state = (states.get(loaded.id, "") if states else "").ljust(state_width)
                tag_text = "  " + " ".join(f"#{t}" for t in loaded.tags) if loaded.tags else ""
                room = width - cell_len(name) - len(state)
                blanks = len(loaded.blank_names)
                title = _crop(f"{loaded.title} · {counted(blanks, 'blank')}", room)
                tag_text = _crop(tag_text, room - cell_len(title)) if room > cell_len(title) else ""
                state_style = state_styles.get(state.strip(), "dim")
                lines.append(
                    styled(name, "bold cyan")
                    + styled(state, state_style)
                    + title
                    + styled(tag_text, "green")
                )
        stream = self.out.file
        stream.write("\n".join(lines) + ("\n" if lines else ""))
        stream.flush()
        count = len(cards)
        self.note(counted(count, "card"))

    def card(self, loaded: LoadedCard) -> None:
        """The whole card: prompt with numbered gaps, blanks, then every section."""
        card = loaded.card
        self.out.print(card_header(card))
        self.out.print(prompt_text(card.prompt_parts()))
        self.out.print()
        self.out.print(blanks_table(card))
        if card.symbols:
            self.out.print(symbols_table(card))
        for renderable in teaching_panels(card):
            self.out.print(renderable)
        self.note(f"from {loaded.path}")

    # -- verdicts --------------------------------------------------------------

    def verdicts(self, card: Card, verdicts: Sequence[Verdict]) -> None:
        """``check``'s report: each verdict, with which check decided it."""
        numbers = {name: i for i, name in enumerate(card.blanks, start=1)}
        for verdict in verdicts:
            self.out.print(verdict_text(verdict, numbers.get(verdict.blank, 0), show_method=True))
        right = sum(v.correct for v in verdicts)
        style = "green" if right == len(verdicts) else "yellow"
        self.note_styled(f"{right} of {len(verdicts)} blanks right", style)

    def note_styled(self, message: str, style: str) -> None:
        self.err.print(Text(message, style=style), soft_wrap=True)

    # -- quiz sessions ----------------------------------------------------------

    def keys_help(self, text: str) -> None:
        self.out.print(Text(f"Keys: {text}", style="dim"), soft_wrap=True)

    def ask(self, prompt: str) -> str:
        """Read one line typed in a terminal. EOFError at Ctrl-D.

        With both ends a terminal, input goes through readline: arrow keys
        edit the line and Up recalls the previous try (in this session only;
        nothing is written to a history file).
        """
        styled = Text(prompt, style="bold cyan")
        if not _line_editing(self.out):
            return self.out.input(styled)
        with self.out.capture() as captured:
            self.out.print(styled, end="")
        # Readline must be handed the prompt, or it redraws over it (Home, Up);
        # \x01 ... \x02 tell it which bytes are escape codes that take no room.
        return input(_ANSI_ESCAPE.sub("\x01\\g<0>\x02", captured.get()))

    def blank_prompt(self, asked: flow.BlankAsked) -> str:
        tries = (
            f" (try {asked.try_number} of {asked.tries_allowed})" if asked.try_number > 1 else ""
        )
        return f"[{asked.number}] {asked.blank}{tries} › "

    def session_event(
        self,
        event: flow.Event,
        *,
        interactive: bool,
        brief: bool = False,
        wait: Callable[[str], bool] | None = None,
    ) -> None:
        """Show one thing that happened in a session."""
        from quizzer.study import quiz as flow

        if isinstance(event, flow.CardStarted):
            self.card_started(event)
        elif isinstance(event, flow.BlankAsked):
            pass  # the input prompt asks; piped verdict lines name their blank
        elif isinstance(event, flow.Judged):
            self.judged(event)
        elif isinstance(event, flow.HintShown):
            label = "hint" if event.level == 1 else "stronger hint"
            self.out.print(Text.assemble((f"{label}: ", "bold magenta"), event.text))
        elif isinstance(event, flow.Revealed):
            lead = "out of tries — " if event.because == "out of tries" else ""
            self.out.print(
                Text.assemble(
                    (f"{lead}answer [{event.number}] {event.blank}: ", "bold"),
                    (event.answer, "bold green"),
                )
            )
        elif isinstance(event, flow.Notice):
            self.out.print(Text(event.text, style="dim"))
        elif isinstance(event, flow.CardFinished):
            self.card_finished(event, brief=brief, wait=wait if interactive else None)
        elif isinstance(event, flow.SessionFinished):
            self.session_summary(event.summary)

    def card_started(self, event: flow.CardStarted) -> None:
        from rich.rule import Rule

        card = event.card
        self.out.print()
        self.out.print(Rule(f"card {event.number} of {event.total}", style="dim", align="right"))
        self.out.print(card_header(card))
        self.out.print(prompt_text(card.prompt_parts()))
        names = [
            name + (f" (or {', '.join(s.aliases)})" if s.aliases else "")
            for name, s in card.symbols.items()
        ]
        if names:
            self.out.print(Text("symbols: " + ", ".join(names), style="dim"))

    def judged(self, event: flow.Judged) -> None:
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

    def card_finished(
        self, event: flow.CardFinished, *, brief: bool, wait: Callable[[str], bool] | None
    ) -> None:
        card = event.card
        self.out.print(
            Text.assemble(("✔ ", "bold green"), prompt_text(card.prompt_parts(), event.filled))
        )
        if event.result.skipped:
            self.out.print(Text("skipped", style="dim"))
        sections: list[RenderableType] = []
        if card.explanation and not brief:
            sections.append(section_panel("Explanation", _markdown(card.explanation), "blue"))
        if card.red_flags:
            sections.append(section_panel("Red flags", _bullets(card.red_flags), "red"))
        for renderable in sections:
            self.out.print(renderable)
        if card.follow_ups and not brief:
            self.follow_ups(card, wait)
        if card.bullets:
            self.out.print(section_panel("60-second review", _bullets(card.bullets), "cyan"))

    def follow_ups(self, card: Card, wait: Callable[[str], bool] | None) -> None:
        """Each question first; in a terminal, Enter reveals its approach."""
        if wait is None:
            self.out.print(
                section_panel(
                    "What an interviewer would ask next", follow_ups_body(card), "magenta"
                )
            )
            return
        from rich.rule import Rule

        self.out.print(Rule("What an interviewer would ask next", style="magenta", align="left"))
        for number, follow in enumerate(card.follow_ups, start=1):
            self.out.print(
                Text.assemble((f"Q{number}. ", "bold magenta"), (follow.question, "bold"))
            )
            if wait is not None and not wait("    try it first · Enter shows the approach "):
                wait = None  # input ended: show the rest without waiting
            self.out.print(Padding(_markdown(follow.approach), (0, 0, 1, 4)))

    def session_summary(self, summary: flow.SessionSummary) -> None:
        table = report_table("Session summary")
        table.add_column("card", style="cyan", overflow="fold")
        table.add_column("right first time", justify="right")
        table.add_column("tries", justify="right")
        table.add_column("hints", justify="right")
        table.add_column("time", justify="right")
        for result in summary.cards:
            first = f"{result.right_first_time}/{len(result.blanks)}"
            style = "green" if result.right_first_time == len(result.blanks) else "yellow"
            note = " (skipped)" if result.skipped else ""
            if not result.skipped and not result.touched:
                # On screen when the session stopped, but never answered: not a miss.
                first, style, note = "–", "dim", " (not answered)"
            table.add_row(
                result.card_id + note,
                Text(first, style=style),
                str(result.tries),
                str(result.hints),
                _duration(result.ms),
            )
        self.out.print()
        self.out.print(table)
        accuracy = f"{summary.accuracy:.0%}" if summary.attempts else "–"
        ended = "" if summary.ended_by == "finished" else f" · stopped: {summary.ended_by}"
        self.out.print(
            Text(
                f"accuracy {accuracy} ({summary.correct} of {summary.attempts} answers"
                f" right){ended}",
                style="bold",
            )
        )

    # -- drills -------------------------------------------------------------------

    def drill_prompt(self, kind: str, detail: Any, remaining: Any) -> str:
        clock = _clock_face(remaining)
        if kind == "blank":
            return f"{clock} {self.blank_prompt(detail)}"
        if kind == "follow-up":
            return f"{clock} your answer (or say it out loud), then Enter › "
        return f"{clock} did you get it? y/n, or 1 Again 2 Hard 3 Good 4 Easy › "

    def drill_event(self, event: Any) -> None:
        from quizzer.study import drill
        from quizzer.study import quiz as flow

        if isinstance(event, drill.DrillCardStarted):
            from rich.rule import Rule

            card = event.card
            title = (
                f"card {event.number} of {event.total} · {_clock_face(event.remaining)} left"
                f" · aim for {_clock_face(event.target)}"
            )
            self.out.print()
            self.out.print(Rule(title, style="magenta", align="right"))
            self.out.print(card_header(card))
            self.out.print(prompt_text(card.prompt_parts()))
            if card.symbols:
                self.out.print(Text("symbols: " + ", ".join(card.symbols), style="dim"))
        elif isinstance(event, flow.CardFinished):
            self.out.print(
                Text.assemble(
                    ("✔ ", "bold green"), prompt_text(event.card.prompt_parts(), event.filled)
                )
            )
        elif isinstance(event, drill.FollowUpAsked):
            self.out.print(
                section_panel(
                    "The interviewer asks", Text(event.follow_up.question, style="bold"), "magenta"
                )
            )
        elif isinstance(event, drill.ApproachShown):
            if event.answered:
                self.out.print(Text.assemble(("you said: ", "dim"), event.answered))
            self.out.print(section_panel("A strong answer", _markdown(event.approach), "green"))
        elif isinstance(event, drill.RedFlagsShown):
            self.out.print(
                section_panel(
                    "Phrases that signal junior thinking", _bullets(event.card.red_flags), "red"
                )
            )
        elif isinstance(event, drill.DrillFinished):
            self.drill_report(event.report)
        elif isinstance(event, drill.FollowUpGraded):
            pass  # the command shows when it comes back
        else:
            self.session_event(event, interactive=True)

    def drill_report(self, report: Any) -> None:
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
                f"{_duration(item.ms)} / {_duration(report.target_ms)}",
                style="yellow" if over else "",
            )
            table.add_row(item.card.id, blanks, follow, time)
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
                f" {right}/{graded} · {_duration(report.elapsed_ms)}{ended}",
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
        table = Table(show_edge=False, pad_edge=False, header_style="bold")
        table.add_column("topic (tag)", style="green")
        table.add_column("cards", justify="right")
        table.add_column("your accuracy", justify="right")
        for topic in topics:
            accuracy = "–" if topic.accuracy is None else f"{topic.accuracy:.0%}"
            table.add_row(topic.tag, str(topic.cards), accuracy)
        self.out.print(table)

    # -- scheduling -------------------------------------------------------------

    def rating_prompt(self, rating: Any, due: datetime, now: datetime) -> str:
        return (
            f"rated {_rating_name(rating)} · next review {_relative(due - now)}"
            " · 1 Again 2 Hard 3 Good 4 Easy to change, Enter keeps › "
        )

    def parse_rating(self, text: str) -> Any:
        """The rating a key names (1-4 or its word), or None to keep the proposed one."""
        from fsrs import Rating

        value = _RATING_KEYS.get(text.strip().lower())
        return Rating(value) if value else None

    def scheduled(self, rating: Any, due: datetime, now: datetime) -> None:
        self.out.print(
            Text.assemble(
                ("scheduled ", "dim"),
                (_rating_name(rating), "bold"),
                (f" · next review {_relative(due - now)} ({_when(due)})", "dim"),
            )
        )

    def answer_changes(self, card_id: str, changes: Sequence[recording.AnswerChange]) -> None:
        for change in changes:
            self.out.print(
                Text.assemble(
                    ("note: ", "bold yellow"),
                    f"the answer to {card_id} [{change.blank}] changed since your last review:"
                    f" it was {change.before}, it is now {change.now}. Your progress is kept.",
                )
            )

    def nothing_due(self, next_due: tuple[str, datetime] | None, now: datetime) -> None:
        if next_due is None:
            self.out.print(
                "Nothing to review: no card is scheduled and no new card is left for today."
            )
        else:
            card_id, due = next_due
            self.out.print(f"Nothing due. Next: {card_id}, {_relative(due - now)} ({_when(due)}).")
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
        days = counted(status.streak, "day")
        self.out.print(
            Text.assemble(
                ("quizzer", "bold"),
                f" · {counted(status.cards, 'card')} · ",
                (f"{status.due} due now", "bold yellow" if status.due else ""),
                f" · {status.new} new · streak {days}",
            )
        )
        if status.due:
            command = "quizzer quiz --due"
        elif status.new:
            command = "quizzer quiz --new --limit 5"
        else:
            command = "quizzer quiz --weak"
        if not status.due and status.next_due is not None:
            self.out.print(
                Text(f"Next review {_relative(status.next_due - now)} ({_when(status.next_due)}).")
            )
        self.out.print(
            Text.assemble("Next: ", (command, "bold"), ("  ·  all commands: quizzer --help", "dim"))
        )

    def review_plan(self, due: int, new: int) -> None:
        self.out.print(Text(f"Review: {due} due, {new} new", style="bold"))

    # -- progress -----------------------------------------------------------------

    def report(self, report: stats.Report, path: str, now: datetime) -> None:
        totals = Table(show_header=False, box=None, pad_edge=False)
        totals.add_column(style="bold")
        totals.add_column(justify="right")
        accuracy = f"{report.accuracy:.0%}" if report.attempts else "–"
        for label, value in (
            ("answers judged", str(report.attempts)),
            ("accuracy", accuracy),
            ("cards seen", str(report.cards_seen)),
            ("reviews", str(report.reviews)),
            ("sessions", str(report.sessions)),
            ("streak", counted(report.streak_days, "day")),
            ("due now", str(report.due_now)),
        ):
            totals.add_row(label, value)
        self.out.print(totals)
        if report.tags:
            table = report_table("By tag (weakest first)")
            table.add_column("tag", style="green")
            table.add_column("answers", justify="right")
            table.add_column("accuracy", justify="right")
            for tag in report.tags:
                table.add_row(tag.tag, str(tag.attempts), f"{tag.accuracy:.0%}")
            self.out.print()
            self.out.print(table)
        self.out.print()
        self.out.print(forecast_chart(report.forecast, now))
        if report.weakest:
            table = report_table("Weakest cards")
            table.add_column("card", style="cyan")
            table.add_column("lapses", justify="right")
            table.add_column("recall now", justify="right")
            for weak in report.weakest:
                recall = "–" if weak.retrievability is None else f"{weak.retrievability:.0%}"
                table.add_row(weak.card_id, str(weak.lapses), recall)
            self.out.print()
            self.out.print(table)
        self.note(f"progress in {path}")

    def history(self, history: stats.CardHistory, now: datetime) -> None:
        self.out.print(Text(history.card_id, style="bold cyan"))
        if history.due is not None:
            recall = f"{history.retrievability:.0%}" if history.retrievability is not None else "–"
            self.out.print(
                f"next review {_relative(history.due - now)} ({_when(history.due)})"
                f" · recall now {recall} · lapses {history.lapses}"
            )
        else:
            self.out.print(Text("not scheduled yet", style="dim"))
        if not history.attempts:
            self.out.print(Text("no answers yet", style="dim"))
            return
        table = Table(show_edge=False, pad_edge=False, header_style="bold")
        table.add_column("when")
        table.add_column("blank")
        table.add_column("answer", overflow="fold")
        table.add_column("", justify="center")
        table.add_column("try", justify="right")
        for attempt in history.attempts:
            table.add_row(
                _when(attempt.at),
                attempt.blank,
                attempt.given,
                Text("✓", style="green") if attempt.correct else Text("✗", style="red"),
                str(attempt.try_number),
            )
        self.out.print(table)

    # -- validation -----------------------------------------------------------

    def problems(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            style = "yellow" if problem.severity == "warning" else "red"
            location = f"{problem.path}:{problem.line}:{problem.column}:"
            prefix = "warning: " if problem.severity == "warning" else ""
            self.out.print(
                Text.assemble((location, "bold"), " ", (prefix, style), problem.message),
                soft_wrap=True,
            )

    def validation_summary(self, cards: int, errors: int, warnings: int) -> None:
        noun = "card" if cards == 1 else "cards"
        if errors == 0 and warnings == 0:
            self.err.print(Text(f"✓ {cards} {noun} checked, no problems", style="green"))
            return
        parts = []
        if errors:
            parts.append(counted(errors, "problem"))
        if warnings:
            parts.append(counted(warnings, "warning"))
        style = "red" if errors else "yellow"
        self.err.print(Text(f"{cards} {noun} checked: {', '.join(parts)}", style=style))


# -- renderables (pure: they build, they do not print) -------------------------


def card_header(card: Card) -> RenderableType:
    title = Text(card.title, style="bold")
    if card.tags:
        title.append("  " + " ".join(f"#{tag}" for tag in card.tags), style="green")
    return title


def prompt_text(parts: Sequence[str | Gap], filled: dict[str, str] | None = None) -> Text:
    """The prompt with each gap shown as its number, or as its answer once filled."""
    text = Text()
    for part in parts:
        if isinstance(part, Gap):
            if filled and part.name in filled:
                text.append(filled[part.name], style="bold green")
            else:
                text.append(f"[{part.number}]", style=GAP_STYLE)
        else:
            text.append(part)
    return text


_METHODS = {
    "symbolic": "same expression after SymPy's normalisation",
    "numeric": "compared by value at random points",
    "words": "matched the accepted words",
    "parser": "could not be read",
    "limits": "beyond the judge's limits",
}


_RATING_KEYS = {
    "1": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "again": 1,
    "hard": 2,
    "good": 3,
    "easy": 4,
    "a": 1,
    "h": 2,
    "g": 3,
    "e": 4,
}


def report_table(title: str) -> Table:
    """The borderless titled table used by end-of-session reports."""
    return Table(
        title=title,
        title_justify="left",
        title_style="bold",
        header_style="bold",
        show_edge=False,
        pad_edge=False,
    )


def _crop(text: str, width: int) -> str:
    """``text`` cut to ``width`` terminal cells, with an ellipsis when cut."""
    from rich.cells import cell_len, set_cell_size

    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return text
    return set_cell_size(text, width - 1) + "…"


def _clock_face(delta: Any) -> str:
    seconds = max(0, int(delta.total_seconds()))
    return f"{seconds // 60}:{seconds % 60:02d}"


def cheat_sheet(missed: Sequence[Any]) -> RenderableType:
    parts: list[RenderableType] = []
    for item in missed:
        parts.append(Text(item.card.title, style="bold"))
        parts.append(Text(item.card.filled_prompt(), style="green"))
        if item.card.bullets:
            parts.append(_bullets(item.card.bullets))
        parts.append(Text())
    return Group(*parts[:-1])


def _rating_name(rating: Any) -> str:
    return str(getattr(rating, "name", rating))


def counted(count: int, noun: str) -> str:
    """``1 card``, ``2 cards``: a count with its noun, plural when it is not one."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _relative(delta: Any) -> str:
    seconds = delta.total_seconds()
    if seconds <= 0:
        return "now"
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            count = round(seconds / size)
            return f"in {counted(count, unit)}"
    return "in under a minute"


def _when(moment: datetime) -> str:
    return moment.strftime("%a %d %b %H:%M UTC")


def forecast_chart(counts: Sequence[int], now: datetime, width: int = 40) -> Table:
    """Cards due on each of the next days, as a bar chart."""
    from datetime import timedelta

    table = Table(
        title="Due in the next 14 days",
        title_justify="left",
        title_style="bold",
        box=None,
        show_header=False,
        pad_edge=False,
    )
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(justify="right")
    top = max(counts) if counts and max(counts) else 1
    for offset, count in enumerate(counts):
        day = (now + timedelta(days=offset)).strftime("%a %d %b")
        label = "today" if offset == 0 else day
        bar = "█" * max(1 if count else 0, round(width * count / top))
        table.add_row(label, Text(bar, style="cyan"), str(count))
    return table


def _duration(ms: int) -> str:
    seconds = ms / 1000
    return f"{seconds:.1f}s" if seconds < 60 else f"{int(seconds // 60)}m{int(seconds % 60):02d}s"


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
    head.append(typed)
    if verdict.interpreted and verdict.interpreted != typed:
        head.append("  read as ", style="dim")
        head.append(verdict.interpreted, style="cyan")
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
        feedback = Text(verdict.feedback, style="green" if verdict.correct else "yellow")
        lines.append(Padding(feedback, (0, 0, 0, 4), expand=False))
    if show_method and verdict.decided_by in _METHODS:
        lines.append(Text(f"    decided by: {_METHODS[verdict.decided_by]}", style="dim"))
    return Group(*lines)


def blanks_table(card: Card) -> Table:
    table = Table(show_header=False, box=None, pad_edge=False, padding=(0, 1))
    table.add_column(style=GAP_STYLE, no_wrap=True)
    table.add_column(style="bold")
    table.add_column()
    for number, (name, blank) in enumerate(card.blanks.items(), start=1):
        answer = Text(blank.answer, style="green")
        if blank.also:
            answer.append(f"  (also: {', '.join(blank.also)})", style="dim")
        table.add_row(f"[{number}]", name, answer)
    return table


def symbols_table(card: Card) -> Table:
    table = Table(
        title="Symbols",
        title_justify="left",
        title_style="bold",
        box=None,
        show_header=False,
        pad_edge=False,
        padding=(0, 1),
    )
    table.add_column(style="cyan", no_wrap=True)
    table.add_column()
    for name, symbol in card.symbols.items():
        notes = []
        if symbol.meaning:
            notes.append(symbol.meaning)
        kinds = [k for k, on in (("matrix", symbol.matrix), ("positive", symbol.positive)) if on]
        if kinds:
            notes.append(f"({', '.join(kinds)})")
        if symbol.aliases:
            notes.append(f"also written {', '.join(symbol.aliases)}")
        table.add_row(name, " ".join(notes))
    return table


def _bullets(items: Iterable[str]) -> Table:
    # A two-column grid gives a hanging indent without Markdown's blank lines.
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for item in items:
        grid.add_row("•", item)
    return grid


def section_panel(title: str, body: RenderableType, style: str) -> Panel:
    return Panel(body, title=title, title_align="left", border_style=style, padding=(0, 1))


def follow_ups_body(card: Card, *, with_approach: bool = True) -> RenderableType:
    items: list[RenderableType] = []
    for number, follow in enumerate(card.follow_ups, start=1):
        items.append(Text.assemble((f"Q{number}. ", "bold magenta"), (follow.question, "bold")))
        if with_approach:
            items.append(_markdown(follow.approach))
        items.append(Text())
    return Group(*items[:-1]) if items else Text()


def teaching_panels(card: Card, *, brief: bool = False) -> list[RenderableType]:
    """The card's teaching sections as panels, in reading order.

    ``brief`` keeps only what fits on the way to an interview: red flags and bullets.
    """
    panels: list[RenderableType] = []

    def add(key: str, title: str, body: RenderableType) -> None:
        panels.append(section_panel(title, body, SECTION_STYLES[key]))

    if not brief:
        if card.intuition:
            add("intuition", "Intuition", _markdown(card.intuition))
        if card.explanation:
            add("explanation", "Explanation", _markdown(card.explanation))
    if card.red_flags:
        add("red_flags", "Red flags", _bullets(card.red_flags))
    if not brief:
        if card.follow_ups:
            add("follow_ups", "What an interviewer would ask next", follow_ups_body(card))
        if card.limitations:
            add("limitations", "Where it stops working", _bullets(card.limitations))
        if card.used_in:
            add("used_in", "Used in", _bullets(card.used_in))
    if card.bullets:
        add("bullets", "60-second review", _bullets(card.bullets))
    if not brief and card.sources:
        lines = [s.title + (f" {s.url}" if s.url else "") for s in card.sources]
        add("sources", "Sources", _bullets(lines))
    if not brief and card.related:
        panels.append(Text("Related: " + ", ".join(card.related), style="dim"))
    return panels
