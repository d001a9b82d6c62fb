"""How the loop's events and prompts look: recap, scheduling lines, overrides, prompts."""

from __future__ import annotations

import io
from datetime import datetime, timedelta, timezone

import pytest

from quizzer.cards.deck import load_card_file
from quizzer.study.events import (
    ApproachAsked,
    BlankAsked,
    FollowUpAsked,
    FollowUpId,
    Grade,
    GradeAsked,
    Overridden,
    RatingAsked,
    Recap,
    Scheduled,
)
from quizzer.study.results import BlankResult, CardResult, SessionSummary
from quizzer.ui.screen import Screen

from .conftest import ATTENTION

CARD = load_card_file(ATTENTION)[0].card
NOW = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)
FILLED = {"scale": "sqrt(d_k)", "values": "V"}


def screen(width: int = 80) -> tuple[Screen, io.StringIO]:
    out = io.StringIO()
    return Screen(no_color=True, file=out, error_file=io.StringIO(), width=width), out


def result(*, correct=(True, True), overridden=False) -> CardResult:
    blanks = [
        BlankResult(name, correct=right, tries=1, overridden=overridden and index == 0)
        for index, (name, right) in enumerate(zip(FILLED, correct, strict=True))
    ]
    return CardResult(card_id="attention", title=CARD.title, blanks=blanks, finished=True)


def recap(**changes) -> Recap:
    fields = {
        "card": CARD,
        "result": result(),
        "filled": FILLED,
        "grade": Grade.GOOD,
        "due": NOW + timedelta(days=5),
        "now": NOW,
    }
    return Recap(**{**fields, **changes})


@pytest.mark.parametrize(
    ("width", "shown"),
    [
        (
            80,
            "✔ 2/2 right · Good · next review in 5 days · Attention(Q, K, V) = softmax(Q Kᵀ …\n",
        ),
        (
            120,
            "✔ 2/2 right · Good · next review in 5 days · Attention(Q, K, V) ="
            " softmax(Q Kᵀ / sqrt(d_k)) V\n",
        ),
    ],
)
def test_the_recap_is_one_line_at_any_width(width, shown):
    quiz, out = screen(width)
    quiz.session_event(recap())
    assert out.getvalue() == shown


def test_the_recap_of_a_miss_an_override_and_an_unsaved_card():
    quiz, out = screen(120)
    quiz.session_event(recap(result=result(correct=(False, True)), grade=Grade.AGAIN))
    quiz.session_event(recap(result=result(overridden=True), grade=None, due=None))
    first, second = out.getvalue().splitlines()
    assert first.startswith("✗ 1/2 right · Again · next review in 5 days · Attention")
    assert second.startswith("✔ 2/2 right (overridden) · Attention")


def test_scheduling_lines_in_a_quiz_and_in_a_drill():
    quiz, out = screen()
    due = NOW + timedelta(minutes=10)
    quiz.session_event(Scheduled(item="attention", grade=Grade.GOOD, due=due, now=NOW))
    quiz.session_event(
        Scheduled(item="attention", grade=Grade.AGAIN, due=due, now=NOW, replaced=True)
    )
    assert out.getvalue().splitlines() == [
        "scheduled Good · next review in 10 minutes (Sun 01 Mar 09:10 UTC)",
        "rescheduled Again · next review in 10 minutes (Sun 01 Mar 09:10 UTC)",
    ]
    drill, out = screen()
    later = NOW + timedelta(days=5)
    drill.drill_event(Scheduled(item="attention", grade=Grade.EASY, due=later, now=NOW))
    follow = FollowUpId("attention", 0)
    drill.drill_event(Scheduled(item=follow, grade=Grade.AGAIN, due=due, now=NOW))
    assert out.getvalue().splitlines() == [
        "attention: next review in 5 days (Easy)",
        "follow-up 1 of attention: again in 10 minutes (Again)",
    ]


def test_an_override_and_the_summary_that_marks_it():
    quiz, out = screen()
    done = result(overridden=True)
    quiz.session_event(
        Overridden(
            card_id="attention", blank="scale", number=1, given="d_k", try_number=1, result=done
        )
    )
    summary = SessionSummary(cards=[done], attempts=2, correct=2, ended_by="finished")
    quiz.session.session_summary(summary)
    text = out.getvalue()
    assert text.startswith("counted as right [1] scale: d_k (overridden:")
    assert "attention (overridden)" in text


def test_every_prompt_fits_80_columns():
    quiz, _ = screen()
    follow = FollowUpId("attention", 0)
    asked = BlankAsked(card=CARD, blank="scale", number=1, try_number=2, tries_allowed=3)
    prompts = [
        asked,
        ApproachAsked(follow),
        RatingAsked(card_id="attention", grade=Grade.HARD, due=NOW, now=NOW),
        FollowUpAsked(card=CARD, item=follow, follow_up=CARD.follow_ups[0]),
        GradeAsked(follow),
    ]
    texts = [quiz.prompt_for(p, timedelta(minutes=12, seconds=5)) for p in prompts]
    assert texts[0] == "12:05 [1] scale (try 2 of 3) › "
    assert texts[2] == "12:05 rated Hard · 1 Again 2 Hard 3 Good 4 Easy · Enter keeps › "
    assert texts[4] == "12:05 did you get it? y/n, or 1 Again 2 Hard 3 Good 4 Easy › "
    # Room is left for what is typed: readline scrolls a line that overflows.
    assert all(len(text) <= 66 for text in texts)
    assert quiz.prompt_for(prompts[0]) == "[1] scale (try 2 of 3) › "
