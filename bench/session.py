"""Time to first question and first-verdict latency of `quizzer quiz`, in a real terminal.

Run: python bench/session.py [--runs N] [--think SECONDS]
Targets (issues 4 and 18): first question under 0.5 s; every verdict under 0.1 s
once the first question has been on screen for 2 s; the verdict of an answer
typed the instant the first question appears (--think 0) under 0.3 s, which
must not wait for SymPy (it is read back later, or not at all).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

import pexpect


def one_run(think_seconds: float) -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "QUIZZER_DB": os.path.join(folder, "p.db"),
            "TERM": "dumb",
            "NO_COLOR": "1",
        }
        started = time.perf_counter()
        child = pexpect.spawn(
            sys.executable,
            ["-m", "quizzer", "quiz", "attention"],
            env=env,
            encoding="utf-8",
            timeout=30,
            dimensions=(40, 80),
        )
        child.delaybeforesend = None  # pexpect sleeps 50 ms before each send by default
        child.expect_exact("[1] scale › ")
        first_question = time.perf_counter() - started
        time.sleep(think_seconds)
        sent = time.perf_counter()
        child.sendline("d_k^(1/2)")
        child.expect_exact("✓ [1] scale")
        first_verdict = time.perf_counter() - sent
        child.expect_exact("[2] values › ")
        sent = time.perf_counter()
        child.sendline("K")
        child.expect_exact("keys are only used")
        second_verdict = time.perf_counter() - sent
        child.sendline("/quit")
        child.expect(pexpect.EOF)
        child.close()
        return first_question, first_verdict, second_verdict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--think", type=float, default=2.0, help="seconds before answering")
    args = parser.parse_args()
    runs = [one_run(args.think) for _ in range(args.runs)]
    labels = [
        "first question on screen",
        f"first verdict after {args.think:g} s",
        "a wrong-answer verdict",
    ]
    targets = ["< 500 ms", "< 300 ms" if args.think == 0 else "< 100 ms", "< 100 ms"]
    print(f"quizzer quiz attention, {args.runs} runs in a pty")
    for index, label in enumerate(labels):
        values = [run[index] * 1000 for run in runs]
        print(
            f"  {label:<30} median {statistics.median(values):7.1f} ms"
            f"  max {max(values):7.1f} ms   (target {targets[index]})"
        )


if __name__ == "__main__":
    main()
