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
    BulletsShown,
    CardFinished,
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
from quizzer.study.quiz import OVERRIDE, QUIT, CardResult, Clock
from quizzer.study.recording import AnswerChange, rating_for


class Session(Protocol):
    """What the loop drives: a quiz or a drill."""

    finished: bool

    @property
    def between_cards(self) -> bool: ...

    def start(self) -> list[Event]: ...

    def answer(self, line: str) -> list[Event]: ...

    def override(self) -> list[Event]: ...

    def next_card(self) -> list[Event]: ...

    def stop(self, reason: EndReason) -> list[Event]: ...

    def prompt(self) -> Prompt: ...

    def remaining(self) -> timedelta | None: ...


class Reader(Protocol):
    """The next line typed for ``prompt``, or None at the end of input.

    May raise KeyboardInterrupt (Ctrl-C); the loop handles it.
    """

    def __call__(self, prompt: Prompt, remaining: timedelta | None) -> str | None: ...


Show = Callable[[Event], None]
Fingerprints = Callable[[Card], Mapping[str, tuple[str, str]]]


class Progress(Protocol):
    """Where a session's reviews and overrides are saved (attempts go via the session)."""

    def save_review(self, result: CardResult, grade: Grade, now: datetime) -> datetime: ...

    def save_rating(
        self, item: str, grade: Grade, now: datetime, duration_ms: int | None = None
    ) -> datetime: ...

    def replace_rating(
        self, item: str, grade: Grade, now: datetime, duration_ms: int | None = None
    ) -> datetime: ...

    def record_override(self, card_id: str, blank: str, try_number: int) -> None: ...

    def answer_changes(
        self, card: Card, fingerprints: Mapping[str, tuple[str, str]]
    ) -> list[AnswerChange]: ...

    def end(self, now: datetime) -> None: ...


@dataclass(frozen=True)
class StudyOptions:
    """How the loop behaves around a finished card."""

    interactive: bool = False  # a person at a terminal: wait for Enter, offer the rating
    follow_ups: bool = True  # show a finished card's follow-ups (quiz, without --brief)
    bullets: bool = True  # close a finished card with its 60-second review (quiz)
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
        self.recap: Recap | None = None  # the last finished card, kept in view

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
        now = self.clock()
        grade = rating_for(event.result)
        due = None
        if self.progress is not None and grade is not None:
            due = self.progress.save_review(event.result, grade, now)
        self.recap = Recap(event.card, event.result, event.filled, grade, due, now)
        self.show(event)
        self._answer_changes(event.card)
        self._teach(event.card)
        self._offer_rating(event.card.id, event.result.ms)

    def _answer_changes(self, card: Card) -> None:
        if self.progress is None or self.fingerprints is None:
            return
        changes = self.progress.answer_changes(card, self.fingerprints(card))
        if changes:
            self.show(AnswersChanged(card.id, tuple(changes)))

    def _teach(self, card: Card) -> None:
        """The follow-ups (one at a time in a terminal) and the 60-second review."""
        if self.options.follow_ups and card.follow_ups:
            if not self.options.interactive:
                self.show(FollowUpsListed(card))
            for index, follow in enumerate(card.follow_ups if self.options.interactive else []):
                item = FollowUpId(card.id, index)
                self.show(QuestionShown(card, item, follow))
                self._ask(functools.partial(ApproachAsked, item))
                self.show(ApproachShown(item=item, approach=follow.approach, answered=""))
        if self.options.bullets and card.bullets:
            self.show(BulletsShown(card))

    def _offer_rating(self, card_id: str, ms: int) -> None:
        """Show the grade saved (in a terminal, with a key to change it)."""
        if self._saved() is None:
            return
        if self.options.interactive and self.options.rate_prompt:
            changed = parse_grade(self._ask(lambda: self._rating_asked(card_id)))
            grade = self._rating_asked(card_id).grade
            if changed is not None and changed != grade and self.progress is not None:
                now = self.clock()
                due = self.progress.replace_rating(card_id, changed, now, ms)
                self._remember(changed, due, now)
                self.show(Scheduled(card_id, changed, due, now, replaced=True))
                return
        asked = self._rating_asked(card_id)
        self.show(Scheduled(card_id, asked.grade, asked.due, asked.now))

    def _saved(self) -> Recap | None:
        """The last finished card's recap, if its review was saved."""
        recap = self.recap
        return recap if recap and recap.grade is not None and recap.due is not None else None

    def _rating_asked(self, card_id: str) -> RatingAsked:
        recap = self._saved()
        assert recap is not None and recap.grade is not None and recap.due is not None
        return RatingAsked(card_id, recap.grade, recap.due, self.clock())

    def _overridden(self, event: Overridden) -> None:
        if self.progress is not None:
            self.progress.record_override(event.card_id, event.blank, event.try_number)
        self.show(event)
        recap = self._saved()
        if recap is None or recap.result is not event.result:
            return  # the card is still going: its grade comes when it finishes
        # The card's review was saved with the judge's verdict: grade it again.
        grade = rating_for(event.result)
        if self.progress is None or grade is None:
            return
        now = self.clock()
        due = self.progress.replace_rating(event.card_id, grade, now, event.result.ms)
        self._remember(grade, due, now)
        self.show(Scheduled(event.card_id, grade, due, now, replaced=True))

    def _follow_up_graded(self, event: FollowUpGraded) -> None:
        if self.progress is None:
            return
        now = self.clock()
        due = self.progress.save_rating(str(event.item), event.grade, now, event.ms)
        self.show(Scheduled(event.item, event.grade, due, now))

    # -- the recap ------------------------------------------------------------------

    def _remember(self, grade: Grade, due: datetime, now: datetime) -> None:
        if self.recap is not None:
            recap = self.recap
            self.recap = Recap(recap.card, recap.result, recap.filled, grade, due, now)

    def _show_recap(self) -> None:
        if self.options.interactive and self.recap is not None:
            self.show(self.recap)
