"""quizzer.app: the workspace read once, and choosing cards (new ones by level, then deck order)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from quizzer.app import choosing, studying
from quizzer.app.workspace import Workspace
from quizzer.errors import QuizzerError
from quizzer.progress.selection import Pick

from .conftest import MINIMAL_CARD


@pytest.fixture
def levelled(tmp_path):
    folder = tmp_path / "deck"
    folder.mkdir()
    # Deck order is by file name: a-advanced, b-core, c-unlevelled, d-fundamental.
    for name, level in (("a-advanced", 3), ("b-core", 2), ("c-unlevelled", None), ("d-basic", 1)):
        text = MINIMAL_CARD.format(id=name) + (f"level: {level}\n" if level else "")
        (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    return Workspace.from_environment(decks=[folder], db=tmp_path / "p.db")


def test_new_cards_come_by_level_then_in_deck_order(levelled):
    choice = choosing.CardChoice(tags=(), state=Pick.NEW)
    chosen = [c.id for c in choosing.choose_cards(levelled, choice) if c.deck == "deck"]
    assert chosen == ["d-basic", "b-core", "c-unlevelled", "a-advanced"]
    # Deck order itself is unchanged where no state is asked for.
    plain = [c.id for c in choosing.choose_cards(levelled, choosing.CardChoice())]
    assert [c for c in plain if c in chosen] == ["a-advanced", "b-core", "c-unlevelled", "d-basic"]


def test_review_introduces_new_cards_by_level(levelled):
    mine = [c for c in choosing.load(levelled).cards if c.deck == "deck"]
    plan = studying.plan_review(levelled, mine, new_per_day=3)
    assert [c.id for c in plan.cards] == ["d-basic", "b-core", "c-unlevelled"]


def test_reading_progress_never_creates_the_database(levelled):
    with levelled.existing_progress() as store:
        assert store is None
    assert not levelled.db_path.exists()
    assert choosing.stored_states(levelled) == ({}, {})


def test_the_clock_is_read_from_quizzer_now_once_given():
    held = Workspace.from_environment(environ={"QUIZZER_NOW": "2030-01-02T03:04:05Z"})
    assert held.clock() == datetime(2030, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
    with pytest.raises(QuizzerError, match="not an ISO 8601 time"):
        Workspace.from_environment(environ={"QUIZZER_NOW": "soon"}).clock()
    with pytest.raises(QuizzerError, match="out of range"):
        Workspace.from_environment(environ={"QUIZZER_NOW": "9999-01-01"}).clock()


def test_a_commands_own_options_add_decks_and_prefer_its_database(tmp_path):
    base = Workspace.from_environment(decks=[tmp_path / "a"], db=tmp_path / "x.db", environ={})
    mine = base.with_options([tmp_path / "b"], tmp_path / "y.db")
    assert mine.decks == (tmp_path / "a", tmp_path / "b") and mine.db == tmp_path / "y.db"
    assert base.with_options(None, None) == base
    assert not Workspace.from_environment(environ={"NO_COLOR": "1"}).colour


def test_asking_for_two_states_is_a_usage_error():
    assert choosing.state_asked(False, 3, False) is Pick.WEAK
    with pytest.raises(QuizzerError, match="choose one of"):
        choosing.state_asked(True, None, True)


def test_a_review_builds_each_card_only_when_the_session_reaches_it(levelled, monkeypatch):
    # A review of 200 due cards built every model (a cache read and a model each,
    # 1-1.5 ms) before its first card was shown.
    from quizzer.cards import deck as deck_module
    from quizzer.study.quiz import QuizSession

    built: list[str] = []
    card_of = deck_module.LoadedCard.card

    def counting(self):
        built.append(self.id)
        return card_of.fget(self)

    mine = [c for c in choosing.load(levelled).cards if c.deck == "deck"]
    monkeypatch.setattr(deck_module.LoadedCard, "card", property(counting))
    plan = studying.plan_review(levelled, mine, new_per_day=4)
    assert len(plan.cards) == 4 and built == []
    session = QuizSession(plan.cards, judge=None, clock=lambda: datetime.now(timezone.utc))
    assert built == []
    assert session.card.id == "d-basic" and built == ["d-basic"]
    # The plan and the session each keep their own order; cards built once are kept.
    session.cards.insert(1, plan.cards[3])
    assert [c.id for c in session.cards] == [
        "d-basic",
        "a-advanced",
        "b-core",
        "c-unlevelled",
        "a-advanced",
    ]
    assert [c.id for c in plan.cards] == ["d-basic", "b-core", "c-unlevelled", "a-advanced"]
    assert plan.cards[1:3][0].id == "b-core"
