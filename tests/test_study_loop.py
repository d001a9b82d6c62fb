"""The one study loop, run without a terminal: every way out at every prompt saves and ends."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quizzer.answers import CardJudge
from quizzer.cards.model import Card
from quizzer.progress.schedule import make_scheduler
from quizzer.progress.settings import Settings
from quizzer.progress.store import Store
from quizzer.study.drill import DrillSession
from quizzer.study.events import (
    ApproachAsked,
    BlankAsked,
    FollowUpAsked,
    FollowUpId,
    Grade,
    GradeAsked,
    RatingAsked,
    Recap,
    Scheduled,
)
from quizzer.study.loop import StudyOptions, run_study
from quizzer.study.quiz import QuizSession
from quizzer.study.recording import SessionProgress, rating_for

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


def card(card_id: str, *, follow_ups: int = 2) -> Card:
    return Card.model_validate(
        {
            "id": card_id,
            "title": card_id.title(),
            "prompt": "y = {{slope}} x + {{intercept}}",
            "symbols": {"m": {}, "b": {}},
            "blanks": {"slope": {"answer": "m"}, "intercept": {"answer": "b"}},
            "follow_ups": [
                {"question": f"Question {n}?", "approach": f"Approach {n}."}
                for n in range(1, follow_ups + 1)
            ],
            "bullets": ["m is the slope"],
        }
    )


LINE, LINE2 = card("line"), card("line2")
JUDGES: dict[str, CardJudge] = {}


def judge(card: Card, blank: str, text: str):
    return JUDGES.setdefault(card.id, CardJudge(card)).judge(blank, text)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


class Script:
    """Lines typed in order; None is the end of input, KeyboardInterrupt is Ctrl-C."""

    def __init__(self, *lines: str | type[KeyboardInterrupt] | None) -> None:
        self.lines = list(lines)
        self.prompts: list[object] = []

    def __call__(self, prompt, remaining):
        self.prompts.append(prompt)
        if not self.lines:
            return None
        line = self.lines.pop(0)
        if line is KeyboardInterrupt:
            raise KeyboardInterrupt
        return line


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "p.db") as opened:
        yield opened


def rows(store: Store, query: str) -> list[tuple]:
    with closing(sqlite3.connect(store.path)) as connection:
        return connection.execute(query).fetchall()


#: Without learning steps a card rated Again is not asked again in the session, so the
#: tests of one card's prompts see that card once; tests of the steps pass steps=True.
NO_STEPS = Settings(learning_steps=(), relearning_steps=())


def run(store, script, cards=(LINE,), *, interactive=True, drill=False, fuzz=False, steps=False):
    clock = Clock()
    scheduler = make_scheduler(fuzz=fuzz, settings=None if steps else NO_STEPS)
    progress = SessionProgress(store, scheduler, "drill" if drill else "quiz", T0)
    if drill:
        session = DrillSession(list(cards), judge, clock)
        options = StudyOptions(
            interactive=interactive, follow_ups=False, closing=False, rate_prompt=False
        )
    else:
        session = QuizSession(list(cards), judge, clock)
        options = StudyOptions(interactive=interactive)
    shown: list[object] = []
    reason = run_study(
        session, read=script, show=shown.append, clock=clock, progress=progress, options=options
    )
    return reason, shown


def names(events) -> list[str]:
    return [type(e).__name__ for e in events]


def summary(shown):
    (finished,) = [e for e in shown if type(e).__name__ in ("SessionFinished", "DrillFinished")]
    return getattr(finished, "summary", None) or finished.report


def test_a_piped_quiz_lists_follow_ups_and_saves_the_review(store):
    reason, shown = run(store, Script("m", "b"), interactive=False)
    assert reason == "finished"
    assert names(shown)[-6:] == [
        "Judged",
        "CardFinished",
        "FollowUpsListed",
        "ClosingSections",
        "Scheduled",
        "SessionFinished",
    ]
    assert rows(store, "SELECT card_id, rating FROM reviews") == [("line", 4)]  # fast: Easy


def test_in_a_terminal_each_follow_up_waits_and_the_recap_stays_above_each_prompt(store):
    script = Script("m", "b", "", "", "")
    reason, shown = run(store, script)
    assert reason == "finished"
    assert names(script.prompts) == [
        "BlankAsked",
        "BlankAsked",
        "ApproachAsked",
        "ApproachAsked",
        "RatingAsked",
    ]
    after = names(shown)[names(shown).index("CardFinished") :]
    assert after == [
        "CardFinished",
        "QuestionShown",
        "Recap",
        "ApproachShown",
        "QuestionShown",
        "Recap",
        "ApproachShown",
        "ClosingSections",
        "Recap",
        "Scheduled",
        "SessionFinished",
    ]
    recap = next(e for e in shown if isinstance(e, Recap))
    assert recap.grade == Grade.EASY and recap.filled == {"slope": "m", "intercept": "b"}


# Every way out, at every kind of prompt of a quiz: the summary shows what was
# shown, and the card's review is saved as soon as its last blank was answered.
QUIZ_PROMPTS = {
    # prompt kind: the lines that lead to it
    "blank": ["m"],
    "approach": ["m", "b"],
    "second approach": ["m", "b", ""],
    "rating": ["m", "b", "", ""],
}
WAYS_OUT = {"/quit": ("/quit", "quit"), "Ctrl-D": (None, "end of input")}
WAYS_OUT["Ctrl-C"] = (KeyboardInterrupt, "interrupted")


@pytest.mark.parametrize("way", list(WAYS_OUT))
@pytest.mark.parametrize("where", list(QUIZ_PROMPTS))
def test_every_way_out_at_every_quiz_prompt(store, where, way):
    line, reason = WAYS_OUT[way]
    script = Script(*QUIZ_PROMPTS[where], line, "never read")
    ended, shown = run(store, script, cards=(LINE, LINE2))
    assert ended == reason and script.lines == ["never read"]
    done = summary(shown)
    assert done.ended_by == reason
    assert [c.card_id for c in done.cards] == ["line"]  # line2 was never shown
    attempts = rows(store, "SELECT blank, correct FROM attempts")
    assert attempts == [("slope", 1), ("intercept", 1)][: min(2, len(QUIZ_PROMPTS[where]))]
    reviews = rows(store, "SELECT card_id FROM reviews")
    assert reviews == ([] if where == "blank" else [("line",)])
    assert rows(store, "SELECT count(*) FROM sessions WHERE ended_at IS NOT NULL") == [(1,)]


def test_a_changed_rating_replaces_the_saved_one(store):
    script = Script("m", "b", "", "", "1")
    _, shown = run(store, script, fuzz=True)
    scheduled = [e for e in shown if isinstance(e, Scheduled)]
    assert [(s.grade, s.replaced) for s in scheduled] == [(Grade.AGAIN, True)]
    asked = [p for p in script.prompts if isinstance(p, RatingAsked)]
    assert asked[0].grade == Grade.EASY
    assert rows(store, "SELECT rating FROM reviews") == [(1,)]
    (state,) = store.fsrs_cards().values()
    assert datetime.fromisoformat(state["due"]) == scheduled[0].due


def test_the_interval_shown_is_the_interval_stored(store):
    # With fuzzing on, a second scheduling call would draw a different due time.
    for _ in range(5):
        script = Script("m", "b", "", "", "")
        _, shown = run(store, script, fuzz=True)
        (asked,) = [p for p in script.prompts if isinstance(p, RatingAsked)]
        (scheduled,) = [e for e in shown if isinstance(e, Scheduled)]
        due = datetime.fromisoformat(store.fsrs_cards()["line"]["due"])
        assert asked.due == scheduled.due == due


def test_override_after_the_last_try_regrades_the_saved_review(store):
    # The last blank is wrong three times: answer revealed, card finished, saved as Again.
    script = Script("m", "2*b", "2*b", "2*b", "", "/override", "", "")
    _, shown = run(store, script)
    assert names(script.prompts)[-3:] == ["ApproachAsked", "ApproachAsked", "RatingAsked"]
    assert script.prompts[-3] == script.prompts[-2]  # asked again after /override
    assert rows(store, "SELECT blank, given, correct, overridden FROM attempts ORDER BY id") == [
        ("slope", "m", 1, 0),
        ("intercept", "2*b", 0, 0),
        ("intercept", "2*b", 0, 0),
        ("intercept", "2*b", 1, 1),
    ]
    assert rows(store, "SELECT rating FROM reviews") == [(2,)]  # Again, replaced by Hard
    assert [(s.grade, s.replaced) for s in shown if isinstance(s, Scheduled)] == [
        (Grade.HARD, True),
        (Grade.HARD, False),
    ]
    (rating,) = [p for p in script.prompts if isinstance(p, RatingAsked)]
    assert rating.grade == Grade.HARD
    assert summary(shown).cards[0].overridden and summary(shown).correct == 2


def test_override_mid_card_goes_on_to_the_next_blank(store):
    script = Script("2*m", "/override", "b", "", "", "")
    _, shown = run(store, script)
    assert names(script.prompts)[:3] == ["BlankAsked", "BlankAsked", "BlankAsked"]
    assert [p.blank for p in script.prompts[:3]] == ["slope", "slope", "intercept"]
    assert rows(store, "SELECT given, correct, overridden FROM attempts ORDER BY id") == [
        ("2*m", 1, 1),
        ("b", 1, 0),
    ]
    assert summary(shown).correct == 2


def test_without_progress_nothing_is_saved_and_no_rating_is_asked():
    script = Script("m", "b", "", "")
    session = QuizSession([LINE], judge, Clock())
    shown: list[object] = []
    reason = run_study(
        session, read=script, show=shown.append, clock=Clock(), options=StudyOptions(True)
    )
    assert reason == "finished"
    assert "RatingAsked" not in names(script.prompts) and "Scheduled" not in names(shown)


# -- the drill ------------------------------------------------------------------------

DRILL_PROMPTS = {"blank": ["m"], "follow-up": ["m", "b"], "grade": ["m", "b", "my answer"]}


@pytest.mark.parametrize("way", list(WAYS_OUT))
@pytest.mark.parametrize("where", list(DRILL_PROMPTS))
def test_every_way_out_at_every_drill_prompt(store, where, way):
    line, reason = WAYS_OUT[way]
    script = Script(*DRILL_PROMPTS[where], line, "never read")
    ended, shown = run(store, script, cards=(LINE, LINE2), drill=True)
    assert ended == reason and script.lines == ["never read"]
    report = summary(shown)
    assert report.ended_by == reason and [c.card.id for c in report.cards] == ["line"]
    reviews = rows(store, "SELECT card_id FROM reviews")
    assert reviews == ([] if where == "blank" else [("line",)])


def test_a_whole_drill_schedules_the_card_and_its_follow_up(store):
    script = Script("m", "b", "said it", "y", "m", "2*b", "", "n")
    reason, shown = run(store, script, cards=(LINE, LINE2), drill=True)
    assert reason == "finished"
    assert names(script.prompts) == [
        "BlankAsked",
        "BlankAsked",
        "FollowUpAsked",
        "GradeAsked",
        "BlankAsked",
        "BlankAsked",
        "FollowUpAsked",
        "GradeAsked",
    ]
    items = [(s.item, s.grade) for s in shown if isinstance(s, Scheduled)]
    assert items == [
        ("line", Grade.EASY),
        (FollowUpId("line", 0), Grade.GOOD),
        ("line2", Grade.AGAIN),
        (FollowUpId("line2", 0), Grade.AGAIN),
    ]
    assert rows(store, "SELECT card_id, rating FROM reviews ORDER BY id") == [
        ("line", 4),
        ("line#follow-1", 3),
        ("line2", 1),
        ("line2#follow-1", 1),
    ]
    # The recap of the finished card sits right above its follow-up and grade prompts.
    before = [names(shown)[i - 1] for i, e in enumerate(shown) if isinstance(e, Recap)]
    assert before == ["FollowUpAsked", "ApproachShown", "FollowUpAsked", "ApproachShown"]


def test_a_drill_override_after_the_one_try(store):
    script = Script("2*m", "/override", "b", "", "y")
    _, shown = run(store, script, drill=True)
    assert isinstance(script.prompts[1], BlankAsked) and script.prompts[1].blank == "intercept"
    assert rows(store, "SELECT given, correct, overridden FROM attempts ORDER BY id") == [
        ("2*m", 1, 1),
        ("b", 1, 0),
    ]
    assert summary(shown).cards[0].blanks_right == 2


def test_prompt_types_are_the_shared_vocabulary():
    script = Script("m", "b", "", "", "")
    session = QuizSession([LINE], judge, Clock())
    run_study(session, read=script, show=lambda e: None, clock=Clock())
    assert {type(p) for p in script.prompts} <= {
        BlankAsked,
        ApproachAsked,
        RatingAsked,
        FollowUpAsked,
        GradeAsked,
    }


# -- any script at all ------------------------------------------------------------------

LINES = st.sampled_from(
    ["m", "b", "2*m", "2*b", "?", "!", "/skip", "/override", "/quit", "", "1", "4", "))"]
)
SCRIPT = st.lists(
    st.one_of(LINES, st.just(None), st.just(KeyboardInterrupt)), min_size=0, max_size=25
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lines=SCRIPT, interactive=st.booleans(), drill=st.booleans())
def test_whatever_is_typed_the_session_ends_once_and_the_database_agrees(
    tmp_path_factory, lines, interactive, drill
):
    with Store.open(tmp_path_factory.mktemp("db") / "p.db") as store:
        script = Script(*lines)
        reason, shown = run(
            store, script, cards=(LINE, LINE2), interactive=interactive, drill=drill
        )
        ends = [e for e in shown if type(e).__name__ in ("SessionFinished", "DrillFinished")]
        assert len(ends) == 1 and shown[-1] is ends[0]
        assert (reason == "interrupted") == (KeyboardInterrupt in lines[: len(script.prompts)])
        finished = [e for e in shown if type(e).__name__ == "CardFinished"]
        rated = [(e.card.id,) for e in finished if rating_for(e.result) is not None]
        assert rows(store, "SELECT card_id FROM reviews WHERE card_id NOT LIKE '%#%'") == rated
        overridden = sum(type(e).__name__ == "Overridden" for e in shown)
        assert rows(store, "SELECT count(*) FROM attempts WHERE overridden = 1") == [(overridden,)]
        if not drill:
            done = summary(shown)
            assert rows(store, "SELECT count(*), coalesce(sum(correct), 0) FROM attempts") == [
                (done.attempts, done.correct)
            ]
            started = [e.card.id for e in shown if type(e).__name__ == "CardStarted"]
            assert [c.card_id for c in done.cards] == started
        assert rows(store, "SELECT count(*) FROM sessions WHERE ended_at IS NULL") == [(0,)]


def test_skip_at_a_follow_up_skips_the_remaining_follow_ups(store):
    script = Script("m", "b", "/skip", "")
    reason, shown = run(store, script)
    assert reason == "finished"
    assert names(script.prompts) == ["BlankAsked", "BlankAsked", "ApproachAsked", "RatingAsked"]
    assert "follow-ups skipped" in [getattr(e, "text", "") for e in shown]
    assert "ApproachShown" not in names(shown)


def test_a_card_rated_again_comes_back_once_its_step_is_due(store):
    # Two cards; the first is revealed (Again, due in a minute); the clock ticks a second
    # per call, so it is not due after the second card: learn-ahead brings it back.
    script = Script("!", "!", "", "", "", "m", "b", "", "", "", "m", "b", "", "", "")
    reason, shown = run(store, script, cards=(LINE, LINE2), steps=True)
    started = [(e.card.id, e.number, e.total) for e in shown if type(e).__name__ == "CardStarted"]
    assert started[:3] == [("line", 1, 2), ("line2", 2, 3), ("line", 3, 3)]
    assert reason == "finished"
    per_card = summary(shown).per_card()
    assert [(t.first.card_id, len(t.showings)) for t in per_card] == [("line", 2), ("line2", 1)]
    assert rows(store, "SELECT card_id, rating FROM reviews ORDER BY id")[0] == ("line", 1)


def test_a_card_that_comes_back_is_not_asked_its_follow_ups_again(store):
    # The same run as above: line's two follow-ups are asked at its first showing only.
    script = Script("!", "!", "", "", "", "m", "b", "", "", "", "m", "b", "", "", "")
    _, shown = run(store, script, cards=(LINE, LINE2), steps=True)
    started = [e.card.id for e in shown if type(e).__name__ == "CardStarted"]
    assert started[:3] == ["line", "line2", "line"]
    asked = [p.item.card_id for p in script.prompts if type(p).__name__ == "ApproachAsked"]
    assert asked == ["line", "line", "line2", "line2"]


class SlowClock:
    """A learner who takes 30 seconds a call (too slow for Easy: right first time is Good);
    ``jump`` moves the time on, as minutes spent on other cards would."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=30)
        return self.now

    def jump(self, minutes: float) -> None:
        self.now += timedelta(minutes=minutes)


