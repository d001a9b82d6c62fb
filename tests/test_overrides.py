"""`/override` disputes listed per card with an examples: snippet (quizzer overrides)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from quizzer.cards.yamldoc import load_yaml
from quizzer.progress.store import Attempt, Store
from quizzer.study.overrides import CardOverrides, OverriddenAnswer, overrides_by_card

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


def attempt(card, blank, given, *, overridden=True, minutes=0):
    at = T0 + timedelta(minutes=minutes)
    return Attempt(card, blank, given, overridden, 1, 0, 100, at, overridden=overridden)


def test_grouped_by_card_oldest_first_and_only_overridden():
    attempts = [
        attempt("slope", "m", "2m", minutes=3),
        attempt("attention", "scale", "d_k", minutes=2),
        attempt("attention", "scale", "wrong", overridden=False),
        attempt("attention", "values", "v", minutes=1),
    ]
    found = overrides_by_card(attempts)
    assert [c.card_id for c in found] == ["attention", "slope"]
    assert [(a.blank, a.given) for a in found[0].answers] == [("values", "v"), ("scale", "d_k")]
    assert [c.card_id for c in overrides_by_card(attempts, "slope")] == ["slope"]
    assert overrides_by_card(attempts, "nothing") == []


def test_the_snippet_is_the_examples_a_card_takes():
    card = CardOverrides(
        "attention",
        (
            OverriddenAnswer("scale", "d_k", T0),
            OverriddenAnswer("values", "V'", T0),
            OverriddenAnswer("scale", "d_k", T0),  # twice: one example
        ),
    )
    assert card.examples_yaml() == (
        "blanks:\n"
        "  scale:\n"
        "    examples:\n"
        '      - {answer: "d_k", correct: true}\n'
        "  values:\n"
        "    examples:\n"
        '      - {answer: "V\'", correct: true}\n'
    )


@given(
    blank=st.text(min_size=1, max_size=12).filter(str.strip),
    answers=st.lists(st.text(max_size=30), min_size=1, max_size=4),
)
def test_the_snippet_reads_back_as_written_whatever_the_text(blank, answers):
    card = CardOverrides("c", tuple(OverriddenAnswer(blank, text, T0) for text in answers))
    data = load_yaml(card.examples_yaml()).data
    examples = data["blanks"][blank]["examples"]
    assert [e["answer"] for e in examples] == list(dict.fromkeys(answers))
    assert all(e["correct"] is True for e in examples)


def seed(db, *attempts):
    with Store.open(db) as store:
        session = store.start_session("quiz", T0)
        for item in attempts:
            store.record_attempt(session, item)


def test_the_store_lists_only_overridden_attempts(tmp_path):
    seed(
        tmp_path / "p.db",
        attempt("a", "x", "1"),
        attempt("a", "x", "2", overridden=False),
        attempt("b", "y", "3"),
    )
    with Store.open(tmp_path / "p.db") as store:
        every = [a.given for a in store.each_attempt(overridden_only=True)]
        of_a = [a.given for a in store.each_attempt("a", overridden_only=True)]
        assert (every, of_a, len(store.attempts("a"))) == (["1", "3"], ["1"], 2)


def test_overrides_command(invoke, tmp_path):
    db = tmp_path / "p.db"
    seed(
        db,
        attempt("attention", "scale", "d_k"),
        attempt("attention", "scale", "x", overridden=False),
    )
    result = invoke("overrides", "--db", str(db))
    assert result.exit_code == 0, result.output
    assert "attention  1 answer" in result.output and "[scale] d_k" in result.output
    assert "examples for " in result.output and "attention.yaml" in result.output
    assert '      - {answer: "d_k", correct: true}' in result.output
    data = json.loads(invoke("overrides", "attention", "--json", "--db", str(db)).stdout)
    assert [item["card"] for item in data] == ["attention"]
    assert data[0]["path"].endswith("attention.yaml")
    assert data[0]["overrides"] == [
        {"blank": "scale", "given": "d_k", "at": "2026-03-01T09:00:00+00:00"}
    ]
    assert load_yaml(data[0]["examples"]).data["blanks"]["scale"]["examples"][0]["answer"] == "d_k"


def test_overrides_with_nothing_to_list(invoke, tmp_path):
    result = invoke("overrides", "--db", str(tmp_path / "none.db"))
    assert result.exit_code == 0 and "No overridden answers" in result.output
    assert not (tmp_path / "none.db").exists()  # listing never creates a database
    assert json.loads(invoke("overrides", "--json", "--db", str(tmp_path / "x.db")).stdout) == []


def test_overrides_of_an_unknown_card_is_bad_input(invoke, tmp_path):
    result = invoke("overrides", "attentoin", "--db", str(tmp_path / "p.db"))
    assert result.exit_code == 2
    assert "unknown card 'attentoin'" in result.output and "attention" in result.output
    assert "Traceback" not in result.output


def test_a_piped_quiz_override_is_listed(invoke, tmp_path):
    db = str(tmp_path / "p.db")
    result = invoke("quiz", "attention", "--db", db, input="d_k\n/override\nV\n")
    assert result.exit_code == 0, result.output
    assert "counted as right [1] scale: d_k" in result.output
    assert "attention (overridden)" in result.output  # the summary marks it
    data = json.loads(invoke("overrides", "--json", "--db", db).stdout)
    assert [(o["blank"], o["given"]) for o in data[0]["overrides"]] == [("scale", "d_k")]
    stats = json.loads(invoke("stats", "--json", "--db", db).stdout)
    assert (stats["attempts"], stats["correct"]) == (2, 2)
