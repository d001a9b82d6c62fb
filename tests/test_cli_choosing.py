"""Choosing what to study: quiz --due/--weak/--new, the state in list, and bare `quizzer`."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone

import pytest
from fsrs import Rating

from quizzer.cli.choosing import with_counts_filled
from quizzer.progress import schedule
from quizzer.progress.selection import CardState, Pick, choose, states_from, status, streak
from quizzer.progress.store import Attempt, Review, Store, default_path

from .conftest import MINIMAL_CARD

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def card_text(card_id: str) -> str:
    """A minimal card with a title of its own and the tag ``mine``."""
    return MINIMAL_CARD.format(id=card_id).replace(
        "title: A minimal card", f"title: Card {card_id}\ntags: [mine]"
    )


@pytest.fixture
def deck(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    for card_id in ("alpha", "beta", "gamma", "delta"):
        (folder / f"{card_id}.yaml").write_text(card_text(card_id))
    return folder


def reviewed(card_id: str, rating: Rating, at: datetime) -> None:
    """Review a card in the progress database as a finished session would."""
    with Store.open(default_path()) as store:
        state = store.fsrs_cards().get(card_id)
        card, log = schedule.review(schedule.make_scheduler(fuzz=False), card_id, state, rating, at)
        store.save_review(Review(card_id, int(rating), log.to_dict(), at), card.to_dict())
        store.record_attempt(None, Attempt(card_id, "slope", "m", True, 1, 0, 1000, at))


@pytest.fixture
def history(deck, monkeypatch):
    """alpha reviewed twice (Good) and beta once (Again) on T0; gamma, delta never."""
    reviewed("alpha", Rating.Good, T0 - timedelta(days=1))
    reviewed("alpha", Rating.Good, T0)
    reviewed("beta", Rating.Again, T0)
    monkeypatch.setenv("QUIZZER_DECKS", str(deck))
    return deck


def at(moment: datetime, monkeypatch) -> None:
    monkeypatch.setenv("QUIZZER_NOW", moment.isoformat())


def quizzed_titles(result) -> list[str]:
    assert result.exit_code == 0, result.output
    return [line.split("  #")[0] for line in result.stdout.splitlines() if line.startswith("Card ")]


# -- the core --------------------------------------------------------------------------------


def test_states_skip_follow_ups_and_survive_a_bad_due():
    states = states_from(
        {"a": {"due": "2026-03-05T09:00:00+00:00"}, "a#follow-1": {"due": "x"}, "b": {"due": 5}},
        {"a": 3},
    )
    assert set(states) == {"a", "b"}
    assert states["a"] == CardState(datetime(2026, 3, 5, 9, tzinfo=timezone.utc), 3)
    assert states["b"].is_due(T0) and states["b"].seen == 0


@pytest.mark.parametrize(
    ("pick", "expected"),
    [
        (Pick.NEW, ["c", "d"]),
        (Pick.DUE, ["b", "a"]),  # most overdue first
    ],
)
def test_choose_due_and_new(pick, expected):
    states = {
        "a": CardState(T0 - timedelta(hours=1), 1),
        "b": CardState(T0 - timedelta(days=2), 4),
        "e": CardState(T0 + timedelta(days=1), 2),
    }
    assert choose(["a", "b", "c", "d", "e"], states, T0, pick) == expected


@pytest.mark.parametrize(
    ("state", "label"),
    [
        (CardState(None, 0), "new"),
        (CardState(T0, 1), "due"),
        (CardState(T0 + timedelta(days=3), 1), "2026-03-05"),
    ],
)
def test_labels(state, label):
    assert state.label(T0) == label


def test_streak_and_status():
    days = {date(2026, 3, 1), date(2026, 2, 28), date(2026, 2, 26)}
    assert streak(days, date(2026, 3, 2)) == 2  # today not over yet: counts from yesterday
    assert streak(days | {date(2026, 3, 2)}, date(2026, 3, 2)) == 3
    assert streak(set(), date(2026, 3, 2)) == 0
    states = {"a": CardState(T0, 1), "b": CardState(T0 + timedelta(days=2), 1)}
    found = status(["a", "b", "c"], states, days, T0)
    assert (found.cards, found.due, found.new, found.streak) == (3, 1, 1, 2)
    assert found.next_due == T0 + timedelta(days=2)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--weak"], ["--weak=10"]),
        (["--weak", "3"], ["--weak", "3"]),
        (["--weak", "attention"], ["--weak=10", "attention"]),
        (["attention", "--weak", "--due"], ["attention", "--weak=10", "--due"]),
        (["--", "--weak"], ["--", "--weak"]),
        (["--weak=4"], ["--weak=4"]),
    ],
)
def test_a_bare_weak_means_ten(args, expected):
    assert with_counts_filled(args, {"--weak": 10}) == expected


# -- quiz ------------------------------------------------------------------------------------


def test_quiz_due_takes_only_due_cards(invoke, history, monkeypatch):
    at(T0 + timedelta(days=2), monkeypatch)  # beta (Again) is due; alpha (Good, twice) is not
    result = invoke("quiz", "--due", "--tag", "mine", input="")
    assert quizzed_titles(result) == ["Card beta"]


def test_quiz_due_with_nothing_due_says_when_and_exits_0(invoke, history, monkeypatch):
    at(T0, monkeypatch)
    result = invoke("quiz", "--due", "alpha", input="")
    assert result.exit_code == 0, result.output
    assert "Nothing due. Next: alpha" in result.stdout


def test_quiz_new_takes_never_reviewed_cards_with_limit(invoke, history, monkeypatch):
    at(T0, monkeypatch)
    assert quizzed_titles(invoke("quiz", "--new", "--tag", "mine", input="")) == ["Card delta"]
    # piped empty input stops after the first card is shown; --limit keeps the count
    result = invoke("quiz", "--new", "--tag", "mine", "--limit", "2", input="m\n")
    assert quizzed_titles(result) == ["Card delta", "Card gamma"]
    assert "card 1 of 2" in result.stdout


def test_quiz_weak_puts_the_forgotten_card_first(invoke, history, monkeypatch):
    at(T0 + timedelta(days=1), monkeypatch)
    result = invoke("quiz", "--weak", "--tag", "mine", "--no-record", input="m\n")
    assert quizzed_titles(result) == ["Card beta", "Card alpha"]
    result = invoke("quiz", "--weak", "1", "--tag", "mine", input="m\n")
    assert quizzed_titles(result) == ["Card beta"]


def test_quiz_weak_with_no_reviews_says_what_to_do(invoke, deck):
    result = invoke("quiz", "--weak", "--deck", str(deck), "--tag", "mine", input="")
    assert result.exit_code == 0
    assert "none is weak" in result.stdout and "quizzer quiz --new" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("--due", "--new"),
        ("--weak", "--due"),
        ("--weak", "0"),
        ("--weak", "-3"),
    ],
)
def test_bad_choices_are_usage_errors(invoke, args):
    result = invoke("quiz", *args, input="")
    assert result.exit_code == 2
    assert "Traceback" not in result.output


# -- list ------------------------------------------------------------------------------------


def test_list_json_has_due_and_seen(invoke, history, monkeypatch):
    at(T0, monkeypatch)
    items = {i["id"]: i for i in json.loads(invoke("list", "--json", "--tag", "mine").stdout)}
    assert items["alpha"]["seen"] == 2 and items["beta"]["seen"] == 1
    assert items["gamma"]["seen"] == 0 and items["gamma"]["due"] is None
    due = datetime.fromisoformat(items["alpha"]["due"])
    assert due > T0 + timedelta(days=1)
    assert datetime.fromisoformat(items["beta"]["due"]) < due


def test_list_shows_each_cards_state(invoke, history, monkeypatch):
    at(T0 + timedelta(days=1), monkeypatch)
    result = invoke("list", "--tag", "mine")
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line.split()[1] for line in result.stdout.splitlines()[1:]}
    alpha_due = json.loads(invoke("list", "--json", "--tag", "mine").stdout)[0]["due"]
    assert rows == {"alpha": alpha_due[:10], "beta": "due", "delta": "new", "gamma": "new"}


def test_list_without_a_database_creates_none(invoke, isolated_environment):
    result = invoke("list", "--json")
    assert result.exit_code == 0
    assert all(i["due"] is None and i["seen"] == 0 for i in json.loads(result.stdout))
    assert not (isolated_environment / "progress.db").exists()


def test_list_with_a_broken_database_still_lists(invoke, isolated_environment):
    (isolated_environment / "progress.db").write_bytes(b"not a database at all")
    result = invoke("list")
    assert result.exit_code == 0
    assert "attention" in result.stdout
    assert "card states are not shown" in result.stderr


# -- bare quizzer ----------------------------------------------------------------------------


def test_bare_quizzer_prints_status_and_next_command(invoke, history, monkeypatch):
    at(T0 + timedelta(days=2), monkeypatch)
    result = invoke()
    assert result.exit_code == 0, result.output
    first, *rest = result.stdout.splitlines()
    assert "1 due now" in first and "streak 0 days" in first  # last studied two days ago
    cards = len(json.loads(invoke("list", "--json").stdout))
    assert f"{cards} cards" in first and f"{cards - 2} new" in first
    assert "quizzer quiz --due" in rest[-1]


def test_bare_quizzer_on_a_first_day(invoke, monkeypatch, isolated_environment):
    at(T0, monkeypatch)
    result = invoke()
    assert result.exit_code == 0
    assert "0 due now" in result.stdout and "streak 0 days" in result.stdout
    assert "quizzer quiz --new" in result.stdout
    assert not (isolated_environment / "progress.db").exists()


def test_bare_quizzer_counts_the_streak(invoke, history, monkeypatch):
    at(T0 + timedelta(hours=3), monkeypatch)
    assert "streak 2 days" in invoke().stdout