def run_piped(store, lines, cards, clock, *, on_read=None):
    """A piped quiz with the default learning steps (1m 10m) and ``clock``."""
    progress = SessionProgress(store, make_scheduler(fuzz=False), "quiz", T0)
    session = QuizSession(list(cards), judge, clock)
    script = Script(*lines)

    def read(prompt, remaining):
        if on_read is not None:
            on_read(prompt)
        return script(prompt, remaining)

    shown: list[object] = []
    reason = run_study(
        session,
        read=read,
        show=shown.append,
        clock=clock,
        progress=progress,
        options=StudyOptions(interactive=False),
    )
    started = [(e.card.id, e.number, e.total) for e in shown if type(e).__name__ == "CardStarted"]
    return reason, shown, started


def fsrs_state(store, card_id):
    return store.fsrs_cards()[card_id]["state"]


def test_a_new_card_rated_good_comes_back_within_the_learn_ahead_window(store):
    # Good on a new card: FSRS's learning state, next step in 10 minutes. Nothing else is
    # left, so it is shown again at once (Anki's 20-minute learn-ahead); Good again graduates.
    reason, shown, started = run_piped(store, ["m", "b"] * 3, (LINE,), SlowClock())
    assert reason == "finished"
    assert started == [("line", 1, 1), ("line", 2, 2)]
    assert rows(store, "SELECT rating FROM reviews ORDER BY id") == [(3,), (3,)]
    assert fsrs_state(store, "line") == 2  # Review: out of its learning steps
    (total,) = summary(shown).per_card()  # counted once, with the tries of both showings
    assert (total.first.card_id, len(total.showings), total.tries) == ("line", 2, 4)


