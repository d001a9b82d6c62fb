"""What ``quiz``, ``review`` and ``drill`` share: the judges, the reader, the one call.

Each command parses its options, builds its session and calls :meth:`Study.run`;
the study loop (:mod:`quizzer.study.loop`) does the rest.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

import typer

from quizzer.cli.common import clock
from quizzer.cli.terminal import read_line, start_without_interrupts
from quizzer.errors import ExitCode

if TYPE_CHECKING:
    from quizzer.answers import CardJudge, Verdict
    from quizzer.cards.model import Card
    from quizzer.progress.store import Attempt, Store
    from quizzer.study.events import Event, Prompt
    from quizzer.study.loop import Session
    from quizzer.study.recording import SessionProgress
    from quizzer.ui.screen import Screen


class Judges:
    """One judge per card, with SymPy loading in a background thread meanwhile.

    The first question is on screen before SymPy is imported; by the time the
    learner has read it and typed an answer, the judge is warm.
    """

    def __init__(self, first: Card) -> None:
        self._judges: dict[str, CardJudge] = {}
        self._quick: dict[str, CardJudge] = {}  # judges of the main thread, while warming
        self._thread = threading.Thread(target=self._warm, args=(first,), daemon=True)

    def start(self) -> None:
        if self._thread.ident is None:
            start_without_interrupts(self._thread)

    def _warm(self, card: Card) -> None:
        try:
            # numpy and mpmath first: a verdict needed meanwhile waits for them, not SymPy.
            import mpmath  # noqa: F401
            import numpy  # noqa: F401

            from quizzer.answers import CardJudge

            judge = CardJudge(card)
            for name, blank in card.blanks.items():
                judge.judge(name, blank.answer)  # the right path: parse, evaluate, print
                judge.judge(name, f"2*({blank.answer})")  # the wrong path: diagnosis
            self._judges[card.id] = judge
        except Exception:  # the main thread builds its own judge and reports any error
            pass

    def judge_for(self, card: Card) -> CardJudge:
        if self._thread.ident is not None:
            self._thread.join()
        from quizzer.answers import CardJudge

        if card.id not in self._judges:
            self._judges[card.id] = CardJudge(card)
        return self._judges[card.id]

    def __call__(self, card: Card, blank: str, text: str) -> Verdict:
        from quizzer.answers import judge_bounded

        if self._thread.is_alive():
            # SymPy is still loading: decide by numbers now rather than wait for it
            # (an answer typed at once used to wait about a second for its verdict).
            return judge_bounded(self._quick_judge(card), blank, text, read_back=False)
        return judge_bounded(self.judge_for(card), blank, text)

    def _quick_judge(self, card: Card) -> CardJudge:
        from quizzer.answers import CardJudge

        if card.id not in self._quick:
            self._quick[card.id] = CardJudge(card)
        return self._quick[card.id]

    def fingerprints(self, card: Card) -> dict[str, tuple[str, str]]:
        judge = self.judge_for(card)
        return {name: (judge.fingerprint(name), b.answer) for name, b in card.blanks.items()}


class Study:
    """What a study command needs around its session: the judges, the record, the one call.

    Args:
        store: Where progress is saved (None: nothing is saved, ``--no-record``).
        mode: The session's mode as stored (``quiz``, ``review``, ``drill``).
        first: The first card, whose judge warms up while its question is read.
    """

    def __init__(self, store: Store | None, mode: str, first: Card) -> None:
        self.judges = Judges(first)
        self.progress: SessionProgress | None = None
        if store is not None:
            from quizzer.progress.schedule import make_scheduler
            from quizzer.progress.settings import read_settings
            from quizzer.study.recording import SessionProgress

            scheduler = make_scheduler(settings=read_settings(store))
            self.progress = SessionProgress(store, scheduler, mode, clock())

    @property
    def record(self) -> Callable[[Attempt], None] | None:
        """None: the study loop saves each attempt, from the event that carries it."""
        return None

    def run(
        self,
        screen: Screen,
        session: Session,
        *,
        show: Callable[[Event], None],
        keys: str,
        follow_ups: bool,
        closing: bool,
        rate_prompt: bool,
    ) -> None:
        """Run ``session`` in the terminal (or from a pipe); exit 130 after Ctrl-C.

        Args:
            screen: Where prompts and events are drawn.
            session: The quiz or drill to drive.
            show: Draws one event (the mode's own view of it).
            keys: The one-line key help shown before the first question.
            follow_ups: Show a finished card's follow-ups.
            closing: Close a finished card with the sections after its follow-ups.
            rate_prompt: In a terminal, let one key change the grade a card earned.
        """
        from quizzer.study.loop import StudyOptions, run_study

        options = StudyOptions(
            interactive=interactive(),
            follow_ups=follow_ups,
            closing=closing,
            rate_prompt=rate_prompt,
            card_back_menu=True,
        )
        judges = self.judges

        def read(prompt: Prompt, remaining: timedelta | None) -> str | None:
            judges.start()  # the first question is on screen: warm the judge meanwhile
            text = screen.prompt_for(prompt, remaining)
            try:
                line = read_line(screen, text, options.interactive, _one_keys(prompt))
            except KeyboardInterrupt:
                end_prompt_line()
                raise
            if line is None:
                end_prompt_line()
            return line

        def end_prompt_line() -> None:
            # Ctrl-C and Ctrl-D leave the cursor after the prompt: the summary starts below.
            if options.interactive:
                screen.line("")

        if options.interactive:  # a pipe has no one to read the keys
            screen.keys_help(keys)
        ended = run_study(
            session,
            read=read,
            show=show,
            clock=clock,
            progress=self.progress,
            options=options,
            fingerprints=judges.fingerprints if self.progress is not None else None,
        )
        if ended == "interrupted":
            raise typer.Exit(int(ExitCode.INTERRUPTED))


#: The rating keys, each acting as soon as it is pressed (issue 24: "one key is one key").
RATING_KEYS = "1234"
#: The card back menu's keys (see quizzer.study.loop.MENU_KEYS), each acting at once.
MENU_KEYS = "ecrfbsn"


def _one_keys(prompt: Prompt) -> str:
    """The keys that act alone at ``prompt``: the rating keys at the rating prompt."""
    from quizzer.study.events import RatingAsked, SectionAsked

    if isinstance(prompt, SectionAsked):
        return MENU_KEYS
    return RATING_KEYS if isinstance(prompt, RatingAsked) else ""


def interactive() -> bool:
    """Whether a person is typing (a terminal), rather than a pipe or a file."""
    return sys.stdin.isatty()
