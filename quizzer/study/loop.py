"""The one study loop: drives a quiz, review or drill session to its end.

A session object (:class:`~quizzer.study.quiz.QuizSession`,
:class:`~quizzer.study.drill.DrillSession`) turns lines into events. This
loop asks for each line, saves what must be saved, and handles every way
out in one place:

* an answer, a hint, a reveal, a skip: passed to the session;
* ``/override``, ``/suspend``, ``/bury``, ``/undo``, ``/skip`` at a follow-up,
  and an unknown ``/command``: handled here, at any prompt where they mean
  something;
* ``/quit``, end of input (Ctrl-D, the end of a pipe) and Ctrl-C, at *any*
  prompt (a blank, a follow-up, a self-grade, Enter before an approach, the
  rating): the session stops and its summary covers what was shown;
* time up: the drill ends itself.

The loop is the one place that saves: each judged answer (the event carries
its attempt) as it comes, and a card's review the moment its last blank is
done, before anything else is shown, so no way out can lose it; the due
time shown is the one saved, and a grade changed afterwards replaces it.
A card left in its (re)learning steps after its rating, whatever the
rating, is handed back to the session to ask again when its step is due.

Reading a line and showing an event are passed in, so a whole session runs
in a test without a terminal.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from quizzer.cards.model import Card
from quizzer.study.events import (
    AnswersChanged,
    ApproachAsked,
    ApproachShown,
    BlankAsked,
    CardBack,
    CardFinished,
    CardStarted,
    ClosingSections,
    DrillCardStarted,
    DrillFinished,
    EndReason,
    Event,
    FollowUpAsked,
    FollowUpGraded,
    FollowUpId,
    FollowUpsListed,
    Grade,
    GradeAsked,
    Judged,
    Notice,
    Overridden,
    Prompt,
    QuestionShown,
    RatingAsked,
    Recap,
    Revealed,
    Scheduled,
    SectionAsked,
    SectionShown,
    SessionFinished,
    parse_grade,
)
from quizzer.study.follow_ups import FollowUpChecks, proposed_grade
from quizzer.study.items import GRADE_KEYS_HELP
from quizzer.study.protocols import (
    Fingerprints,
    Progress,
    Reader,
    Session,
    Show,
    StudyOptions,
)
from quizzer.study.quiz import BURY, COMMANDS_HELP, OVERRIDE, QUIT, SKIP, SUSPEND, UNDO, Clock
from quizzer.study.recording import rating_for
from quizzer.study.results import CardResult

__all__ = ["Fingerprints", "Progress", "Reader", "Session", "Show", "StudyOptions", "run_study"]


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
    started_at: datetime  # when the card began (its attempts since then are its own)
    due: datetime | None = None  # None: no review saved (nothing recorded, or skipped)
    undone: bool = False  # /undo took its review back

    def recap(self) -> Recap:
        return Recap(
            card=self.card,
            result=self.result,
            filled=self.filled,
            grade=self.grade,
            due=self.due,
            now=self.at,
        )


#: The card back's sections after the explanation, by field, with their menu names.
MENU_SECTIONS = {
    "worked_example": "example",
    "code": "code",
    "red_flags": "red flags",
    "follow_ups": "follow-ups",
    "bullets": "60-second review",
    "sources": "sources",
}
#: The key of each section at the menu.
MENU_KEYS = {
    "e": "worked_example",
    "c": "code",
    "r": "red_flags",
    "f": "follow_ups",
    "b": "bullets",
    "s": "sources",
}


class _SkipFollowUps(Exception):
    """``/skip`` at a follow-up: the card's remaining follow-ups are left out."""