def test_a_new_card_rated_easy_graduates_and_is_asked_once(store):
    reason, _, started = run_piped(store, ["m", "b"] * 2, (LINE,), Clock())
    assert reason == "finished" and started == [("line", 1, 1)]
    assert rows(store, "SELECT rating FROM reviews") == [(4,)]
    assert fsrs_state(store, "line") == 2


def test_a_card_rated_hard_stays_in_its_step_and_comes_back(store):
    # A hint makes it Hard: it repeats its first step; Good moves it to the 10-minute
    # step (so it comes back once more); Good again graduates.
    lines = ["?", "m", "b", "m", "b", "m", "b", "m", "b"]
    reason, _, started = run_piped(store, lines, (LINE,), SlowClock())
    assert reason == "finished"
    assert started == [("line", 1, 1), ("line", 2, 2), ("line", 3, 3)]
    assert rows(store, "SELECT rating FROM reviews ORDER BY id") == [(2,), (3,), (3,)]
    assert fsrs_state(store, "line") == 2


def test_a_learning_card_comes_back_once_its_step_is_due_before_the_cards_left(store):
    # line is Good (due in 10 minutes); 11 minutes go by on line2, so line is due and
    # comes back before line3, rather than waiting for the end of the session.
    clock = SlowClock()
    line3 = card("line3")

    def on_read(prompt):
        if isinstance(prompt, BlankAsked) and prompt.card.id == "line2" and prompt.number == 1:
            clock.jump(11)

    _, _, started = run_piped(store, ["m", "b"] * 5, (LINE, LINE2, line3), clock, on_read=on_read)
    assert [card_id for card_id, _, _ in started][:3] == ["line", "line2", "line"]
    assert started[3][0] == "line3"


