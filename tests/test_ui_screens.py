"""The screens of quizzer.ui: every event has a view, the card heading is drawn one way."""

from __future__ import annotations

import io
import typing

from quizzer.cards.model import Card
from quizzer.study import events
from quizzer.ui.drill import _drill_views
from quizzer.ui.screen import Screen
from quizzer.ui.session import _session_views


def screen() -> tuple[Screen, io.StringIO]:
    out = io.StringIO()
    return Screen(no_color=True, file=out, error_file=io.StringIO(), width=80), out


def test_every_event_has_a_view() -> None:
    # One vocabulary: the session's screen shows what a quiz says, the drill's
    # screen adds the drill's own, and nothing is left unshown.
    drill_only = {
        events.DrillCardStarted,
        events.FollowUpAsked,
        events.FollowUpGraded,
        events.RedFlagsShown,
        events.DrillFinished,
    }
    session_shown = set(_session_views()) | {events.CardFinished}
    assert set(typing.get_args(events.Event)) == session_shown | drill_only
    assert drill_only <= set(_drill_views())


CARD = Card.model_validate(
    {
        "id": "scaled",
        "title": "Scaled scores",
        "tags": ["attention"],
        "prompt": "s = q k / sqrt({{d_k}})",
        "blanks": {"d_k": {"answer": "d_k"}},
        "symbols": {"d_k": {"aliases": ["dk"]}, "q": {}, "k": {}},
    }
)


def test_quiz_and_drill_open_a_card_with_the_same_heading() -> None:
    quiz_screen, quiz_out = screen()
    quiz_screen.session_event(events.CardStarted(CARD, 1, 1))
    drill_screen, drill_out = screen()
    from datetime import timedelta

    started = events.DrillCardStarted(CARD, 1, 1, timedelta(minutes=5), timedelta(minutes=1))
    drill_screen.drill_event(started)
    heading = "Scaled scores  #attention\ns = q k / sqrt([1])\nsymbols: d_k (or dk), q, k\n"
    assert quiz_out.getvalue().endswith(heading)
    assert drill_out.getvalue().endswith(heading)