#: Words a line may start with that are not answers: ``/`` then a name.
def _command(line: str) -> str | None:
    text = line.strip()
    if text.startswith("/") and len(text) > 1 and text[1:].replace("-", "").isalpha():
        return text.lower()
    return None


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
        self.card_started_at: datetime | None = None
        self.setting_aside: str | None = None  # /suspend or /bury of the card going on
        self.checks = FollowUpChecks()  # a quiz's follow-up answers, on their key points
        # Cards whose follow-ups were asked: a card that comes back in its learning steps
        # is asked its blanks again, not the interviewer's questions it already answered.
        self.followed_up: set[str] = set()

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
                if not self._command(line, prompt):
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

    def _command(self, line: str, prompt: Prompt) -> bool:
        """Handle a ``/command`` typed at a session's prompt; False: the line is the session's."""
        command = _command(line)
        if command is None or command == SKIP:
            return False
        if command == OVERRIDE:
            self._handle(self.session.override())
        elif command in (SUSPEND, BURY):
            self.setting_aside = command
            events = self.session.set_aside()
            if events:
                self._handle(events)
            else:  # nothing to leave (a drill's follow-up): flag the card all the same
                self._flag(command, _card_of(prompt, self.finished))
            self.setting_aside = None
        elif command == UNDO:
            self._undo(prompt)
        else:
            self.show(Notice(f"unknown command {command}; try {COMMANDS_HELP}"))
        return True

    def _ask(self, prompt: Callable[[], Prompt]) -> str:
        """A line for one of the loop's own prompts; the commands are taken on the way.

        ``prompt`` is called again after an override, which may change what it says.
        """
        while True:
            self._show_recap()
            asked = prompt()
            line = self._read(asked)
            command = _command(line)
            if command is None:
                return line
            if command == OVERRIDE:
                self._handle(self.session.override())
            elif command == SKIP and isinstance(asked, ApproachAsked):
                raise _SkipFollowUps
            elif command in (SUSPEND, BURY) and self.finished is not None:
                self._flag(command, self.finished.card.id)
                return ""
            elif command in (SKIP, UNDO):
                self.show(Notice(f"{command} does nothing here; Enter goes on"))
            else:
                self.show(Notice(f"unknown command {command}; try {COMMANDS_HELP}"))

    def _stop(self, reason: EndReason) -> None:
        self.ended_by = reason
        self._handle(self.session.stop(reason))

    # -- setting aside and undoing ------------------------------------------------

    def _flag(self, command: str, card_id: str | None) -> None:
        if card_id is None:
            return
        if self.progress is None:
            self.show(Notice(f"{command}: nothing is saved in this session, so {card_id} is not"))
        elif command == SUSPEND:
            self.progress.suspend(card_id, self.clock())
            self.show(Notice(f"suspended {card_id}: `quizzer unsuspend {card_id}` brings it back"))
        else:
            until = self.progress.bury(card_id, self.clock())
            self.show(Notice(f"buried {card_id} until {until:%a %d %b %H:%M} UTC"))

    def _undo(self, prompt: Prompt) -> None:
        """``/undo`` at the next card's first prompt: take back the last card's review."""
        finished = self.finished
        first_prompt = (
            isinstance(prompt, BlankAsked) and prompt.number == 1 and prompt.try_number == 1
        )
        if not first_prompt or finished is None or finished.due is None or finished.undone:
            self.show(
                Notice("/undo takes back the last card's rating at the next card's first prompt")
            )
            return
        if self.progress is not None:
            self.progress.undo_review(finished.card.id, finished.started_at)
        finished.undone = True
        self.session.drop_coming_back(finished.card.id)
        self.show(Notice(f"took back the rating of {finished.card.id}; its answers stay, marked"))

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
                if isinstance(event, Judged | Revealed) and event.attempt is not None:
                    # Saved before it is shown: Ctrl-C right after a verdict keeps it.
                    if self.progress is not None:
                        self.progress.record_attempt(event.attempt)
                elif isinstance(event, SessionFinished):
                    self.ended_by = event.summary.ended_by
                elif isinstance(event, DrillFinished):
                    self.ended_by = event.report.ended_by
                elif isinstance(event, CardStarted | DrillCardStarted):
                    self.card_started_at = self.clock()
                self.show(event)

    def _card_finished(self, event: CardFinished) -> None:
        # Saved before anything is shown: no way out after this can lose the review.
        now = self.clock()
        started = self.card_started_at or now
        if self.setting_aside is not None:  # set aside: no review, no teaching shown
            self._flag(self.setting_aside, event.card.id)
            return
        grade = rating_for(event.result)
        finished = _Finished(event.card, event.result, event.filled, now, grade, started)
        if self.progress is not None and grade is not None:
            finished.due = self.progress.save_review(event.result, grade, now)
        self.finished = finished
        if self._menu_on:
            self.show(CardBack(event.card, event.result, event.filled))
        else:
            self.show(event)
        self._answer_changes(event.card)
        self._teach(event.card)
        self._offer_rating(finished)
        self._come_back(finished)

    def _come_back(self, finished: _Finished) -> None:
        """A card still in its (re)learning steps after its rating is asked again in this
        session when its step is due, as Anki does; Easy, or a last step passed, graduates.

        Not only Again: a new card answered right (Good) is in FSRS's learning state
        with its next step 10 minutes away, and Anki shows it again within its
        20-minute learn-ahead window (issue 24). The rating read is the final one
        (after a changed rating, an override or nothing changed).
        """
        if self.progress is None or finished.due is None:
            return
        if self.progress.in_learning(finished.card.id):
            self.session.come_back(finished.card, finished.due)

    def _answer_changes(self, card: Card) -> None:
        if self.progress is None or self.fingerprints is None:
            return
        changes = self.progress.answer_changes(card, self.fingerprints(card))
        if changes:
            self.show(AnswersChanged(card.id, tuple(changes)))

    def _teach(self, card: Card) -> None:
        """The follow-ups (one at a time in a terminal), then the sections after them.

        In a terminal (without --brief) the card back's menu offers them one key each.
        """
        if self._menu_on:
            self._menu(card)
            return
        if self.options.follow_ups and card.follow_ups and card.id not in self.followed_up:
            if self.options.interactive:
                self._follow_ups(card)
            else:
                self.followed_up.add(card.id)
                self.show(FollowUpsListed(card))
        if self.options.closing:
            self.show(ClosingSections(card))

    @property
    def _menu_on(self) -> bool:
        options = self.options
        return options.interactive and options.follow_ups and options.card_back_menu

    def _menu(self, card: Card) -> None:
        """The sections after the card back, one key each, until ``n`` or none is left."""
        left = [field for field in MENU_SECTIONS if getattr(card, field, None)]
        if card.id in self.followed_up and "follow_ups" in left:
            left.remove("follow_ups")
        while left:
            line = self._ask(lambda: SectionAsked(card=card, left=tuple(left)))
            key = line.strip().lower()
            if key == "n":
                return
            field = left[0] if key == "" else MENU_KEYS.get(key)
            if field is None or not getattr(card, field, None):
                keys = " · ".join(f"{k} {MENU_SECTIONS[f]}" for k, f in MENU_KEYS.items())
                self.show(Notice(f"Enter next section · {keys} · n next card"))
                continue
            if field in left:
                left.remove(field)
            if field == "follow_ups":
                self._follow_ups(card)
            else:
                self.show(SectionShown(card, field))

    def _follow_ups(self, card: Card) -> None:
        """Each follow-up in turn: the question, the learner's answer, then the approach.

        A typed answer is checked on the follow-up's key points, and the grade they
        earn is proposed and saved as the follow-up's review (as a drill saves it).
        """
        self.followed_up.add(card.id)
        try:
            for index, follow in enumerate(card.follow_ups):
                item = FollowUpId(card.id, index)
                self.show(QuestionShown(card, item, follow))
                asked_at = self.clock()
                answered = self._ask(functools.partial(ApproachAsked, item))
                check = self.checks.check(card, index, answered)
                self.show(
                    ApproachShown(item=item, approach=follow.approach, answered="", check=check)
                )
                if check is not None:
                    self._grade_follow_up(item, proposed_grade(check), asked_at)
        except _SkipFollowUps:
            self.show(Notice("follow-ups skipped"))

    def _grade_follow_up(self, item: FollowUpId, proposed: Grade, asked_at: datetime) -> None:
        """The grade a checked answer earned: Enter takes it, a key changes it."""
        while True:
            line = self._ask(functools.partial(GradeAsked, item, proposed))
            grade = parse_grade(line) if line.strip() else proposed
            if grade is not None:
                break
            self.show(Notice(f"Enter takes {proposed.label}, or {GRADE_KEYS_HELP}"))
        ms = max(0, int((self.clock() - asked_at).total_seconds() * 1000))
        self._handle([FollowUpGraded(item=item, grade=grade, ms=ms)])

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


def _card_of(prompt: Prompt, finished: _Finished | None) -> str | None:
    """The card a prompt is about (a drill's follow-up prompts name only the item)."""
    if isinstance(prompt, BlankAsked | FollowUpAsked):
        return prompt.card.id
    if isinstance(prompt, GradeAsked | ApproachAsked):
        return prompt.item.card_id
    return finished.card.id if finished is not None else None