def test_a_learning_card_not_due_waits_while_other_cards_are_left(store):
    # Good on line (10 minutes) and only a minute or two on line2: line3 comes first.
    _, _, started = run_piped(store, ["m", "b"] * 6, (LINE, LINE2, card("line3")), SlowClock())
    assert [card_id for card_id, _, _ in started][:4] == ["line", "line2", "line3", "line"]


def test_undo_only_at_the_next_cards_first_prompt(store):
    script = Script("m", "b", "", "", "", "/undo", "m", "b", "", "", "")
    _, shown = run(store, script, cards=(LINE, LINE2))
    notices = [e.text for e in shown if type(e).__name__ == "Notice"]
    assert any("took back the rating of line" in text for text in notices)
    assert rows(store, "SELECT card_id FROM reviews ORDER BY id") == [("line2",)]
    assert rows(store, "SELECT card_id, undone FROM attempts ORDER BY id") == [
        ("line", 1),
        ("line", 1),
        ("line2", 0),
        ("line2", 0),
    ]


def test_an_unknown_command_at_the_loops_own_prompt_is_told_not_taken(store):
    script = Script("m", "b", "/help", "", "")
    _, shown = run(store, script)
    assert any("unknown command /help" in getattr(e, "text", "") for e in shown)


def card_with_sections(card_id: str) -> Card:
    return Card.model_validate(
        {
            "id": card_id,
            "title": card_id.title(),
            "prompt": "y = {{slope}} x + {{intercept}}",
            "symbols": {"m": {}, "b": {}},
            "blanks": {"slope": {"answer": "m"}, "intercept": {"answer": "b"}},
            "intuition": "A line.",
            "explanation": "The slope times x, plus the intercept.",
            "worked_example": "m = 2, b = 1: y = 2x + 1.",
            "code": "y = m * x + b",
            "red_flags": ["the slope is the intercept"],
            "follow_ups": [{"question": "Question 1?", "approach": "Approach 1."}],
            "bullets": ["m is the slope"],
        }
    )


