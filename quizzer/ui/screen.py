"""The screen a command draws on: the two streams, one of each view, and the event dispatch.

A :class:`Screen` is an :class:`~quizzer.ui.console.Output` (standard output
and error, the prompts that read a line) that *holds* its views, one object
per part of the screen (``screen.stats.report(...)``,
``screen.listing.card_list(...)``). It is built from views, not from mixins,
so no view's name can shadow another's.

The study loop's events reach their views through one ``match`` ending in
:func:`~quizzer.ui.dispatch.assert_never`: mypy fails when an event type of
:data:`quizzer.study.events.Event` has no case, so every event has a view.
"""

from __future__ import annotations

from datetime import timedelta
from functools import cached_property
from typing import TYPE_CHECKING

from quizzer.ui.console import Output
from quizzer.ui.dispatch import assert_never
from quizzer.ui.prompts import prompt_line
from quizzer.ui.widgets import clock_face

if TYPE_CHECKING:
    from quizzer.study import events as flow
    from quizzer.ui.card import CardView
    from quizzer.ui.card_back import CardBackView
    from quizzer.ui.drill import DrillView
    from quizzer.ui.follow_ups import FollowUpView
    from quizzer.ui.importing import ImportView
    from quizzer.ui.listing import ListingView
    from quizzer.ui.optimize import OptimizeView
    from quizzer.ui.overrides import OverridesView
    from quizzer.ui.plan import PlanView
    from quizzer.ui.problems import ProblemsView
    from quizzer.ui.session import SessionView
    from quizzer.ui.stats import StatsView
    from quizzer.ui.verdict import VerdictView


class Screen(Output):
    """Standard output and standard error, styled or plain, with one of each view."""

    # One view per command (or part of a session), named by what it shows; each is
    # built, and its module imported, on first use: `list` and `stats` draw one or two
    # of the thirteen, and importing them all cost every command 20 ms.

    @cached_property
    def cards(self) -> CardView:
        from quizzer.ui.card import CardView

        return CardView(self)

    @cached_property
    def listing(self) -> ListingView:
        from quizzer.ui.listing import ListingView

        return ListingView(self)

    @cached_property
    def validation(self) -> ProblemsView:
        from quizzer.ui.problems import ProblemsView

        return ProblemsView(self)

    @cached_property
    def stats(self) -> StatsView:
        from quizzer.ui.stats import StatsView

        return StatsView(self)

    @cached_property
    def checks(self) -> VerdictView:
        from quizzer.ui.verdict import VerdictView

        return VerdictView(self)

    @cached_property
    def optimizing(self) -> OptimizeView:
        from quizzer.ui.optimize import OptimizeView

        return OptimizeView(self)

    @cached_property
    def imports(self) -> ImportView:
        from quizzer.ui.importing import ImportView

        return ImportView(self)

    @cached_property
    def overrides(self) -> OverridesView:
        from quizzer.ui.overrides import OverridesView

        return OverridesView(self)

    @cached_property
    def plan(self) -> PlanView:
        from quizzer.ui.plan import PlanView

        return PlanView(self)

    @cached_property
    def session(self) -> SessionView:
        from quizzer.ui.session import SessionView

        return SessionView(self)

    @cached_property
    def card_back(self) -> CardBackView:
        from quizzer.ui.card_back import CardBackView

        return CardBackView(self)

    @cached_property
    def follow_ups(self) -> FollowUpView:
        from quizzer.ui.follow_ups import FollowUpView

        return FollowUpView(self)

    @cached_property
    def drill(self) -> DrillView:
        from quizzer.ui.drill import DrillView

        return DrillView(self)

    def prompt_for(self, prompt: flow.Prompt, remaining: timedelta | None = None) -> str:
        """The text of the input line that answers ``prompt``, led by the time left if any."""
        text = prompt_line(prompt, self.out.width)
        return text if remaining is None else f"{clock_face(remaining)} {text}"

    def session_event(self, event: flow.Event, *, brief: bool = False) -> None:
        """Show one thing that happened in a quiz or review (``brief``: no explanation)."""
        self._show(event, drill=False, brief=brief)

    def drill_event(self, event: flow.Event) -> None:
        """Show one thing that happened in a drill."""
        self._show(event, drill=True, brief=False)

    def _show(self, event: flow.Event, *, drill: bool, brief: bool) -> None:
        """The one dispatch: each event type to its view (a drill draws a few its own way)."""
        from quizzer.study import events as flow

        session, back, follow_ups = self.session, self.card_back, self.follow_ups
        match event:
            case flow.CardStarted():
                session.card_started(event)
            case flow.BlankAsked():
                pass  # the input prompt asks; piped verdict lines name their blank
            case flow.Judged():
                session.judged(event)
            case flow.HintShown():
                session.hint_shown(event)
            case flow.Revealed():
                session.revealed(event)
            case flow.Overridden():
                session.overridden(event)
            case flow.Notice():
                session.notice(event)
            case flow.CardFinished() if drill:
                # In a drill the teaching sections wait for the report's cheat sheet.
                self.drill.drill_card_finished(event)
            case flow.CardFinished():
                back.card_finished(event, brief=brief)
            case flow.CardBack():
                back.card_back(event)
            case flow.SectionShown():
                back.section_shown(event)
            case flow.ClosingSections():
                back.closing_sections(event, brief=brief)
            case flow.FollowUpsListed():
                follow_ups.follow_ups_listed(event)
            case flow.QuestionShown():
                follow_ups.question_shown(event)
            case flow.ApproachShown() if drill:
                self.drill.drill_approach_shown(event)
            case flow.ApproachShown():
                follow_ups.approach_shown(event)
            case flow.Recap():
                session.recap(event)
            case flow.Scheduled() if drill or isinstance(event.item, flow.FollowUpId):
                # A follow-up's line names it, in a drill and in a quiz alike.
                self.drill.drill_scheduled(event)
            case flow.Scheduled():
                session.scheduled(event)
            case flow.AnswersChanged():
                session.answers_changed(event)
            case flow.SessionFinished():
                session.session_summary(event.summary)
            case flow.DrillCardStarted():
                self.drill.drill_card_started(event)
            case flow.FollowUpAsked():
                self.drill.follow_up_asked(event)
            case flow.FollowUpGraded():
                pass  # the grade's schedule line follows (Scheduled)
            case flow.RedFlagsShown():
                self.drill.red_flags_shown(event)
            case flow.DrillFinished():
                self.drill.drill_report(event.report)
            case _:
                assert_never(event)
