"""Issue 22, items 2, 3, 7 and 9b, table-driven: equal on the same domain, numbers as
people round them, diagnoses that are checked claims, and ``quizzer audit``.

Every case quoted in the issue is a row, judged through the API and again
through ``quizzer check`` on a card file written for it.
"""

from __future__ import annotations

import json

import pytest
import yaml

from quizzer.answers import CardJudge
from quizzer.answers.audit import AuditProblem, audit_card
from quizzer.answers.mutants import mutants, to_text
from quizzer.answers.syntax import SymbolTable, parse
from quizzer.answers.verdict import Verdict
from quizzer.cards.model import Card

REAL = {"x": {}, "a": {}, "b": {}, "c": {}}
POSITIVE = {"r": {"positive": True}, "d_k": {"positive": True}}
COUNT = {"n": {"positive": True, "integer": True}, "x": {}}
MATRICES = {"A": {"matrix": True}, "B": {"matrix": True}}


def card_data(answer: str, symbols: dict, *, exact: bool = False) -> dict:
    blank = {"answer": answer, **({"exact": True} if exact else {})}
    return {
        "id": "equal",
        "title": "Equal",
        "prompt": "{{b}}",
        "symbols": symbols,
        "blanks": {"b": blank},
    }


def card(answer: str, symbols: dict, *, exact: bool = False) -> Card:
    return Card.model_validate(card_data(answer, symbols, exact=exact))


NINES_44 = "0." + "9" * 44
# (symbols, expected, given, correct, feedback that must appear, or None)
CASES = [
    # -- item 2: equal means equal on the same domain ----------------------------
    (REAL, "x", "x*abs(x)/sqrt(x)^2", False, "yours is not defined for x < 0"),
    (REAL, "log(x^2)", "2*log(x)", False, "yours is not defined for x < 0"),
    (REAL, "log(x^2)", "2*log(abs(x))", True, None),
    (REAL, "(a^b)^c", "a^(b*c)", False, None),
    (REAL, "sqrt((x-3)*(x-5))", "sqrt(x-3)*sqrt(x-5)", False, "not real"),
    (REAL, "abs(x)", "sqrt(x^2)", True, None),
    (REAL, "x^2/x", "x", True, None),  # a gap at 0 alone is removable
    # agreement at 50 digits is relative; exact rationals compare exactly
    (REAL, "x", "x + 10^-50", False, None),
    (REAL, "0", "10^-50", False, None),
    (REAL, "x - x", "10^-50", False, None),
    (REAL, "0", "sin(x)^2 + cos(x)^2 - 1", True, None),
    (REAL, "1/2", "0." + "4" + "9" * 44, False, None),
    (REAL, "x/2", "x*0.4" + "9" * 44, False, None),
    (REAL, "1", NINES_44, False, None),
    # a term non-zero only where no random point falls is found at its kink
    (POSITIVE, "r", "r + max(0, r - 5000)", False, None),
    (POSITIVE, "r", "r + max(0, 5000 - r) - 5000 + r", False, None),
    (REAL, "max(0, x)", "(x + abs(x))/2", True, None),
    (REAL, "min(a, b)", "(a + b - abs(a - b))/2", True, None),
    # an answer out of reach at most points is not accepted on the few left
    (POSITIVE, "sqrt(d_k)", "sqrt(d_k) + max(0, d_k - 2)^(d_k^d_k^d_k)", False, None),
    (POSITIVE, "sqrt(d_k)", "sqrt(d_k) + 0*d_k^d_k^d_k^d_k", True, None),  # 0 times it is 0
    # -- item 3: numbers as people round them (constant blanks) ------------------
    (REAL, "log(4) - 3/4", "0.64", True, "exactly log(4) - 3/4 = 0.6363"),
    (REAL, "log(4) - 3/4", "0.636", True, "exactly"),
    (REAL, "log(4) - 3/4", "0.63", False, None),
    (REAL, "log(4) - 3/4", "0.6", False, None),  # one significant digit
    (REAL, "exp(-1)", "0.368", True, "exactly exp(-1) = 0.367"),
    (REAL, "exp(-1)", "0.37", True, None),
    (REAL, "exp(-1)", "0.367", False, None),  # cut short, not rounded
    (REAL, "1/2", "0.4999999999", False, None),
    (REAL, "1/3", "-0.33", False, "wrong sign"),
    # inside formulas decimals stay exact
    (REAL, "x/3", "0.33 x", False, "is a constant rounded? (0.33 looks like 1/3)"),
    (REAL, "x/2", "0.5 x", True, None),
    # no "looks like 7/11" from a reduced denominator: only what the digits round
    (REAL, "(log(4) - 3/4)*x", "0.64 x", False, None),
    # -- item 7: diagnoses hold at every valid point --------------------------------
    (REAL, "0", "1e-9", False, None),
    (REAL, "x", "x*sin(x)", False, None),
    (REAL, "a - 2*b", "b - 2*a", False, "a and b are swapped in yours"),
    (COUNT, "n*(n - 1)/2", "n*(n + 1)/2", False, "off by one"),
    (REAL, "log(x^2 + 1)", "lg(x^2 + 1)", False, "wrong log base"),
    (REAL, "x^2 + 2*x + 1", "x^2 + 1", False, "a term is missing from yours: 2 * x"),
    (REAL, "x^2 + 1", "x^2 + x + 1", False, "yours has an extra term: x"),
    (REAL, "a + sqrt(b^2 + 1)", "a + b^2 + 1", False, "a square root is missing"),
    (REAL, "a - b + c", "a + b + c", False, "a sign is wrong in yours"),
    (REAL, "a*b/(c^2 + 1)", "a*(c^2 + 1)/b", False, None),
    (MATRICES, "A B", "B A", False, None),
    (MATRICES, "A B", "(A B)^T", False, "transpose of the answer"),
    (REAL, "exp(a)*b + 3", "exp(a)*b + 4", False, "1 more than the answer"),
    (REAL, "exp(a)*sin(b) + c", "exp(a)*cos(b) + c", False, "yours has cos(b) where"),
]  # fmt: skip


