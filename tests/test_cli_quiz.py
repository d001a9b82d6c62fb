"""`quizzer quiz` and `quizzer stats` from the command line, piped and in a real terminal."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing

import pexpect
import pytest

from .conftest import ATTENTION, MINIMAL_CARD, quizzer_in_a_terminal

CONTRACT_STATS = ("attempts", "correct", "cards_seen", "accuracy", "sessions")


def stats(invoke, *args):
    """The contract's stats fields (DESIGN.md item 9; more fields may follow)."""
    data = json.loads(invoke("stats", "--json", *args).stdout)
    return {key: data[key] for key in CONTRACT_STATS}


def test_piped_session_answers_both_blanks(invoke):
    result = invoke("quiz", "attention", input="sqrt(d_k)\nV\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "✓ [1] scale  sqrt(d_k)" in out and "✓ [2] values  V" in out
    assert "softmax(Q Kᵀ / sqrt(d_k)) V" in out
    for section in (
        "Explanation",
        "Red flags",
        "What an interviewer would ask next",
        "60-second review",
        "Session summary",
    ):
        assert section in out
    assert "accuracy 100% (2 of 2 answers right)" in out
    assert stats(invoke) == {
        "attempts": 2,
        "correct": 2,
        "cards_seen": 1,
        "accuracy": 1.0,
        "sessions": 1,
    }


def test_end_of_input_mid_card_keeps_what_was_answered(invoke):
    result = invoke("quiz", "attention", input="d_k\n")
    assert result.exit_code == 0
    assert "stopped: end of input" in result.stdout
    data = stats(invoke)
    assert (data["attempts"], data["correct"], data["accuracy"]) == (1, 0, 0.0)


def test_a_card_stopped_before_any_answer_is_not_a_miss(invoke):
    result = invoke("quiz", "attention", "causal-mask", "--brief", input="sqrt(d_k)\nV\n/quit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "causal-mask (not answered)" in out
    assert "attention (not answered)" not in out
    assert stats(invoke)["cards_seen"] == 1  # and nothing was scheduled for it


def test_empty_input_is_a_clean_stop(invoke):
    result = invoke("quiz", "attention", input="")
    assert result.exit_code == 0 and "Session summary" in result.stdout


def test_wrong_hint_reveal_skip_quit(invoke, write_card):
    second = write_card(MINIMAL_CARD.format(id="second"), "deck/second.yaml")
    lines = "d_k\n?\n?\n!\n/skip\n/quit\n"
    result = invoke("quiz", "attention", str(second), input=lines)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert (
        "2 tries left" in out
        and "hint:" in out
        and "stronger hint: the answer looks like: sqrt(□)" in out
    )
    assert "answer [1] scale: sqrt(d_k)" in out
    assert "attention (skipped)" in out
    assert "stopped: quit" in out


def test_brief_shows_only_red_flags_and_bullets(invoke):
    out = invoke("quiz", "attention", "--brief", input="sqrt(d_k)\nV\n").stdout
    assert "Red flags" in out and "60-second review" in out
    assert "Explanation" not in out and "What an interviewer" not in out


def test_no_record_leaves_no_database(invoke, isolated_environment):
    result = invoke("quiz", str(ATTENTION), "--no-record", input="sqrt(d_k)\nV\n")
    assert result.exit_code == 0
    assert not (isolated_environment / "progress.db").exists()


def test_db_option_and_tries(invoke, tmp_path):
    db = tmp_path / "mine.db"
    result = invoke("quiz", "attention", "--db", str(db), "--tries", "1", input="d_k\nV\n")
    assert result.exit_code == 0
    assert "out of tries — answer [1] scale: sqrt(d_k)" in result.stdout
    assert stats(invoke, "--db", str(db))["attempts"] == 2
    assert invoke("--db", str(db), "stats", "--json").exit_code == 0


def test_selection_by_tag_limit_and_errors(invoke):
    assert invoke("quiz", "--tag", "attention", "--limit", "1", input="").exit_code == 0
    result = invoke("quiz", "--tag", "no-such-tag", input="")
    assert result.exit_code == 2 and "no cards with tag no-such-tag" in result.stderr
    assert invoke("quiz", "nope", input="").exit_code == 2
    assert invoke("quiz", "--limit", "0", input="").exit_code == 2


def test_a_foreign_database_is_refused_and_kept(invoke, tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("not a database")
    result = invoke("quiz", "attention", "--db", str(path), input="sqrt(d_k)\n")
    assert result.exit_code == 2
    assert "not a quizzer progress database" in result.stderr
    assert path.read_text() == "not a database"
    assert invoke("stats", "--db", str(path)).exit_code == 2


def test_stats_without_a_database(invoke):
    assert stats(invoke) == {
        "attempts": 0,
        "correct": 0,
        "cards_seen": 0,
        "accuracy": 0.0,
        "sessions": 0,
    }
    assert "answers judged" in invoke("stats").stdout


def quizzer_command():
    return [sys.executable, "-m", "quizzer"]


@pytest.mark.slow
def test_killed_process_loses_no_judged_attempt(tmp_path):
    db = tmp_path / "p.db"
    env = {**os.environ, "QUIZZER_DB": str(db)}
    process = subprocess.Popen(
        [*quizzer_command(), "quiz", "attention", "attention"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    process.stdin.write("d_k\nsqrt(d_k)\n")
    process.stdin.flush()
    deadline = time.monotonic() + 30
    count = 0
    while time.monotonic() < deadline:
        if db.exists():
            count = count_attempts(db)
            if count == 2:
                break
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    process.stdin.close()
    with closing(sqlite3.connect(db)) as connection:
        rows = connection.execute("SELECT given, correct FROM attempts ORDER BY id").fetchall()
    assert rows == [("d_k", 0), ("sqrt(d_k)", 1)]


def count_attempts(db) -> int:
    try:
        with closing(sqlite3.connect(db)) as connection:
            return connection.execute("SELECT count(*) FROM attempts").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


@pytest.mark.slow
def test_real_terminal_flow(tmp_path):
    child = quizzer_in_a_terminal(
        tmp_path, "quiz", "attention", rows=40, LINES="40", QUIZZER_PAGER=""
    )
    try:
        child.expect_exact("Attention(Q, K, V) = softmax(Q Kᵀ / [1]) [2]")
        child.expect_exact("[1] scale › ")
        child.sendline("d_k")
        child.expect_exact("standard deviation")
        child.expect_exact("[1] scale (try 2 of 3) › ")
        child.sendline("?")
        child.expect_exact("hint:")
        child.sendline("d_k^(1/2)")
        # "read as sqrt(d_k)" follows only once SymPy has loaded: an answer typed in
        # a session's first second gets the numeric verdict alone (issue 18).
        child.expect_exact("✓ [1] scale")
        child.expect_exact("[2] values › ")
        child.sendline("V")
        child.expect_exact("Explanation")  # the card back, then one key a section
        child.expect_exact("n next card › ")
        child.send("f")
        child.expect_exact("What an interviewer would ask next")
        child.expect_exact("Q1. Why is the constant sqrt(d_k)")
        child.expect_exact("Enter shows the approach")
        assert "Derive" not in child.before
        child.sendline("")
        child.expect_exact("Show Var(q · k) = d_k")
        for _ in range(4):
            child.expect_exact("Enter shows the approach")
            child.sendline("")
        child.expect_exact("n next card › ")
        child.send("n")
        child.expect_exact("next review in")  # the recap above the rating prompt
        child.expect_exact("rated Hard · ")  # a retry and a hint: Hard
        child.expect_exact("Enter keeps › ")
        child.send("3")  # one key, no Enter
        child.expect_exact("scheduled Good")
        # Good on a new card is its 10-minute learning step: nothing else is left, so
        # it comes back at once (Anki's 20-minute learn-ahead); /quit ends there.
        child.expect_exact("card 2 of 2")
        child.expect_exact("[1] scale › ")
        child.sendline("/quit")
        child.expect_exact("Session summary")
        child.expect_exact("accuracy 67% (2 of 3 answers right)")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_ctrl_c_prints_the_summary_and_keeps_progress(tmp_path):
    db = tmp_path / "p.db"
    child = quizzer_in_a_terminal(tmp_path, "quiz", "attention", rows=40)
    child.expect_exact("[1] scale › ")
    child.sendline("sqrt(d_k)")
    child.expect_exact("[2] values › ")
    # Sent the instant the prompt appears, on purpose: that once hung, because the
    # kernel gave SIGINT to the SymPy warm-up thread and input() never woke.
    child.sendintr()
    child.expect_exact("Session summary")
    child.expect_exact("stopped: interrupted")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert count_attempts(db) == 1


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_background_threads_never_take_ctrl_c():
    # A SIGINT taken by a background thread never wakes input() in the main thread.
    import threading

    from quizzer.cli.terminal import start_without_interrupts

    masks: dict[str, set[int]] = {}

    def grandchild() -> None:
        masks["grandchild"] = set(signal.pthread_sigmask(signal.SIG_BLOCK, []))

    def child() -> None:
        masks["child"] = set(signal.pthread_sigmask(signal.SIG_BLOCK, []))
        inner = threading.Thread(target=grandchild)  # as OpenBLAS starts its pool
        inner.start()
        inner.join()

    thread = threading.Thread(target=child)
    start_without_interrupts(thread)
    thread.join()
    assert signal.SIGINT in masks["child"]
    assert signal.SIGINT in masks["grandchild"]
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])  # main restored


def test_answers_can_be_edited_and_recalled_in_a_terminal(tmp_path):
    child = quizzer_in_a_terminal(
        tmp_path, "quiz", "attention", "--no-rate-prompt", "--brief", rows=40, TERM="xterm"
    )
    child.expect_exact("[1] scale › ")
    child.send("d_k\r")  # wrong: costs a try
    child.expect_exact("[1] scale (try 2 of 3) › ")
    # Up recalls "d_k"; Home, type "sqrt(", End, type ")": sqrt(d_k).
    child.send("\x1b[A")
    child.send("\x1b[H")
    child.send("sqrt(")
    child.send("\x1b[F")
    child.send(")\r")
    child.expect(r"✓\S* \S*\[1\] scale\S*  sqrt\(d_k\)")  # bold codes between the words
    child.expect_exact("[2] values › ")
    child.send("W\x7fV\r")  # Backspace works too
    child.expect(r"✓\S* \S*\[2\] values")
    # A retry makes it Hard, still in its first learning step: it comes back at once.
    child.expect_exact("[1] scale › ")
    child.send("/quit\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_waiting_for_a_line_ticks_and_then_restores_the_timer():
    from quizzer.cli.terminal import interrupts_reach_input

    before = signal.getsignal(signal.SIGALRM)
    with interrupts_reach_input(0.05):
        assert signal.getitimer(signal.ITIMER_REAL)[1] == pytest.approx(0.05)
        woken = []
        previous = signal.getsignal(signal.SIGALRM)
        signal.signal(signal.SIGALRM, lambda *args: woken.append(previous(*args)))
        time.sleep(0.3)  # each tick wakes the sleep, which Python then resumes
        assert len(woken) >= 3
        signal.signal(signal.SIGALRM, previous)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is before


BRACKETED_CARD = """\
id: brackets
title: "E[y²] and [bold]not bold[/bold]"
prompt: "E[x²] = {{second}} for [red] x"
symbols:
  x: {}
blanks:
  second:
    answer: x^2
    hint: "think [italic]x·x[/italic]"
    wrong:
      - answer: x
        feedback: "that is E[x], not E[x²]"
explanation: "E[y²] is the [b]second moment[/b]."
red_flags: ["confusing E[x]² with E[x²]"]
follow_ups:
  - question: "what is [link=x]Var[x][/link]?"
    approach: "E[x²] − E[x]²"
bullets: ["ReLU keeps half of E[y²]", "[dim]not dim[/dim]"]
"""


def test_card_text_is_shown_as_written_never_as_rich_markup(invoke, write_card):
    # Rich markup once swallowed "[y²]" from "E[y²]" in a bullet.
    path = write_card(BRACKETED_CARD)
    result = invoke("quiz", str(path), "--no-record", input="?\nx\nx^2\n")
    assert result.exit_code == 0, result.output
    shown = result.stdout
    for text in (
        "E[y²] and [bold]not bold[/bold]",
        "for [red] x",
        "think [italic]x·x[/italic]",
        "that is E[x], not E[x²]",
        "[b]second moment[/b]",
        "confusing E[x]² with E[x²]",
        "what is [link=x]Var[x][/link]?",
        "ReLU keeps half of E[y²]",
        "[dim]not dim[/dim]",
    ):
        assert text in shown, text
    shown = invoke("show", str(path)).stdout
    assert "ReLU keeps half of E[y²]" in shown and "[dim]not dim[/dim]" in shown


def test_readline_leaves_ctrl_c_to_python():
    readline = pytest.importorskip("readline")
    ctypes = pytest.importorskip("ctypes")
    from quizzer.ui.console import _leave_signals_to_python

    try:
        flag = ctypes.c_int.in_dll(ctypes.CDLL(readline.__file__), "rl_catch_signals")
    except (OSError, ValueError):
        pytest.skip("this readline does not expose rl_catch_signals (libedit)")
    before = flag.value
    try:
        _leave_signals_to_python(readline)
        assert flag.value == 0
    finally:
        flag.value = before


ONCE_CARD = MINIMAL_CARD.format(id="saved-once") + "tags: [saved-once]\n"


def stored_attempts(db) -> list[tuple[str, str, int, int]]:
    with closing(sqlite3.connect(db)) as connection:
        return connection.execute(
            "SELECT card_id, given, correct, revealed FROM attempts ORDER BY id"
        ).fetchall()


@pytest.mark.parametrize(
    ("command", "lines", "expected"),
    [
        # A wrong try, a right one, then a reveal: three answers, three rows.
        (
            ["quiz", "attention"],
            "d_k\nsqrt(d_k)\n!\n",
            [
                ("attention", "d_k", 0, 0),
                ("attention", "sqrt(d_k)", 1, 0),
                ("attention", "!", 0, 1),
            ],
        ),
        (
            ["review", "--tag", "saved-once", "--new", "1"],
            "2*m\nm\n",
            [
                ("saved-once", "2*m", 0, 0),
                ("saved-once", "m", 1, 0),
            ],
        ),
        (["drill", "--tag", "saved-once", "--seed", "1"], "2*m\n", [("saved-once", "2*m", 0, 0)]),
    ],
    ids=["quiz", "review", "drill"],
)
def test_each_attempt_is_stored_exactly_once(
    invoke, write_card, tmp_path, command, lines, expected
):
    # The study loop saves each attempt from its event; the session must not save it too.
    card = write_card(ONCE_CARD, "deck/saved-once.yaml")
    db = tmp_path / "once.db"
    result = invoke(*command, "--deck", str(card.parent), "--db", str(db), input=lines)
    assert result.exit_code == 0, result.output
    assert stored_attempts(db) == expected
    assert stats(invoke, "--db", str(db))["attempts"] == len(expected)
