"""A typed follow-up answer checked on its key points, in a drill and in a quiz (issue 28.2).

The check runs in the study layer; the grade its coverage proposes (all → Good,
some → Hard, none → Again) is taken with Enter and changed with a key; an empty
answer, or a follow-up without key points, keeps the self-graded flow.
"""

from __future__ import annotations

import pytest

from quizzer.cards.deck import load_card_file
from quizzer.study.drill import DrillSession
from quizzer.study.events import (
    ApproachAsked,
    ApproachShown,
    FollowUpGraded,
    FollowUpId,
    Grade,
    GradeAsked,
    Notice,
    Scheduled,
)
from quizzer.study.follow_ups import FollowUpChecks, proposed_grade
from quizzer.study.loop import StudyOptions, run_study
from quizzer.study.quiz import QuizSession
from quizzer.study.recording import SessionProgress

from .conftest import ATTENTION
from .test_study_loop import LINE, NO_STEPS, T0, Clock, Script, judge, store  # noqa: F401

ATTENTION_CARD = load_card_file(ATTENTION)[0].card
#: Answers to attention's first follow-up, as a candidate says them, by what they cover.
ALL = (
    "each score adds up d_k products with variance one, so its variance is d_k; we divide by"
    " the standard deviation sqrt(d_k); d_k would over-correct and log(d_k) under-correct"
)
SOME = "each score adds up d_k products with variance one, so its variance is d_k"
NONE = "it makes the numbers nicer"


@pytest.mark.parametrize(
    ("answer", "grade", "covered"),
    [(ALL, Grade.GOOD, 3), (SOME, Grade.HARD, 1), (NONE, Grade.AGAIN, 0)],
)
def test_the_coverage_proposes_the_grade(answer, grade, covered):
    check = FollowUpChecks().check(ATTENTION_CARD, 0, answer)
    assert check is not None
    assert len(check.covered) == covered and len(check.covered) + len(check.missed) == 3
    assert proposed_grade(check) is grade


def test_nothing_is_checked_without_an_answer_or_without_key_points():
    checks = FollowUpChecks()
    assert checks.check(ATTENTION_CARD, 0, "") is None
    assert checks.check(ATTENTION_CARD, 0, "   ") is None
    assert checks.check(LINE, 0, "set x to zero") is None  # LINE's follow-ups have none


def drill_at_follow_up() -> DrillSession:
    drill = DrillSession([ATTENTION_CARD], judge, Clock())
    drill.start()
    drill.answer("sqrt(d_k)")
    drill.answer("V")  # the first follow-up is asked (none was asked before)
    return drill


@pytest.mark.parametrize(
    ("answer", "key", "graded"),
    [
        (ALL, "", Grade.GOOD),  # Enter takes the proposal
        (SOME, "", Grade.HARD),
        (NONE, "", Grade.AGAIN),
        (SOME, "4", Grade.EASY),  # a key changes it
        (ALL, "n", Grade.AGAIN),
    ],
)
def test_a_drill_proposes_the_grade_and_enter_takes_it(answer, key, graded):
    drill = drill_at_follow_up()
    (shown,) = drill.answer(answer)
    assert isinstance(shown, ApproachShown) and shown.check is not None
    assert shown.answered == answer
    asked = drill.prompt()
    assert isinstance(asked, GradeAsked) and asked.proposed is proposed_grade(shown.check)
    event = drill.answer(key)[0]
    assert isinstance(event, FollowUpGraded) and event.grade is graded


def test_an_empty_drill_answer_keeps_the_self_grade():
    drill = drill_at_follow_up()
    (shown,) = drill.answer("")  # said out loud
    assert shown.check is None
    asked = drill.prompt()
    assert isinstance(asked, GradeAsked) and asked.proposed is None
    assert isinstance(drill.answer("")[0], Notice)  # Enter alone grades nothing
    assert drill.answer("y")[0].grade is Grade.GOOD


def quiz(store, script, card=ATTENTION_CARD):  # noqa: F811
    clock = Clock()
    from quizzer.progress.schedule import make_scheduler

    progress = SessionProgress(store, make_scheduler(fuzz=False, settings=NO_STEPS), "quiz", T0)
    session = QuizSession([card], judge, clock)
    # A terminal without the card back's menu: the follow-ups come one at a time.
    options = StudyOptions(interactive=True, card_back_menu=False)
    shown: list[object] = []
    run_study(
        session, read=script, show=shown.append, clock=clock, progress=progress, options=options
    )
    return shown


def follow_up_rows(store) -> list[tuple]:  # noqa: F811
    from .test_study_loop import rows

    return rows(store, "SELECT card_id, rating FROM reviews WHERE card_id LIKE '%#follow-%'")


def test_a_quiz_checks_a_typed_answer_and_saves_the_grade_it_proposes(store):  # noqa: F811
    # Follow-up 1 answered fully (Enter takes Good), 2 answered and re-graded with a
    # key, 3 to 5 left empty (the approach alone, as before); then the rating.
    script = Script("sqrt(d_k)", "V", ALL, "", "softmax saturates into nearly one-hot weights",
                    "1", "", "", "", "")  # fmt: skip
    shown = quiz(store, script)
    approaches = [e for e in shown if isinstance(e, ApproachShown)]
    assert [a.check is not None for a in approaches] == [True, True, False, False, False]
    assert len(approaches[0].check.covered) == 3 and approaches[1].check.covered
    grades = [p for p in script.prompts if isinstance(p, GradeAsked)]
    assert [(g.item, g.proposed) for g in grades] == [
        (FollowUpId("attention", 0), Grade.GOOD),
        (FollowUpId("attention", 1), Grade.HARD),
    ]
    # Each grade is asked right after its own follow-up's answer.
    kinds = [type(p).__name__ for p in script.prompts[2:6]]
    assert kinds == ["ApproachAsked", "GradeAsked", "ApproachAsked", "GradeAsked"]
    scheduled = [e for e in shown if isinstance(e, Scheduled) and e.item != "attention"]
    assert [(e.item.number, e.grade) for e in scheduled] == [(1, Grade.GOOD), (2, Grade.AGAIN)]
    assert follow_up_rows(store) == [("attention#follow-1", 3), ("attention#follow-2", 1)]


def test_a_quiz_asks_again_for_a_grade_it_cannot_read(store):  # noqa: F811
    script = Script("sqrt(d_k)", "V", SOME, "maybe", "", "/skip", "")
    shown = quiz(store, script)
    assert any(isinstance(e, Notice) and "Enter takes Hard" in e.text for e in shown)
    assert follow_up_rows(store) == [("attention#follow-1", 2)]


def test_a_quiz_follow_up_without_key_points_is_not_graded(store):  # noqa: F811
    script = Script("m", "b", "the intercept is b", "", "")
    quiz(store, script, LINE)
    assert not any(isinstance(p, GradeAsked) for p in script.prompts)
    assert [type(p) for p in script.prompts[2:4]] == [ApproachAsked, ApproachAsked]
    assert follow_up_rows(store) == []
