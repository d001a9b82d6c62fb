"""Interview drills: the flow with a fake clock, follow-up scheduling, the cheat sheet."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pexpect
import pytest
from fsrs import Rating

from quizzer.answers import CardJudge
from quizzer.cards.deck import load_card_file
from quizzer.cards.model import Card
from quizzer.progress.schedule import make_scheduler, review
from quizzer.study.drill import (
    ApproachShown,
    DrillCardStarted,
    DrillFinished,
    DrillSession,
    FollowUpAsked,
    FollowUpGraded,
    RedFlagsShown,
    Stage,
    cheat_sheet_markdown,
    follow_up_id,
    order_for_drill,
    pick_follow_up,
)
from quizzer.study.events import FollowUpId, Grade, GradeAsked

from .conftest import ATTENTION, quizzer_in_a_terminal

ATTENTION_CARD = load_card_file(ATTENTION)[0].card
SLOPE = Card.model_validate(
    {
        "id": "slope",
        "title": "Slope",
        "tags": ["algebra"],
        "prompt": "y = {{m}} x",
        "symbols": {"m": {}},
        "blanks": {"m": {"answer": "m"}},
        "follow_ups": [{"question": "What is the intercept?", "approach": "Set x = 0."}],
        "bullets": ["m is the slope"],
    }
)
T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def make(cards=(ATTENTION_CARD, SLOPE), minutes=10, states=None):
    clock = Clock()
    judges: dict[str, CardJudge] = {}

    def judge(card, blank, text):
        return judges.setdefault(card.id, CardJudge(card)).judge(blank, text)

    recorded = []
    drill = DrillSession(
        list(cards), judge, clock, minutes=minutes, follow_up_states=states, record=recorded.append
    )
    return drill, clock, recorded


def names(events):
    return [type(e).__name__ for e in events]


def test_a_whole_drill():
    drill, clock, recorded = make()
    start = drill.start()
    assert names(start) == ["DrillCardStarted", "BlankAsked"]
    assert start[0].remaining == timedelta(minutes=10) and start[0].target == timedelta(minutes=5)
    assert names(drill.answer("?")) == ["Notice"]  # no hints in a drill
    events = drill.answer("d_k")  # one try: wrong, answer shown, next blank
    assert names(events) == ["Judged", "Revealed", "BlankAsked"]
    events = drill.answer("V")
    assert names(events) == ["Judged", "CardFinished", "FollowUpAsked"]
    asked = events[-1]
    assert asked.item == FollowUpId("attention", 0) and str(asked.item) == "attention#follow-1"
    assert drill.prompt() == asked and drill.stage is Stage.FOLLOW_UP
    assert names(drill.answer("variance adds up")) == ["ApproachShown"]
    assert drill.prompt() == GradeAsked(FollowUpId("attention", 0))
    assert names(drill.answer("maybe")) == ["Notice"]
    clock.advance(minutes=1)
    events = drill.answer("n")
    assert names(events) == ["FollowUpGraded", "RedFlagsShown", "DrillCardStarted", "BlankAsked"]
    assert events[0].grade == Grade.AGAIN and events[0].ms == 60_000
    assert events[2].card is SLOPE and events[2].remaining == timedelta(minutes=9)
    events = drill.answer("m")
    assert names(events) == ["Judged", "CardFinished", "FollowUpAsked"]
    drill.answer("")  # said it out loud
    events = drill.answer("y")
    assert names(events) == ["FollowUpGraded", "DrillFinished"]
    report = events[-1].report
    assert report.ended_by == "finished"
    assert report.cards_right == 1 and report.follow_ups_right == (1, 2)
    assert [c.card.id for c in report.missed] == ["attention"]
    assert report.weakest_topics() == [("transformers", 1), ("attention", 1)]
    assert len(recorded) == 3


def test_time_running_out_mid_card_finishes_that_card_then_ends():
    drill, clock, _ = make(minutes=2)
    drill.start()
    drill.answer("sqrt(d_k)")
    clock.advance(minutes=3)  # time is up while the second blank is being answered
    events = drill.answer("V")
    assert names(events) == ["Judged", "CardFinished", "FollowUpAsked"]
    drill.answer("")
    events = drill.answer("3")
    assert names(events) == ["FollowUpGraded", "RedFlagsShown", "DrillFinished"]
    report = events[-1].report
    assert report.ended_by == "time" and [c.card.id for c in report.cards] == ["attention"]
    assert drill.finished and drill.answer("m") == []


def test_quit_and_end_of_input():
    drill, _, _ = make()
    drill.start()
    drill.answer("sqrt(d_k)")
    (event,) = drill.answer("/quit")
    assert isinstance(event, DrillFinished) and event.report.ended_by == "quit"
    (partial,) = event.report.cards  # the card cut short is reported with what was answered
    assert partial.blanks_right == 1 and partial.missed
    drill, _, _ = make()
    drill.start()
    (event,) = drill.stop("end of input")
    assert isinstance(event, DrillFinished)
    assert event.report.cards == []  # nothing was answered: nothing right, nothing missed


def test_a_card_stopped_at_its_follow_up_is_charged_its_time():
    drill, clock, _ = make()
    drill.start()
    clock.advance(seconds=20)
    drill.answer("sqrt(d_k)")
    drill.answer("V")  # the follow-up is asked
    clock.advance(seconds=5)
    (event,) = drill.stop("interrupted")
    (card,) = event.report.cards
    assert card.card.id == "attention" and card.ms == 25_000


def test_a_card_quit_before_any_answer_is_not_reported_as_missed():
    drill, _, _ = make()
    drill.start()
    drill.answer("sqrt(d_k)")
    drill.answer("V")
    drill.answer("")
    drill.answer("y")  # the first card is done; the second is on screen
    (event,) = drill.answer("/quit")
    report = event.report
    assert [c.card.id for c in report.cards] == ["attention"]
    assert report.missed == [] and report.weakest_topics() == []
    assert "Nothing missed" in cheat_sheet_markdown(report, T0)


def test_follow_up_choice_prefers_unseen_then_soonest_due():
    assert pick_follow_up(ATTENTION_CARD, {}) == 0
    scheduler = make_scheduler(fuzz=False)
    first, _ = review(scheduler, "attention#follow-1", None, Rating.Easy, T0)
    states = {"attention#follow-1": first.to_dict()}
    assert pick_follow_up(ATTENTION_CARD, states) == 1
    everything = {}
    for index in range(len(ATTENTION_CARD.follow_ups)):
        rating = Rating.Again if index == 3 else Rating.Easy
        key = str(follow_up_id(ATTENTION_CARD, index))
        card, _ = review(scheduler, key, None, rating, T0)
        everything[key] = card.to_dict()
    assert pick_follow_up(ATTENTION_CARD, everything) == 3  # the one forgotten comes back
    assert pick_follow_up(SLOPE.model_copy(update={"follow_ups": []}), {}) is None


def test_weakest_and_most_overdue_first():
    scheduler = make_scheduler(fuzz=False)
    early, _ = review(scheduler, "slope", None, Rating.Good, T0 - timedelta(days=9))
    late, _ = review(scheduler, "attention", None, Rating.Good, T0)
    states = {"slope": early.to_dict(), "attention": late.to_dict()}
    assert order_for_drill([ATTENTION_CARD, SLOPE], states, {}) == [SLOPE, ATTENTION_CARD]
    assert order_for_drill([ATTENTION_CARD, SLOPE], states, {"attention": 2})[0] is ATTENTION_CARD
    assert order_for_drill([ATTENTION_CARD, SLOPE], {}, {}) == [ATTENTION_CARD, SLOPE]


def test_cheat_sheet_lists_missed_cards_only():
    drill, _, _ = make()
    drill.start()
    drill.answer("d_k")
    drill.answer("V")
    drill.answer("")
    drill.answer("n")
    drill.answer("m")
    drill.answer("")
    drill.answer("y")
    sheet = cheat_sheet_markdown(drill.report, T0)
    assert sheet.startswith("# Cheat sheet — drill of 2026-03-01 09:00 UTC")
    assert "## Scaled dot-product attention" in sheet
    assert "`Attention(Q, K, V) = softmax(Q Kᵀ / sqrt(d_k)) V`" in sheet
    assert "**Red flags**" in sheet and "**60-second review**" in sheet
    assert "**Follow-up to practise:** Why is the constant sqrt(d_k)" in sheet
    assert "## Slope" not in sheet


def test_events_carry_what_the_screen_needs():
    drill, _, _ = make(cards=(SLOPE,))
    (started, _) = drill.start()
    assert isinstance(started, DrillCardStarted)
    asked = drill.answer("m")[-1]
    assert isinstance(asked, FollowUpAsked) and asked.follow_up.question == "What is the intercept?"
    shown = drill.answer("x = 0")[0]
    assert shown == ApproachShown(FollowUpId("slope", 0), "Set x = 0.", "x = 0")
    graded = drill.answer("4")
    assert isinstance(graded[0], FollowUpGraded) and graded[0].grade == Grade.EASY
    assert not any(isinstance(e, RedFlagsShown) for e in graded)  # the card has none


# -- from the command line ------------------------------------------------------------


@pytest.fixture
def drill_deck(tmp_path):
    """A deck holding one copy of the attention card under a tag of its own."""
    folder = tmp_path / "drill-deck"
    folder.mkdir()
    text = ATTENTION.read_text().replace("id: attention", "id: drill-attention")
    text = text.replace("tags: [transformers, attention]", "tags: [drill-only]")
    (folder / "drill-attention.yaml").write_text(text)
    return folder


def test_piped_drill_schedules_follow_ups_and_writes_the_sheet(invoke, tmp_path, drill_deck):
    import json

    sheet = tmp_path / "revise.md"
    lines = "d_k\nV\nvariance adds up\nn\n"
    result = invoke(
        "drill",
        "--deck",
        str(drill_deck),
        "--tag",
        "drill-only",
        "--sheet",
        str(sheet),
        input=lines,
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "The interviewer asks" in out and "you said: variance adds up" in out
    assert "Phrases that signal junior thinking" in out and "Drill report" in out
    assert "cards right 0/1 · follow-ups 0/1" in out
    # Each scheduling line names what it scheduled: the card, then its follow-up.
    assert "drill-attention: next review in 1 minute (Again)" in out
    assert "follow-up 1 of drill-attention: again in 1 minute (Again)" in out
    assert "scheduled" not in out
    assert sheet.read_text().startswith("# Cheat sheet")
    history = json.loads(invoke("stats", "drill-attention", "--json").stdout)
    assert [a["given"] for a in history["attempts"]] == ["d_k", "V"]
    data = json.loads(invoke("stats", "drill-attention#follow-1", "--json").stdout)
    assert [r["rating"] for r in data["reviews"]] == [1]


def test_list_topics(invoke):
    invoke("quiz", "attention", input="d_k\nsqrt(d_k)\nV\n")
    result = invoke("drill", "--list-topics")
    assert result.exit_code == 0
    assert "transformers" in result.stdout and "67%" in result.stdout


def test_drill_errors(invoke, tmp_path):
    assert invoke("drill", "--tag", "nope", input="").exit_code == 2
    assert invoke("drill", "--minutes", "0", input="").exit_code == 2


@pytest.mark.parametrize("where", ["missing-folder", "folder"])
def test_an_unwritable_sheet_is_refused_before_the_drill_starts(invoke, tmp_path, where):
    sheet = tmp_path / "no" / "x.md" if where == "missing-folder" else tmp_path
    result = invoke("drill", "--sheet", str(sheet), input="sqrt(d_k)\n")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and str(tmp_path) in result.stderr
    # Nothing was asked: the candidate learns of the bad path before drilling.
    assert "card 1 of" not in result.stdout
    assert invoke("stats", "--json").stdout.count('"attempts": 0') == 1


def test_a_drill_left_before_any_answer_keeps_the_old_sheet(invoke, tmp_path):
    sheet = tmp_path / "revise.md"
    sheet.write_text("# my notes from yesterday\n")
    result = invoke("drill", "--sheet", str(sheet), input="")
    assert result.exit_code == 0
    assert sheet.read_text() == "# my notes from yesterday\n"
    assert "left as it was" in result.stderr and "written" not in result.stderr


@pytest.mark.slow
def test_countdown_screen_in_a_terminal(tmp_path, drill_deck):
    child = quizzer_in_a_terminal(
        tmp_path,
        *("drill", "--minutes", "5", "--deck", str(drill_deck), "--tag", "drill-only"),
        rows=40,
        QUIZZER_CACHE=str(tmp_path / "cache"),
    )
    try:
        child.expect(r"card 1 of 1 · 4:5\d left · aim for 5:00")
        child.expect(r"4:5\d \[1\] scale › ")
        child.sendline("sqrt(d_k)")
        child.expect(r"\d:\d\d \[2\] values › ")
        child.sendline("V")
        child.expect_exact("The interviewer asks")
        child.expect(r"\d:\d\d your answer \(or say it out loud\), then Enter › ")
        child.sendline("")
        child.expect_exact("A strong answer")
        child.expect_exact("did you get it?")
        child.sendline("y")
        child.expect_exact("Drill report")
        child.expect_exact("cards right 1/1 · follow-ups 1/1")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_a_drill_quit_at_once_reports_nothing(invoke, drill_deck):
    result = invoke("drill", "--deck", str(drill_deck), "--tag", "drill-only", input="/quit\n")
    assert result.exit_code == 0, result.output
    assert "before any answer; nothing to report" in result.stdout
    assert "Drill report" not in result.stdout
