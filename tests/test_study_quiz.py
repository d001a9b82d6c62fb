"""The quiz flow as a plain object: fed lines, it returns events; no terminal needed."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from quizzer.answers import CardJudge
from quizzer.cards.deck import load_card_file, select_cards
from quizzer.cards.model import Card
from quizzer.study.quiz import (
    BlankAsked,
    CardFinished,
    CardStarted,
    HintShown,
    Judged,
    Notice,
    QuizSession,
    Revealed,
    SessionFinished,
    masked_answer,
)

from .conftest import ATTENTION

ATTENTION_CARD = load_card_file(ATTENTION)[0].card
SECOND = Card.model_validate(
    {
        "id": "second",
        "title": "Second",
        "prompt": "y = {{slope}} x",
        "symbols": {"m": {}},
        "blanks": {"slope": {"answer": "m", "hint": "the usual letter"}},
    }
)


class FakeClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=2)
        return self.now


def make_session(cards=(ATTENTION_CARD,), tries=3):
    judges = {}

    def judge(card, blank, text):
        judges.setdefault(card.id, CardJudge(card))
        return judges[card.id].judge(blank, text)

    recorded = []
    session = QuizSession(list(cards), judge, FakeClock(), tries=tries, record=recorded.append)
    return session, recorded


def kinds(events):
    return [type(e).__name__ for e in events]


def test_right_first_time():
    session, recorded = make_session()
    start = session.start()
    assert kinds(start) == ["CardStarted", "BlankAsked"]
    assert start[0] == CardStarted(ATTENTION_CARD, 1, 1)
    assert kinds(session.answer("d_k^(1/2)")) == ["Judged", "BlankAsked"]
    events = session.answer("V")
    assert kinds(events) == ["Judged", "CardFinished"]
    assert session.between_cards and not session.finished
    finished = events[1]
    assert finished.filled == {"scale": "sqrt(d_k)", "values": "V"}
    assert finished.result.right_first_time == 2 and finished.result.ms == 4000
    (ended,) = session.next_card()
    summary = ended.summary
    assert (summary.attempts, summary.correct, summary.accuracy) == (2, 2, 1.0)
    assert summary.ended_by == "finished" and session.finished
    assert [(a.blank, a.given, a.correct, a.try_number, a.ms) for a in recorded] == [
        ("scale", "d_k^(1/2)", True, 1, 2000),
        ("values", "V", True, 1, 2000),
    ]


def test_wrong_then_right_counts_tries():
    session, recorded = make_session()
    session.start()
    events = session.answer("d_k")
    assert kinds(events) == ["Judged", "BlankAsked"]
    assert not events[0].verdict.correct and events[0].tries_left == 2
    assert events[1].try_number == 2
    session.answer("sqrt(d_k)")
    result = session.result.blanks[0]
    assert (result.correct, result.tries, result.right_first_time) == (True, 2, False)
    assert [a.try_number for a in recorded] == [1, 2]


def test_out_of_tries_reveals_and_moves_on():
    session, recorded = make_session(tries=2)
    session.start()
    session.answer("d_k")
    events = session.answer("log(d_k)")
    assert kinds(events) == ["Judged", "Revealed", "BlankAsked"]
    assert events[1] == Revealed(
        blank="scale", number=1, answer="sqrt(d_k)", because="out of tries"
    )
    assert events[2].blank == "values"
    assert session.result.blanks[0].revealed and len(recorded) == 2


def test_unreadable_answers_use_no_try_and_are_not_recorded():
    session, recorded = make_session()
    session.start()
    events = session.answer("sqrt(d_k))")
    assert kinds(events) == ["Judged", "BlankAsked"]
    assert events[0].counted is False and events[1].try_number == 1
    assert recorded == []


def test_hints_then_stronger_then_none():
    session, _ = make_session()
    session.start()
    first = session.answer("?")
    assert kinds(first) == ["HintShown"] and first[0].level == 1
    assert "standard deviation" in first[0].text
    second = session.answer("?")
    assert second == [HintShown("scale", "the answer looks like: sqrt(□)", 2)]
    assert kinds(session.answer("?")) == ["Notice"]
    session.answer("sqrt(d_k)")
    assert session.result.blanks[0].hints == 2
    assert not session.result.blanks[0].right_first_time


def test_reveal():
    session, recorded = make_session()
    session.start()
    events = session.answer("!")
    assert events[0] == Revealed(blank="scale", number=1, answer="sqrt(d_k)", because="asked")
    # Issue 24.7: a reveal asked for is saved as a wrong attempt that says so (it was not).
    assert isinstance(events[1], BlankAsked)
    assert [(a.given, a.correct, a.revealed) for a in recorded] == [("!", False, True)]
    assert events[0].attempt == recorded[0]


def test_skip_moves_to_the_next_card():
    session, _ = make_session(cards=(ATTENTION_CARD, SECOND))
    session.start()
    events = session.answer("/skip")
    assert kinds(events) == ["CardFinished"] and events[0].result.skipped
    assert session.answer("m") == []  # nothing is asked between cards
    events = session.next_card()
    assert kinds(events) == ["CardStarted", "BlankAsked"]
    assert events[0] == CardStarted(SECOND, 2, 2)


def test_stopped_between_cards_the_next_card_is_not_charged():
    session, _ = make_session(cards=(SECOND, ATTENTION_CARD))
    session.start()
    session.answer("m")
    (ended,) = session.stop("interrupted")
    assert [c.card_id for c in ended.summary.cards] == ["second"]
    assert ended.summary.ended_by == "interrupted" and session.next_card() == []


def test_quit_mid_card_keeps_what_was_answered():
    session, recorded = make_session(cards=(ATTENTION_CARD, SECOND))
    session.start()
    session.answer("sqrt(d_k)")
    events = session.answer("/quit")
    assert kinds(events) == ["SessionFinished"]
    summary = events[0].summary
    assert summary.ended_by == "quit" and summary.attempts == 1
    assert len(summary.cards) == 1 and summary.cards[0].right_first_time == 1
    assert len(recorded) == 1
    assert session.answer("V") == [] and session.stop("quit") == []


def test_end_of_input_stops_cleanly():
    session, _ = make_session()
    session.start()
    events = session.stop("end of input")
    assert events[0].summary.ended_by == "end of input"


def test_word_answers_and_typos():
    session, recorded = make_session()
    session.start()
    session.answer("sqrt(d_k)")
    events = session.answer("the valeus")
    assert events[0].verdict.correct and "spelled 'values'" in events[0].verdict.feedback
    assert recorded[-1].given == "the valeus"


def test_empty_line_is_a_reminder():
    session, _ = make_session()
    session.start()
    (event,) = session.answer("   ")
    assert isinstance(event, Notice) and "? hint" in event.text


def test_second_card_hint_and_judged_types():
    session, _ = make_session(cards=(SECOND,))
    session.start()
    assert session.answer("?")[0].text == "the usual letter"
    assert session.answer("?")[0].text == "the answer looks like: a single symbol"
    events = session.answer("m")
    assert isinstance(events[0], Judged) and isinstance(events[1], CardFinished)
    assert isinstance(session.next_card()[0], SessionFinished)


def test_override_after_a_wrong_answer_counts_it_and_goes_on():
    session, recorded = make_session()
    session.start()
    session.answer("d_k")
    events = session.answer("/override")
    assert kinds(events) == ["Overridden", "BlankAsked"]
    assert (events[0].blank, events[0].given, events[0].try_number) == ("scale", "d_k", 1)
    assert events[1].blank == "values"
    blank = session.result.blanks[0]
    assert (blank.correct, blank.overridden, blank.tries) == (True, True, 1)
    assert (session.attempts, session.correct) == (1, 1)
    assert [a.correct for a in recorded] == [False]  # the store is told by the loop


def test_override_after_the_last_try_of_the_last_blank():
    session, _ = make_session(cards=(SECOND,), tries=1)
    session.start()
    events = session.answer("2*m")
    assert kinds(events) == ["Judged", "Revealed", "CardFinished"]
    (overridden,) = session.override()
    assert overridden.result is events[2].result
    blank = overridden.result.blanks[0]
    assert (blank.correct, blank.revealed, blank.overridden) == (True, False, True)
    assert overridden.result.overridden and session.between_cards


@pytest.mark.parametrize(
    "before",
    [
        [],  # nothing judged yet
        ["sqrt(d_k)"],  # the last answer was right
        ["d_k", "!"],  # the answer was asked for after
        ["d_k", "/override"],  # already overridden
        ["d_k", "sqrt(d_k)"],  # a later answer was judged
    ],
)
def test_override_needs_a_rejected_answer_just_before(before):
    session, _ = make_session()
    session.start()
    for line in before:
        session.answer(line)
    correct = session.correct
    events = session.override()
    assert kinds(events) == ["Notice"] and "/override" in events[0].text
    assert session.correct == correct


def test_override_does_not_reach_into_the_next_card():
    session, _ = make_session(cards=(SECOND, SECOND), tries=1)
    session.start()
    session.answer("2*m")
    session.next_card()
    assert kinds(session.override()) == ["Notice"]


@pytest.mark.parametrize(
    ("answer", "masked"),
    [
        ("sqrt(d_k)", "sqrt(□)"),
        ("x^2 + 2 x", "□^2 + 2 □"),
        ("layer norm", "l____ ____"),
        ("V", "a single symbol"),
        ("dk/2", "□/2"),
    ],
)
def test_masked_answer(answer, masked):
    card = Card.model_validate(
        {
            "id": "m",
            "title": "M",
            "prompt": "{{b}}",
            "symbols": {"d_k": {"aliases": ["dk"]}, "x": {}, "V": {}},
            "blanks": {"b": {"answer": answer}},
        }
    )
    assert masked_answer(card, "b") == masked


def test_session_rejects_nonsense_setup():
    with pytest.raises(ValueError):
        QuizSession([], lambda *a: None, FakeClock())
    with pytest.raises(ValueError):
        QuizSession([ATTENTION_CARD], lambda *a: None, FakeClock(), tries=0)


def test_select_cards(tmp_path):
    from quizzer.cards.deck import load_deck

    from .conftest import MINIMAL_CARD

    for name in ("b", "a", "c"):
        (tmp_path / f"{name}.yaml").write_text(MINIMAL_CARD.format(id=name))
    cards = load_deck([tmp_path]).cards
    assert [c.id for c in select_cards(cards)] == ["a", "b", "c"]
    assert [c.id for c in select_cards(cards, limit=2)] == ["a", "b"]
    shuffled = [c.id for c in select_cards(cards, shuffle=True, seed=3)]
    assert sorted(shuffled) == ["a", "b", "c"]
    assert shuffled == [c.id for c in select_cards(cards, shuffle=True, seed=3)]
    assert select_cards(cards, tags=["nope"]) == []