def run_menu(store, script, cards):
    clock = Clock()
    scheduler = make_scheduler(fuzz=False, settings=NO_STEPS)
    progress = SessionProgress(store, scheduler, "quiz", T0)
    session = QuizSession(list(cards), judge, clock)
    options = StudyOptions(interactive=True, card_back_menu=True)
    shown: list[object] = []
    reason = run_study(
        session, read=script, show=shown.append, clock=clock, progress=progress, options=options
    )
    return reason, shown


def test_the_card_back_menu_reaches_every_section_with_enter(store):
    sectioned = card_with_sections("sectioned")
    script = Script("m", "b", "", "", "", "", "", "", "")
    reason, shown = run_menu(store, script, [sectioned])
    assert reason == "finished"
    assert "CardBack" in names(shown) and "CardFinished" not in names(shown)
    fields = [e.field for e in shown if type(e).__name__ == "SectionShown"]
    assert fields == ["worked_example", "code", "red_flags", "bullets"]
    assert "ApproachShown" in names(shown)  # the follow-up came in its turn
    asked = [p for p in script.prompts if type(p).__name__ == "SectionAsked"]
    assert asked[0].left == ("worked_example", "code", "red_flags", "follow_ups", "bullets")


def test_the_card_back_menu_keys_pick_a_section_and_n_goes_on(store):
    sectioned = card_with_sections("sectioned")
    script = Script("m", "b", "c", "r", "n", "")
    reason, shown = run_menu(store, script, [sectioned])
    assert reason == "finished"
    assert [e.field for e in shown if type(e).__name__ == "SectionShown"] == ["code", "red_flags"]
    assert names(script.prompts)[-1] == "RatingAsked"


@pytest.mark.parametrize("sections_read", range(6))
def test_quitting_from_any_section_keeps_the_review(store, sections_read):
    sectioned = card_with_sections("sectioned")
    script = Script("m", "b", *[""] * sections_read, "/quit")
    reason, shown = run_menu(store, script, [sectioned])
    assert reason == "quit"
    assert rows(store, "SELECT card_id FROM reviews") == [("sectioned",)]
    assert rows(store, "SELECT count(*) FROM attempts") == [(2,)]
    assert names(shown)[-1] == "SessionFinished"
