"""The one study loop: drives a quiz, review or drill session to its end.

A session object (:class:`~quizzer.study.quiz.QuizSession`,
:class:`~quizzer.study.drill.DrillSession`) turns lines into events. This
loop asks for each line, saves what must be saved, and handles every way
out in one place:

* an answer, a hint, a reveal, a skip, ``/override``: passed to the session;
* ``/quit``, end of input (Ctrl-D, the end of a pipe) and Ctrl-C, at *any*
  prompt (a blank, a follow-up, a self-grade, Enter before an approach, the
  rating): the session stops and its summary covers what was shown;
* time up: the drill ends itself.

A card's review is scheduled and saved the moment its last blank is done,
before anything else is shown, so no way out can lose it; the due time
shown is the one saved, and a grade changed afterwards replaces it.

Reading a line and showing an event are passed in, so a whole session runs
in a test without a terminal.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from quizzer.cards.model import Card
from quizzer.study.events import (
    AnswersChanged,
    ApproachAsked,
    ApproachShown,
    CardFinished,
    ClosingSections,
    DrillFinished,
    EndReason,
    Event,
    FollowUpAsked,
    FollowUpGraded,
    FollowUpId,
    FollowUpsListed,
    Grade,
    GradeAsked,
    Overridden,
    Prompt,
    QuestionShown,
    RatingAsked,
    Recap,
    Scheduled,
    SessionFinished,
    parse_grade,
)
from quizzer.study.quiz import OVERRIDE, QUIT, Clock
from quizzer.study.recording import rating_for
from quizzer.study.results import AnswerChange, CardResult


class Session(Protocol):
    """What the loop drives: a quiz or a drill."""

    finished: bool

    @property
    def between_cards(self) -> bool: ...

    def start(self) -> list[Event]:
        """Begin the session.

        Returns:
            The events of the first card; called once, before any other method.
        """

    def answer(self, line: str) -> list[Event]:
        """Take one line typed at the current prompt.

        Args:
            line: The text typed, without its newline (a key such as ``?`` or ``!`` included).

        Returns:
            What happened, in order.
        """

    def override(self) -> list[Event]:
        """Count the last rejected answer as right (``/override``).

        Returns:
            What happened: the overridden answer, then the card going on.
        """

    def next_card(self) -> list[Event]:
        """Go on after a finished card (see :attr:`between_cards`).

        Returns:
            The next card's events, or the session's end after the last card.
        """

    def stop(self, reason: EndReason) -> list[Event]:
        """End the session now; a second call does nothing.

        Args:
            reason: Why it ended (``quit``, ``end of input``, ``interrupted``, ``time``).

        Returns:
            The closing events, the summary or report last.
        """

    def prompt(self) -> Prompt:
        """What the next line answers.

        Returns:
            The prompt event to draw before reading a line.
        """

    def remaining(self) -> timedelta | None:
        """The time left.

        Returns:
            The time left, or None for a session without a time limit.
        """


class Reader(Protocol):
    """The next line typed for ``prompt``, or None at the end of input.

    May raise KeyboardInterrupt (Ctrl-C); the loop handles it.
    """

    def __call__(self, prompt: Prompt, remaining: timedelta | None) -> str | None: ...


Show = Callable[[Event], None]
Fingerprints = Callable[[Card], Mapping[str, tuple[str, str]]]


class Progress(Protocol):
    """Where a session's reviews and overrides are saved (attempts go via the session).

    :class:`~quizzer.study.recording.SessionProgress` is the package's implementation
    and documents each method's arguments.
    """

    def save_review(self, result: CardResult, grade: Grade, now: datetime) -> datetime:
        """Schedule a finished card, save its review; returns when it is next due."""

    def save_rating(
        self, item: str, grade: Grade, now: datetime, duration_ms: int | None = None
    ) -> datetime:
        """Schedule any review item (a card or a follow-up), save it; returns its due time."""

    def replace_rating(
        self, item: str, grade: Grade, now: datetime, duration_ms: int | None = None
    ) -> datetime:
        """Regrade the item's review saved earlier in this session; returns its due time."""

    def record_override(self, card_id: str, blank: str, try_number: int) -> None:
        """Mark an attempt saved earlier as counted right by the learner."""

    def answer_changes(
        self, card: Card, fingerprints: Mapping[str, tuple[str, str]]
    ) -> list[AnswerChange]:
        """Blanks whose answer changed in substance since the card's last review."""

    def end(self, now: datetime) -> None:
        """Close the session's record at ``now``."""