def test_the_table_holds_every_case_quoted_in_the_issue():
    givens = {row[2] for row in CASES}
    for quoted in ("x*abs(x)/sqrt(x)^2", "r + max(0, r - 5000)", "0.64", "0.368", "0.33 x",
                   "1e-9", "x + 10^-50"):  # fmt: skip
        assert quoted in givens


@pytest.mark.parametrize(("symbols", "expected", "given", "correct", "feedback"), CASES)
def test_through_the_api(symbols, expected, given, correct, feedback):
    verdict = CardJudge(card(expected, symbols)).judge("b", given)
    assert verdict.correct is correct, verdict
    if feedback is not None:
        assert feedback in verdict.feedback, verdict
    if not correct:
        assert "looks like" not in verdict.feedback or "rounded" in verdict.feedback
        if "0.64" in given:
            assert "7/11" not in verdict.feedback, verdict


@pytest.mark.parametrize(("symbols", "expected", "given", "correct", "feedback"), CASES)
def test_through_quizzer_check(invoke, tmp_path, symbols, expected, given, correct, feedback):
    path = tmp_path / "equal.yaml"
    path.write_text(yaml.safe_dump(card_data(expected, symbols)), encoding="utf-8")
    result = invoke("check", str(path), "-a", given, "--json")
    assert result.exit_code == (0 if correct else 1), result.output
    blank = json.loads(result.stdout)["blanks"][0]
    assert blank["correct"] is correct
    if feedback is not None:
        assert feedback in blank["feedback"]


@pytest.mark.parametrize("given", ["0.64", "0.636", "0.6363"])
def test_an_exact_blank_refuses_rounded_decimals(given):
    verdict = CardJudge(card("log(4) - 3/4", REAL, exact=True)).judge("b", given)
    assert not verdict.correct
    assert "7/11" not in verdict.feedback


