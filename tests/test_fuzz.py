"""Bounded fuzzing in the normal suite: only quizzer's own errors escape, judging is
bounded, and nothing typed or loaded creates files or runs code."""

from __future__ import annotations

import os
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quizzer.answers import judge_bounded
from quizzer.answers.judge import CardJudge
from quizzer.cards.deck import load_card_file

from .conftest import ATTENTION
from .test_answers_judge import card_with

ATTENTION_CARD = load_card_file(ATTENTION)[0].card
JUDGES = [CardJudge(ATTENTION_CARD), CardJudge(card_with("x^2 + a"))]

atoms = st.sampled_from(
    [
        "x",
        "a",
        "n",
        "A",
        "B",
        "d_k",
        "Q",
        "K",
        "V",
        "0",
        "1",
        "2",
        "0.5",
        "1e3",
        "pi",
        "e",
        "10^10",
        "-1",
        "√d_k",
        r"\sqrt{x}",
        "|x|",
        "n!",
    ]
)


def expressions() -> st.SearchStrategy[str]:
    return st.recursive(
        atoms,
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "^", "**", " ", "·"]), inner).map(
                lambda t: f"({t[0]}{t[1]}{t[2]})"
            ),
            st.tuples(
                st.sampled_from(
                    ["sqrt", "exp", "log", "sin", "tanh", "sigmoid", "softmax", "abs", "factorial"]
                ),
                inner,
            ).map(lambda t: f"{t[0]}({t[1]})"),
            st.tuples(st.sampled_from(["max", "min", "log"]), inner, inner).map(
                lambda t: f"{t[0]}({t[1]}, {t[2]})"
            ),
            inner.map(lambda s: f"{s}^T"),
            inner.map(lambda s: f"-{s}"),
        ),
        max_leaves=12,
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions(), st.sampled_from([0, 1]))
def test_structured_answers_always_get_a_bounded_verdict(text, which):
    judge = JUDGES[which]
    blank = next(iter(judge.card.blanks))
    started = time.perf_counter()
    verdict = judge_bounded(judge, blank, text)
    assert time.perf_counter() - started < 3.0
    assert verdict.status in ("correct", "wrong", "unreadable", "too_large", "unanswered")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=120))
def test_arbitrary_unicode_never_escapes_the_judge(text):
    verdict = judge_bounded(JUDGES[0], "scale", text)
    assert isinstance(verdict.correct, bool)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_as_a_card_file_give_problems_not_exceptions(tmp_path, data):
    path = tmp_path / "fuzz.yaml"
    path.write_bytes(data)
    loaded, problems = load_card_file(path)
    assert loaded is not None or problems
    assert all(p.line >= 1 and p.column >= 1 for p in problems)


yaml_fragments = st.sampled_from(
    [
        "id: x\n",
        "title: t\n",
        "prompt: '{{a}}'\n",
        "blanks: {a: {answer: x}}\n",
        "symbols: {x: {}}\n",
        "tags: [a, b]\n",
        "!!python/object/apply:os.system ['touch pwned']\n",
        "a: &anchor [1, 2]\n",
        "b: *anchor\n",
        "- item\n",
        "  nested: 1\n",
        "? complex\n",
        ": value\n",
        "{{a}}\n",
        "\t\n",
        "%YAML 1.1\n",
        "---\n",
        "...\n",
        "!custom tag\n",
        "key: !!binary aGVsbG8=\n",
        "<<: {x: 1}\n",
    ]
)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(yaml_fragments, max_size=12).map("".join))
def test_yaml_like_cards_never_execute_anything(tmp_path, monkeypatch, text):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "card.yaml"
    path.write_text(text)
    load_card_file(path)
    assert sorted(os.listdir(tmp_path)) == ["card.yaml"]  # no 'pwned' file, nothing else


def test_judging_creates_no_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for text in [
        "__import__('os').system('touch pwned')",
        "open('x', 'w')",
        "exec('1')",
        "lambda: 0",
        "x.__class__",
        "eval('1')",
        "`touch pwned`",
    ]:
        judge_bounded(JUDGES[0], "scale", text)
    assert list(Path(tmp_path).iterdir()) == []