@dataclass(frozen=True)
class StudyOptions:
    """How the loop behaves around a finished card."""

    interactive: bool = False  # a person at a terminal: wait for Enter, offer the rating
    follow_ups: bool = True  # show a finished card's follow-ups (quiz, without --brief)
    closing: bool = True  # close a finished card with the sections after its follow-ups
    rate_prompt: bool = True  # in a terminal, let one key change the grade a card earned


class _Stop(Exception):
    """The learner ended the session at a prompt."""

    def __init__(self, reason: EndReason) -> None:
        super().__init__(reason)
        self.reason: EndReason = reason


def run_study(
    session: Session,
    *,
    read: Reader,
    show: Show,
    clock: Clock,
    progress: Progress | None = None,
    options: StudyOptions | None = None,
    fingerprints: Fingerprints | None = None,
) -> EndReason:
    """Run ``session`` until it ends; returns why it ended.

    Args:
        session: a started-fresh quiz or drill session.
        read: reads the next line for a prompt (None at end of input).
        show: renders one event.
        clock: the current time (UTC).
        progress: saves reviews and overrides; None saves nothing.
        options: behaviour around finished cards (defaults: piped quiz).
        fingerprints: each blank's answer fingerprint, to notice changed answers.

    Returns:
        ``"interrupted"`` after Ctrl-C (the caller exits 130), else the
        session's own reason (finished, quit, end of input, time).
    """
    loop = _Loop(session, read, show, clock, progress, options or StudyOptions(), fingerprints)
    return loop.run()


@dataclass
class _Finished:
    """The last finished card: what its recap shows, and its review once saved."""

    card: Card
    result: CardResult
    filled: dict[str, str]
    at: datetime  # when it was graded (intervals are measured from here)
    grade: Grade | None
    due: datetime | None = None  # None: no review saved (nothing recorded, or skipped)

    def recap(self) -> Recap:
        return Recap(
            card=self.card,
            result=self.result,
            filled=self.filled,
            grade=self.grade,
            due=self.due,
            now=self.at,
        )


