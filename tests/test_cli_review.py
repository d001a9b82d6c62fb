"""`quizzer review`, `stats` and `progress` from the command line."""

from __future__ import annotations

import json

import pytest


def quiz(invoke, *answers, card="attention"):
    result = invoke("quiz", card, input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.output
    return result


def test_quiz_schedules_the_card(invoke):
    out = quiz(invoke, "sqrt(d_k)", "V").stdout
    assert "scheduled Easy · next review in" in out


def test_review_after_a_quiz_is_not_due_until_the_clock_moves(invoke, monkeypatch):
    quiz(invoke, "d_k", "d_k", "d_k", "V")  # scale failed: Again, due again within minutes
    result = invoke("review", "--new", "0", input="")
    assert result.exit_code == 0
    assert "Nothing due. Next: attention, in " in result.stdout
    assert "quizzer quiz" in result.stdout
    monkeypatch.setenv("QUIZZER_NOW", "2099-01-01T00:00:00Z")
    result = invoke("review", "--new", "0", input="sqrt(d_k)\nV\n")
    assert result.exit_code == 0
    assert "Review: 1 due, 0 new" in result.stdout
    assert "scheduled" in result.stdout


def test_review_offers_new_cards_up_to_the_limit(invoke):
    result = invoke("review", "--new", "1", input="")
    assert "Review: 0 due, 1 new" in result.stdout
    result = invoke("review", "--new", "0", input="")
    assert "Nothing to review" in result.stdout


def test_a_bad_clock_is_a_usage_error(invoke, monkeypatch):
    monkeypatch.setenv("QUIZZER_NOW", "next tuesday")
    result = invoke("review", input="")
    assert result.exit_code == 2 and "QUIZZER_NOW is not an ISO 8601 time" in result.stderr


def test_stats_report_and_json(invoke):
    quiz(invoke, "d_k", "sqrt(d_k)", "V")
    data = json.loads(invoke("stats", "--json").stdout)
    assert (data["attempts"], data["correct"], data["cards_seen"]) == (3, 2, 1)
    assert data["accuracy"] == pytest.approx(2 / 3)
    assert data["streak_days"] == 1 and data["reviews"] == 1 and len(data["forecast"]) == 14
    assert {t["tag"] for t in data["tags"]} == {"transformers", "attention"}
    assert data["weakest"][0]["card"] == "attention"
    out = invoke("stats").stdout
    for heading in ("answers judged", "By tag", "Due in the next 14 days", "Weakest cards"):
        assert heading in out


def test_stats_for_one_card(invoke):
    quiz(invoke, "d_k", "sqrt(d_k)", "V")
    out = invoke("stats", "attention").stdout
    assert "next review" in out and "sqrt(d_k)" in out and "✗" in out
    data = json.loads(invoke("stats", "attention", "--json").stdout)
    assert [a["given"] for a in data["attempts"]] == ["d_k", "sqrt(d_k)", "V"]
    assert len(data["reviews"]) == 1


@pytest.mark.parametrize(
    ("name", "code", "shown"),
    [
        ("attentoin", 2, "unknown card 'attentoin'; did you mean attention"),
        ("attention#follow-1", 0, "not scheduled yet"),
        ("no-such-card#follow-1", 2, "unknown card 'no-such-card'"),
        ("no-such-card", 2, "unknown card 'no-such-card'"),
        ("layer-norm", 0, "no answers yet"),
    ],
)
def test_stats_for_a_card_with_no_history_tells_a_typo_from_an_unstudied_card(
    invoke, name, code, shown
):
    quiz(invoke, "sqrt(d_k)", "V")
    result = invoke("stats", name)
    assert result.exit_code == code, result.output
    if code == 2:
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    if shown is not None:
        assert shown in (result.stderr if code else result.stdout)


def test_progress_export_import_reset(invoke, tmp_path):
    quiz(invoke, "sqrt(d_k)", "V")
    backup = tmp_path / "backup.json"
    assert invoke("progress", "export", str(backup)).exit_code == 0
    data = json.loads(backup.read_text())
    assert data["format"] == "quizzer-progress" and len(data["attempts"]) == 2
    refused = invoke("progress", "reset")
    assert refused.exit_code == 2 and "--yes" in refused.stderr
    assert invoke("progress", "reset", "--yes").exit_code == 0
    assert json.loads(invoke("stats", "--json").stdout)["attempts"] == 0
    result = invoke("progress", "import", str(backup))
    assert result.exit_code == 0 and "imported 2 new answers" in result.stderr
    assert json.loads(invoke("stats", "--json").stdout)["attempts"] == 2
    assert "imported 0 new answers" in invoke("progress", "import", str(backup)).stderr
    assert invoke("progress", "reset", "attention", "--yes").exit_code == 0
    assert json.loads(invoke("stats", "--json").stdout)["attempts"] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["progress", "import", "/no/such.json"], "no such file"),
        (["progress", "export", "/no/such/folder/x.json"], "no progress to export"),
        (["stats", "attention"], "no progress yet"),
    ],
)
def test_progress_errors(invoke, args, message):
    result = invoke(*args)
    assert result.exit_code == 2 and message in result.stderr


def test_export_to_an_unwritable_place(invoke, tmp_path):
    quiz(invoke, "sqrt(d_k)", "V")
    result = invoke("progress", "export", str(tmp_path / "missing" / "x.json"))
    assert result.exit_code == 2 and "cannot write" in result.stderr


def test_import_a_file_that_is_not_a_backup(invoke, tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{}")
    result = invoke("progress", "import", str(path))
    assert result.exit_code == 2 and "not a quizzer progress file" in result.stderr


def test_an_answer_changed_in_substance_is_pointed_out(invoke, tmp_path):
    from .conftest import ATTENTION

    card = tmp_path / "mine.yaml"
    text = ATTENTION.read_text().replace("id: attention", "id: my-attention")
    card.write_text(text)
    quiz(invoke, "sqrt(d_k)", "V", card=str(card))
    card.write_text(text.replace("    answer: sqrt(d_k)", "    answer: d_k^(1/2)"))
    assert "changed since" not in invoke("validate", str(card)).stdout  # same meaning
    card.write_text(text.replace("    answer: sqrt(d_k)", "    answer: d_k"))
    result = invoke("validate", str(card))
    assert "warning: the answer changed since it was last reviewed (was sqrt(d_k))" in result.stdout
    out = invoke("quiz", str(card), input="d_k\nV\n").stdout
    assert "note: the answer to my-attention [scale] changed since your last review" in out
    out = invoke("quiz", str(card), input="d_k\nV\n").stdout
    assert "changed since" not in out  # said once
