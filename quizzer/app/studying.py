"""Building and running a study session: ``quiz``, ``review`` and ``drill``.

A command hands over its options and a :class:`Learner` (how to read a line
and show an event) in one call (:func:`quiz`, :func:`review`, :func:`drill`);
this module chooses the cards, opens the progress database, builds the
session with its judges (:class:`quizzer.study.judging.Judges`, which warm
up once the first question is on screen) and runs the study loop
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
from quizzer.study.judging import Judges, start

if TYPE_CHECKING:
    from fsrs.card import CardDict

    from quizzer.app.choosing import CardChoice
    from quizzer.app.workspace import Workspace
    from quizzer.cards.deck import LoadedCard
    from quizzer.cards.model import Card
    from quizzer.progress.store import Store
    from quizzer.study.drill import DrillReport
    from quizzer.study.events import EndReason, Event, Prompt
    from quizzer.study.loop import Session
    from quizzer.study.recording import SessionProgress

#: Days of the workload `review` shows (the reviews a day the schedule implies).
WORKLOAD_DAYS = 30
#: The key line of a drill (a quiz's is quizzer.study.quiz.KEYS_HELP).
DRILL_KEYS = "one try, no hints · ! to pass · /override after ✗ · /quit to stop"


@dataclass(frozen=True)
class Learner:
    """How a session meets the person studying.

    Attributes:
        read: The line typed at a prompt (None at the end of input); Ctrl-C may raise.
        show: Draws one event of the session.
        note: Prints one line about the session (the drill's sheet was written).
        keys: Shows the one-line key help, once, before the first question.
        start_thread: Starts a background thread (the terminal blocks Ctrl-C in it).
        planned: Shows what a review is about to ask (:class:`ReviewPlan`), before it starts.
    """

    read: Callable[[Prompt, timedelta | None], str | None]
    show: Callable[[Event], None]
    note: Callable[[str], None] = field(default=lambda line: None)
    keys: Callable[[str], None] = field(default=lambda line: None)
    start_thread: Callable[[threading.Thread], None] = start
    planned: Callable[[ReviewPlan], None] = field(default=lambda plan: None)


@dataclass(frozen=True)
class StudyOptions:
    """How a quiz or review runs (the loop's own options follow from these)."""

    tries: int = defaults.TRIES
    record: bool = True
    brief: bool = False
    rate_prompt: bool = True


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
    from quizzer.study.events import BlankAsked
    from quizzer.study.loop import StudyOptions as LoopOptions
    from quizzer.study.loop import run_study

    def read(prompt: Prompt, remaining: timedelta | None) -> str | None:
        if isinstance(prompt, BlankAsked):
            # The first question is on screen: the judge of its card warms meanwhile.
            judges.question_shown(prompt.card)
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
    judges = Judges(learner.start_thread)
    return _study(workspace, cards, learner, options, mode, judges)


def _study(
    workspace: Workspace,
    cards: Sequence[Card],
    learner: Learner,
    options: StudyOptions,
    mode: str,
    judges: Judges,
) -> EndReason:
    from quizzer.study.quiz import KEYS_HELP, QuizSession

    if not cards:
        raise QuizzerError("no cards to study")
    store = workspace.open_progress() if options.record else None
    try:
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

    cards: Sequence[Card]
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
    from quizzer.cards.deck import CardsOnDemand
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
        CardsOnDemand(by_id[c] for c in chosen.cards),
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
    from quizzer.cards.deck import CardsOnDemand

    judges = Judges(learner.start_thread)
    chosen = choose_cards(workspace, choice)
    return _study(workspace, CardsOnDemand(chosen), learner, options, "quiz", judges)


class NothingDue(Exception):
    """Nothing to review now: a note and exit 0, not an error.

    Attributes:
        next_due: The soonest card not due yet, and when it falls due.
        now: The time the plan was made at.
    """

    def __init__(self, next_due: tuple[str, datetime] | None, now: datetime) -> None:
        super().__init__("nothing due")
        self.next_due = next_due
        self.now = now


def review(
    workspace: Workspace,
    choice: CardChoice,
    learner: Learner,
    options: StudyOptions = StudyOptions(),
    *,
    new_per_day: int | None = None,
) -> EndReason:
    """Review the due cards of ``choice`` (tags, search, limit), then new ones, by level.

    The plan is shown (``learner.planned``) before the first card. Raises
    :class:`NothingDue` when there is nothing to review; ``new_per_day`` None
    is the learner's setting.
    """
    from quizzer.app.choosing import filtered, load

    judges = Judges(learner.start_thread)
    candidates = filtered(load(workspace).cards, choice.tags, choice.search)
    plan = plan_review(workspace, candidates, limit=choice.limit, new_per_day=new_per_day)
    if not plan.cards:
        raise NothingDue(plan.next_due, plan.now)
    learner.planned(plan)
    return _study(workspace, plan.cards, learner, options, "review", judges)


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

    judges = Judges(learner.start_thread)
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