class _Loop:
    def __init__(
        self,
        session: Session,
        read: Reader,
        show: Show,
        clock: Clock,
        progress: Progress | None,
        options: StudyOptions,
        fingerprints: Fingerprints | None,
    ) -> None:
        self.session = session
        self.read = read
        self.show = show
        self.clock = clock
        self.progress = progress
        self.options = options
        self.fingerprints = fingerprints
        self.ended_by: EndReason = "finished"
        self.finished: _Finished | None = None  # the last finished card, kept in view

    def run(self) -> EndReason:
        try:
            self._handle(self.session.start())
            while not self.session.finished:
                if self.session.between_cards:
                    self._handle(self.session.next_card())
                    continue
                prompt = self.session.prompt()
                if isinstance(prompt, FollowUpAsked | GradeAsked):
                    self._show_recap()
                line = self._read(prompt)
                if line.strip() == OVERRIDE:
                    self._handle(self.session.override())
                else:
                    self._handle(self.session.answer(line))
        except _Stop as stop:
            self._stop(stop.reason)
        except KeyboardInterrupt:
            self._stop("interrupted")
        finally:
            if self.progress is not None:
                self.progress.end(self.clock())
        return self.ended_by

    # -- ways in and out ----------------------------------------------------------

    def _read(self, prompt: Prompt) -> str:
        """The next line, or :class:`_Stop` for /quit and the end of input."""
        line = self.read(prompt, self.session.remaining())
        if line is None:
            raise _Stop("end of input")
        if line.strip() == QUIT:
            raise _Stop("quit")
        return line

    def _ask(self, prompt: Callable[[], Prompt]) -> str:
        """A line for one of the loop's own prompts; ``/override`` is taken on the way.

        ``prompt`` is called again after an override, which may change what it says.
        """
        while True:
            self._show_recap()
            line = self._read(prompt())
            if line.strip() != OVERRIDE:
                return line
            self._handle(self.session.override())

    def _stop(self, reason: EndReason) -> None:
        self.ended_by = reason
        self._handle(self.session.stop(reason))

    # -- events -----------------------------------------------------------------

    def _handle(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, CardFinished):
                self._card_finished(event)
            elif isinstance(event, Overridden):
                self._overridden(event)
            elif isinstance(event, FollowUpGraded):
                self.show(event)
                self._follow_up_graded(event)
            else:
                if isinstance(event, SessionFinished):
                    self.ended_by = event.summary.ended_by
                elif isinstance(event, DrillFinished):
                    self.ended_by = event.report.ended_by
                self.show(event)

    def _card_finished(self, event: CardFinished) -> None:
        # Saved before anything is shown: no way out after this can lose the review.
        now = self.clock()
        grade = rating_for(event.result)
        finished = _Finished(event.card, event.result, event.filled, now, grade)
        if self.progress is not None and grade is not None:
            finished.due = self.progress.save_review(event.result, grade, now)
        self.finished = finished
        self.show(event)
        self._answer_changes(event.card)
        self._teach(event.card)
        self._offer_rating(finished)

    def _answer_changes(self, card: Card) -> None:
        if self.progress is None or self.fingerprints is None:
            return
        changes = self.progress.answer_changes(card, self.fingerprints(card))
        if changes:
            self.show(AnswersChanged(card.id, tuple(changes)))

    def _teach(self, card: Card) -> None:
        """The follow-ups (one at a time in a terminal), then the sections after them."""
        if self.options.follow_ups and card.follow_ups:
            if not self.options.interactive:
                self.show(FollowUpsListed(card))
            for index, follow in enumerate(card.follow_ups if self.options.interactive else []):
                item = FollowUpId(card.id, index)
                self.show(QuestionShown(card, item, follow))
                self._ask(functools.partial(ApproachAsked, item))
                self.show(ApproachShown(item=item, approach=follow.approach, answered=""))
        if self.options.closing:
            self.show(ClosingSections(card))

    def _offer_rating(self, finished: _Finished) -> None:
        """Show the grade saved (in a terminal, with a key to change it)."""
        if finished.grade is None or finished.due is None:
            return
        if self.options.interactive and self.options.rate_prompt:

            def asking() -> RatingAsked:
                assert finished.grade is not None and finished.due is not None
                return RatingAsked(
                    card_id=finished.card.id,
                    grade=finished.grade,
                    due=finished.due,
                    now=finished.at,
                )

            changed = parse_grade(self._ask(asking))
            if changed is not None and changed != finished.grade:
                self._regrade(finished, changed)
                return
        self.show(
            Scheduled(
                item=finished.card.id, grade=finished.grade, due=finished.due, now=finished.at
            )
        )

    def _regrade(self, finished: _Finished, grade: Grade) -> None:
        """Replace the finished card's saved review with one graded ``grade``."""
        if self.progress is None:
            return
        now = self.clock()
        card_id = finished.card.id
        finished.due = self.progress.replace_rating(card_id, grade, now, finished.result.ms)
        finished.grade, finished.at = grade, now
        self.show(Scheduled(item=card_id, grade=grade, due=finished.due, now=now, replaced=True))

    def _overridden(self, event: Overridden) -> None:
        if self.progress is not None:
            self.progress.record_override(event.card_id, event.blank, event.try_number)
        self.show(event)
        finished = self.finished
        if finished is None or finished.result is not event.result or finished.due is None:
            return  # the card is still going: its grade comes when it finishes
        # The card's review was saved with the judge's verdict: grade it again.
        grade = rating_for(event.result)
        if grade is not None:
            self._regrade(finished, grade)

    def _follow_up_graded(self, event: FollowUpGraded) -> None:
        if self.progress is None:
            return
        now = self.clock()
        due = self.progress.save_rating(str(event.item), event.grade, now, event.ms)
        self.show(Scheduled(item=event.item, grade=event.grade, due=due, now=now))

    def _show_recap(self) -> None:
        if self.options.interactive and self.finished is not None:
            self.show(self.finished.recap())
