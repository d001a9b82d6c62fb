"""Building and running a study session: ``quiz``, ``review`` and ``drill``.

A command hands over what was chosen and a :class:`Learner` (how to read a
line and show an event); this module opens the progress database, builds the
judges and their warm-up, builds the session and runs the study loop
(:mod:`quizzer.study.loop`), and writes a drill's cheat sheet. Nothing here
draws or reads the terminal itself, so a script can run a session with its
own ``read`` and ``show`` (docs/python-api.md).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from quizzer.errors import QuizzerError
from quizzer.study import defaults

if TYPE_CHECKING:
    from fsrs.card import CardDict

    from quizzer.answers import CardJudge, Verdict
    from quizzer.app.choosing import CardChoice
    from quizzer.app.workspace import Workspace
    from quizzer.cards.deck import LoadedCard
    from quizzer.cards.model import Card
    from quizzer.progress.store import Store
    from quizzer.study.drill import DrillReport
    from quizzer.study.events import EndReason, Event, Prompt
    from quizzer.study.loop import Session
    from quizzer.study.recording import SessionProgress

#: The key line of a drill (a quiz's is quizzer.study.quiz.KEYS_HELP).
#: Days of the workload `review` shows (the reviews a day the schedule implies).
WORKLOAD_DAYS = 30
DRILL_KEYS = "one try, no hints · ! to pass · /override after ✗ · /quit to stop"


def _start(thread: threading.Thread) -> None:
    thread.start()


@dataclass(frozen=True)
class Learner:
    """How a session meets the person studying.

    Attributes:
        read: The line typed at a prompt (None at the end of input); Ctrl-C may raise.
        show: Draws one event of the session.
        note: Prints one line about the session (the drill's sheet was written).
        keys: Shows the one-line key help, once, before the first question.
        start_thread: Starts a background thread (the terminal blocks Ctrl-C in it).
    """

    read: Callable[[Prompt, timedelta | None], str | None]
    show: Callable[[Event], None]
    note: Callable[[str], None] = field(default=lambda line: None)
    keys: Callable[[str], None] = field(default=lambda line: None)
    start_thread: Callable[[threading.Thread], None] = _start


@dataclass(frozen=True)
class StudyOptions:
    """How a quiz or review runs (the loop's own options follow from these)."""

    tries: int = defaults.TRIES
    record: bool = True
    brief: bool = False
    rate_prompt: bool = True


#: Seconds a verdict or fingerprint waits for the warm-up thread before going on without it.
WARM_UP_WAIT = 5.0


class Judges:
    """One judge per card, with SymPy loading in a background thread meanwhile.

    The first question is on screen before SymPy is imported; by the time the
    learner has read it and typed an answer, the judge is warm.
    """

    def __init__(
        self, first: Card, start_thread: Callable[[threading.Thread], None] = _start
    ) -> None:
        self._judges: dict[str, CardJudge] = {}
        self._quick: dict[str, CardJudge] = {}  # judges of the main thread, while warming
        self._thread = threading.Thread(target=self._warm, args=(first,), daemon=True)
        self._start_thread = start_thread

    def start(self) -> None:
        if self._thread.ident is None:
            self._start_thread(self._thread)

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
            # Never wait for ever: a card too slow to warm is judged by a judge of its own.
            self._thread.join(WARM_UP_WAIT)
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


def _progress(workspace: Workspace, store: Store | None, mode: str) -> SessionProgress | None:
    if store is None:
        return None
    from quizzer.progress.schedule import learner_scheduler
    from quizzer.study.recording import SessionProgress

    return SessionProgress(store, learner_scheduler(store), mode, workspace.clock())


def _run(
    workspace: Workspace,
    session: Session,
    judges: Judges,
    progress: SessionProgress | None,
    learner: Learner,
    *,
    keys: str,
    follow_ups: bool,
    closing: bool,
    rate_prompt: bool,
) -> EndReason:
    """Run ``session`` with the study loop; ``"interrupted"`` after Ctrl-C."""
    from quizzer.study.loop import StudyOptions as LoopOptions
    from quizzer.study.loop import run_study

    def read(prompt: Prompt, remaining: timedelta | None) -> str | None:
        judges.start()  # the first question is on screen: warm the judge meanwhile
        return learner.read(prompt, remaining)

    learner.keys(keys)
    return run_study(
        session,
        read=read,
        show=learner.show,
        clock=workspace.clock,
        progress=progress,
        options=LoopOptions(
            interactive=workspace.interactive,
            follow_ups=follow_ups,
            closing=closing,
            rate_prompt=rate_prompt,
            # Shown only in a terminal, after a quiz's follow-ups (the loop decides).
            card_back_menu=True,
        ),
        fingerprints=judges.fingerprints if progress is not None else None,
    )


def study(
    workspace: Workspace,
    cards: Sequence[Card],
    learner: Learner,
    options: StudyOptions = StudyOptions(),
    *,
    mode: str = "quiz",
) -> EndReason:
    """Quiz (or review, with ``mode``) ``cards`` until the session ends; returns why it did.

    Progress is saved unless ``options.record`` is false (``--no-record``).
    The study loop saves each attempt from the event that carries it, so the
    session is given no recorder of its own (it would save every attempt twice).
    """
    from quizzer.study.quiz import KEYS_HELP, QuizSession

    if not cards:
        raise QuizzerError("no cards to study")
    store = workspace.open_progress() if options.record else None
    try:
        judges = Judges(cards[0], learner.start_thread)
        progress = _progress(workspace, store, mode)
        session = QuizSession(list(cards), judges, workspace.clock, tries=options.tries)
        return _run(
            workspace,
            session,
            judges,
            progress,
            learner,
            keys=KEYS_HELP,
            follow_ups=not options.brief,
            closing=True,
            rate_prompt=options.rate_prompt,
        )
    finally:
        if store is not None:
            store.close()


@dataclass(frozen=True)
class ReviewPlan:
    """The cards of a review session: due ones (most overdue first), then new ones.

    Attributes:
        cards: Every card to review, in order.
        due: How many of them are due.
        new: How many are new.
        next_due: When nothing is to review: the soonest card not due yet, and when.
        now: The time the plan was made at.
        workload: Cards falling due on each of the next 30 days (the load the schedule implies).
        desired_retention: The recall the schedule aims at.
    """

    cards: list[Card]
    due: int
    new: int
    next_due: tuple[str, datetime] | None
    now: datetime
    workload: list[int] = field(default_factory=list)
    desired_retention: float = 0.9


def plan_review(
    workspace: Workspace,
    candidates: Sequence[LoadedCard],
    *,
    limit: int | None = None,
    new_per_day: int | None = None,
) -> ReviewPlan:
    """What ``review`` asks today among ``candidates`` (in deck order); new cards by level.

    Suspended and buried cards are left out. ``new_per_day`` None: the
    learner's setting (``quizzer config new_per_day``).
    """
    from quizzer.app.choosing import by_level, without_set_aside
    from quizzer.progress.flags import card_flags
    from quizzer.progress.parameters import desired_retention
    from quizzer.progress.schedule import forecast
    from quizzer.progress.schedule import plan_review as plan
    from quizzer.progress.settings import read_settings
    from quizzer.study.recording import new_cards_seen_on

    with workspace.open_progress() as store:
        now = workspace.clock()
        if new_per_day is None:
            new_per_day = read_settings(store).new_per_day
        kept = without_set_aside(workspace, candidates, now, card_flags(store))
        # Cards by id, their models built only for the cards chosen (each costs a cache read).
        by_id = {c.id: c for c in by_level(kept)}
        states = store.fsrs_cards()
        chosen = plan(
            list(by_id),
            states,
            now,
            limit=limit,
            new_limit=new_per_day,
            new_seen_today=new_cards_seen_on(store, now.date()),
        )
        retention = desired_retention(store)
    return ReviewPlan(
        [by_id[c].card for c in chosen.cards],
        len(chosen.due),
        len(chosen.new),
        chosen.next_due,
        now,
        forecast(states.values(), now, WORKLOAD_DAYS),
        retention,
    )


def drill_order(
    workspace: Workspace,
    pool: Sequence[LoadedCard],
    count: int,
    seed: int | None,
    *,
    use_progress: bool = True,
) -> list[Card]:
    """Weakest and most overdue first, then new cards in a seeded random order.

    A drill that records nothing (``--no-record``) orders every card as new.
    """
    import random

    from quizzer.progress.stats import lapses
    from quizzer.study.drill import order_for_drill

    states: dict[str, CardDict] = {}
    lapse_counts: dict[str, int] = {}
    with workspace.existing_progress() as store:
        if store is not None and use_progress:
            states = store.fsrs_cards()
            lapse_counts = {c.id: lapses(store.reviews(c.id)) for c in pool}
    shuffled = [c.card for c in pool]
    random.Random(seed).shuffle(shuffled)
    return order_for_drill(shuffled, states, lapse_counts)[:count]


def quiz(
    workspace: Workspace,
    choice: CardChoice,
    learner: Learner,
    options: StudyOptions = StudyOptions(),
) -> EndReason:
    """Choose cards as ``choice`` says, then quiz them (see :func:`study`).

    Raises :class:`~quizzer.app.choosing.NothingToStudy` when no card is in the state asked.
    """
    from quizzer.app.choosing import choose_cards

    chosen = choose_cards(workspace, choice)
    return study(workspace, [c.card for c in chosen], learner, options)


def drill(
    workspace: Workspace,
    choice: CardChoice,
    learner: Learner,
    *,
    count: int = defaults.DRILL_CARDS,
    minutes: float = defaults.DRILL_MINUTES,
    record: bool = True,
    sheet: Path | None = None,
) -> tuple[EndReason, DrillReport | None]:
    """A timed mock interview on ``count`` cards of ``choice``; then its cheat sheet.

    The sheet is written even after Ctrl-C. ``choice.seed`` orders the new
    cards. Returns why the drill ended and its report (None when it ended
    before any card).
    """
    from quizzer.app.choosing import filtered, load, without_set_aside
    from quizzer.study.drill import DrillSession, cheat_sheet_markdown

    if sheet is not None:
        from quizzer.files import check_writable

        check_writable(sheet)
    pool = filtered(without_set_aside(workspace, load(workspace).cards), choice.tags, choice.search)
    if not pool:
        what = f" with tag {', '.join(choice.tags)}" if choice.tags else ""
        raise QuizzerError(f"no cards{what} to drill")
    cards = drill_order(workspace, pool, count, choice.seed, use_progress=record)
    store = workspace.open_progress() if record else None
    session: DrillSession | None = None
    try:
        judges = Judges(cards[0], learner.start_thread)
        progress = _progress(workspace, store, "drill")
        session = DrillSession(
            list(cards),
            judges,
            workspace.clock,
            minutes=minutes,
            follow_up_states=progress.states() if progress else {},
        )
        ended = _run(
            workspace,
            session,
            judges,
            progress,
            learner,
            keys=DRILL_KEYS,
            follow_ups=False,
            closing=False,
            rate_prompt=False,
        )
        return ended, session.report
    finally:
        try:
            # Even after Ctrl-C: the sheet of what was missed is what the drill was for.
            # A drill left before any answer has nothing to say, and must not replace
            # the sheet an earlier drill wrote there.
            report = session.report if session is not None else None
            if sheet is not None and report is not None:
                if report.cards:
                    write_sheet(sheet, cheat_sheet_markdown(report, workspace.clock()))
                    learner.note(f"cheat sheet written to {sheet}")
                else:
                    learner.note(f"nothing answered; {sheet} left as it was")
        finally:
            if store is not None:
                store.close()


def write_sheet(sheet: Path, text: str) -> None:
    """Write a drill's cheat sheet atomically; a failure is one clear error."""
    from quizzer.files import write_atomic

    try:
        write_atomic(sheet, text)
    except OSError as error:
        raise QuizzerError(f"cannot write {sheet}: {error.strerror or error}") from None
