"""Judge polish (issue 22, second pass): primes, kinks, units, load-independent limits."""

from __future__ import annotations

import json

import pytest

from quizzer.answers import CardJudge, judge_bounded
from quizzer.cards.model import Card


def card(answer: str, **symbols: dict) -> Card:
    return Card.model_validate(
        {"id": "polish", "title": "t", "prompt": "{{a}}", "symbols": symbols,
         "blanks": {"a": {"answer": answer}}}
    )  # fmt: skip


CARD_YAML = """\
id: {id}
title: polish
prompt: "{{{{a}}}}"
symbols:
{symbols}
blanks:
  a:
    answer: "{answer}"
"""

ROWS = [
    # (answer, symbols, text, correct, feedback fragment)
    # a prime on a scalar is never a silent transpose (f'(x) was f*x)
    ("f*x", {"f": {}, "x": {}}, "f'(x)", False, "prime at column 2"),
    ("f*x", {"f": {}, "x": {}}, "x'", False, "prime at column 2"),
    ("f*x", {"f": {}, "x": {}}, "x^{\\prime}", False, "prime at column 4"),
    ("f*x", {"f": {}, "x": {}}, "f*x", True, None),
    ("W", {"W": {"matrix": True}}, "(W')'", True, None),
    # a difference found only beside a kink gets no claim drawn from the sample points
    ("x", {"x": {}}, "x+max(0,x-5000)", False, "differs from the answer at x ="),
    ("x", {"x": {"positive": True}}, "x+max(0,x-5000)", False, "differs from the answer at"),
    ("max(0,x-1000)", {"x": {}}, "0", False, "differs from the answer at"),
    ("max(0, x)", {"x": {}}, "x", False, None),
    # a kink past every sampled point, found from the end of the range (was accepted)
    ("max(0,x-9990)", {"x": {"range": [0, 10000]}}, "0", False, "differs from the answer at"),
    ("x", {"x": {"range": [0, 10000]}}, "x+max(0,x-9990)", False, None),
    # a relation of the values must hold beside the kinks too (was "right size, wrong sign")
    ("abs(x-1000)", {"x": {}}, "x-1000", False, "one side of a kink"),
    ("abs(x-1000)", {"x": {}}, "1000-x", False, "differs from the answer at x = 1050"),
    # cancellation at large magnitudes is rounding noise, not a difference: at s = 95,
    # 1 - sigmoid(s) keeps 8 of 50 digits (it was "differs at s = 94.95")
    ("log(sigmoid(-s))", {"s": {}}, "log(1 - sigmoid(s))", True, None),
    ("log(sigmoid(-s))", {"s": {}}, "-log(1 + exp(s))", True, None),
    ("log(sigmoid(-s))", {"s": {}}, "log(1 - sigmoid(s)) + 10^-50", False, None),
    ("log(sigmoid(-s))", {"s": {}}, "log(sigmoid(s))", False, None),
    ("max(0, x)", {"x": {}}, "relu(x)", True, None),
    ("max(0, x)", {"x": {}}, "(x+abs(x))/2", True, None),
    ("abs(x)", {"x": {}}, "sign(x)*x", True, None),
    ("abs(x)", {"x": {}}, "x^2", False, "square of the answer"),
    ("relu(x)", {"x": {}}, "2*relu(x)", False, "2 times the answer"),
    ("min(0, x)", {"x": {}}, "relu(-x)", False, "wrong sign"),
    ("clip(x, 0, 1)", {"x": {}}, "0", False, "depends on x"),
    ("floor(x)", {"x": {"integer": True}}, "x+1", False, "1 more than the answer"),
    # two numbers side by side were silently multiplied (1 00 was 0): an error, but
    # digit groups of three are one number, as SI writes them
    ("1000", {}, "1 000", True, None),
    ("1000000 x", {"x": {}}, "1 000 000 x", True, None),
    ("6", {}, "2 3", False, "two numbers side by side at column 3"),
    ("100", {}, "1 00", False, "two numbers side by side at column 3"),
    ("1000.5", {}, "1 000.5", False, "side by side"),
    ("6 x", {"x": {}}, "2x 3", True, None),
]
NO_TINY = "differ at 50 digits"


@pytest.mark.parametrize(("answer", "symbols", "text", "correct", "feedback"), ROWS)
def test_through_the_api(answer, symbols, text, correct, feedback):
    verdict = judge_bounded(CardJudge(card(answer, **symbols)), "a", text)
    assert verdict.correct is correct, verdict
    if feedback is not None:
        assert feedback in (verdict.feedback or ""), verdict
    assert NO_TINY not in (verdict.feedback or ""), verdict


@pytest.mark.parametrize(("answer", "symbols", "text", "correct", "feedback"), ROWS[:8])
def test_through_quizzer_check(invoke, write_card, answer, symbols, text, correct, feedback):
    lines = "\n".join(
        f"  {name}: {json.dumps(fields) if fields else '{}'}" for name, fields in symbols.items()
    )
    path = write_card(CARD_YAML.format(id="polish-card", symbols=lines, answer=answer))
    result = invoke("check", str(path), "-a", text, "--json")
    assert result.exit_code == (0 if correct else 1), result.output
    shown = json.dumps(json.loads(result.stdout), ensure_ascii=False)
    if feedback is not None:
        assert feedback in shown, shown


@pytest.mark.parametrize(
    ("card_id", "blank", "text", "correct"),
    [
        ("kv-cache-memory", "llama_gib", "2.15 GB", True),
        ("kv-cache-memory", "llama_gib", "2 GB", False),
        ("absmax-quantization", "int4_gb", "35 GiB", False),
        ("absmax-quantization", "int4_gb", "32.6 GiB", True),
        ("best-of-n-kl", "example", "0.636", True),
        ("speculative-expected-tokens", "example", "3.36", True),
        ("jensen-inequality", "relation", "≥", True),
        ("jensen-inequality", "relation", ">=", True),
        (
            "causal-mask",
            "mask_step",
            "add minus infinity to future logits before the softmax",
            True,
        ),
    ],
)
def test_bundled_cards_through_quizzer_check(invoke, card_id, blank, text, correct):
    from quizzer.answers import _known_card

    names = list(_known_card(card_id).blanks)
    answers = [arg for name in names for arg in ("-a", text if name == blank else "")]
    result = invoke("check", card_id, *answers, "--json")
    verdicts = {v["blank"]: v for v in json.loads(result.stdout)["blanks"]} if result.stdout else {}
    assert verdicts and verdicts[blank]["correct"] is correct, result.output


def test_a_limit_counts_cpu_time_not_the_clock():
    import time

    from quizzer.answers.deadline import deadline

    with deadline(0.05):
        time.sleep(0.1)  # waiting uses no CPU: within the limit (the clock backstop is 5x)


def test_audit_prints_a_defined_symbol_as_written(invoke):
    # rotary-positions forbids i in a blank whose answer uses j = i - 1: SymPy's print
    # of the expanded answer used i and was refused (a judge-side audit error)
    result = invoke("audit", "rotary-positions", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["ok"] is True