def test_the_exact_form_is_right_on_an_exact_blank():
    assert CardJudge(card("log(4) - 3/4", REAL, exact=True)).judge("b", "2 log(2) - 0.75").correct


def test_points_out_of_reach_never_count_as_agreement():
    # equal where 50 digits can reach, out of reach at most points: no verdict
    # of "equal" from the points (SymPy may still prove it: 0 times anything is 0)
    judge = CardJudge(card("sqrt(d_k)", POSITIVE))
    tree = parse("sqrt(d_k) + 0*d_k^d_k^d_k^d_k", judge.table)
    comparison = judge.compare(judge.compiled("b").expected, tree, judge.values_of(tree))
    assert comparison.equal is None and comparison.out_of_reach > comparison.valid


# -- the verdict is built by keyword, with named constructors -----------------------------


def test_verdict_is_keyword_only():
    with pytest.raises(TypeError):
        Verdict("b", "x", True, "correct")  # type: ignore[misc]


def test_named_constructors():
    assert Verdict.unanswered("b") == Verdict(
        blank="b", given="", correct=False, status="unanswered", feedback="not answered"
    )
    large = Verdict.too_large("b", "9^9^9", "too large to judge")
    assert (large.status, large.decided_by, large.correct) == ("too_large", "limits", False)


# -- mutants and the audit -----------------------------------------------------------------


def test_mutants_print_back_to_their_own_trees():
    table = SymbolTable(canonical={"x": "x", "a": "a", "n": "n"})
    tree = parse("sqrt(x^2 + a)/log(n) - 2*a*x", table)
    for mutant in mutants(tree, integers=frozenset({"n"})):
        assert parse(to_text(mutant.tree), table) is not None, mutant
    kinds = {m.kind for m in mutants(tree, integers=frozenset({"n"}))}
    assert {"sign", "reciprocal", "square", "root", "factor", "drop-root", "drop-term",
            "swap", "off-by-one", "log-base", "drop-factor"} <= kinds  # fmt: skip


def test_a_loose_domain_is_a_mutant_accepted_error():
    # x declared positive: sqrt(x^2) is x there, and so abs(x) passes for x
    loose = card("sqrt(x^2)", {"x": {"positive": True}})
    report = audit_card(loose)
    assert report.ok  # the same function on that domain: not a mutant error


def test_a_card_with_a_tight_answer_passes_the_audit():
    report = audit_card(card("sqrt(d_k) + r", POSITIVE))
    assert report.ok, report.problems
    assert all(isinstance(p, AuditProblem) for p in report.problems)


def test_audit_json_and_exit_codes(invoke, tmp_path):
    path = tmp_path / "equal.yaml"
    path.write_text(yaml.safe_dump(card_data("sqrt(d_k) + r", POSITIVE)), encoding="utf-8")
    result = invoke("audit", str(path), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"ok", "cards", "problems"} and data["ok"] is True and data["cards"] == 1
    for problem in data["problems"]:
        assert set(problem) == {"card", "blank", "kind", "answer", "message"}
        assert problem["kind"] in ("mutant-accepted", "form-refused", "mutant-generic")
    assert invoke("audit", "no-such-card").exit_code == 2
    assert invoke("audit", "--no-such-option").exit_code == 2


def test_audit_reports_a_refused_form_as_an_error(invoke, tmp_path, monkeypatch):
    from quizzer.answers import audit

    monkeypatch.setattr(audit, "printed_forms", lambda tree, judge: ["d_k r sqrt(("])
    path = tmp_path / "equal.yaml"
    path.write_text(yaml.safe_dump(card_data("sqrt(d_k) + r", POSITIVE)), encoding="utf-8")
    result = invoke("audit", str(path), "--json")
    assert result.exit_code == 1
    kinds = [p["kind"] for p in json.loads(result.stdout)["problems"]]
    assert "form-refused" in kinds


def test_audit_text_output(invoke):
    result = invoke("audit", "attention")
    assert result.exit_code == 0, result.output
    assert "1 cards audited: 0 errors" in result.stdout
