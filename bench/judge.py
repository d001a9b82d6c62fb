"""Judge latency: p50/p99 over every example of the bundled deck, and pathological inputs.

Run: python bench/judge.py [--rounds N]
Targets (issue 13): p99 under 10 ms per judgement, warm; every pathological
input under 0.3 s (the regression list of tests/slow_answers.py included).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import threading
import time
from pathlib import Path

from quizzer.answers import CardJudge, judge_bounded
from quizzer.cards.deck import deck_sources, load_deck

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.slow_answers import SLOW_ANSWERS

PATHOLOGICAL = {
    "9**9**9**9": "9**9**9**9",
    "factorial(10**10)": "factorial(10**10)",
    "10,000-deep nesting": "(" * 10_000 + "d_k" + ")" * 10_000,
    "400-deep nesting": "(" * 400 + "d_k" + ")" * 400,
    "100 kB answer": "d_k+" * 25_000,
    "(d_k-1)^9999 twice": "(d_k-1)^9999 - (1-d_k)^9999",
    "exp(exp(exp(9)))": "exp(exp(exp(9)))",
    "factorial(1999)^5": "factorial(1999)^5",
    "400 terms": "+".join(["d_k"] * 399),
    "1e9999 literal": "1e9999 d_k",
    "10^10^dk! (fuzz find)": "10^10^dk!",
    "exp of exp of 1e10 (fuzz find)": "e^(sigmoid(exp((10^10)-abs(d_k))))²9^9",
    "max(1e-6, 1e6)! (atheris find)": "max(0.000001, 1/0.000001)!",
    **{text if len(text) <= 30 else text[:27] + "...": text for text in SLOW_ANSWERS},
}


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def measure(rounds: int = 5) -> tuple[list[float], float]:
    """Judge latencies (ms) over every example of the deck, and the worst pathological one."""
    deck = load_deck(deck_sources())
    cases = [
        (CardJudge(loaded.card), name, example.answer)
        for loaded in deck.cards
        for name, blank in loaded.card.blanks.items()
        for example in blank.examples
    ]
    for judge, name, text in cases:
        judge_bounded(judge, name, text)
    samples = []
    for _ in range(rounds):
        for judge, name, text in cases:
            started = time.perf_counter()
            judge_bounded(judge, name, text)
            samples.append((time.perf_counter() - started) * 1000)
    attention = CardJudge(deck.find("attention").card)
    worst = 0.0
    for text in PATHOLOGICAL.values():
        started = time.perf_counter()
        judge_bounded(attention, "scale", text)
        worst = max(worst, (time.perf_counter() - started) * 1000)
    return samples, worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5, help="times to judge every example")
    args = parser.parse_args()

    samples, _ = measure(args.rounds)
    print(
        f"machine: {platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.system()}"
    )
    print(f"judge: {len(samples)} judgements over the deck's examples ({args.rounds} rounds)")
    print(f"  p50 {percentile(samples, 0.50):7.2f} ms")
    print(f"  p99 {percentile(samples, 0.99):7.2f} ms   (target < 10 ms)")
    print(f"  max {max(samples):7.2f} ms   mean {statistics.mean(samples):.2f} ms")
    attention = CardJudge(load_deck(deck_sources()).find("attention").card)
    print("pathological inputs (target < 300 ms each):")
    for label, text in PATHOLOGICAL.items():
        started = time.perf_counter()
        verdict = judge_bounded(attention, "scale", text)
        elapsed = (time.perf_counter() - started) * 1000
        print(f"  {label:<30} {elapsed:8.2f} ms  {verdict.status}: {verdict.feedback}")
    print("from another thread, through the warm child process (no timer signal there):")
    started = time.perf_counter()
    in_thread(judge_bounded, attention, "scale", "d_k")
    print(f"  child start-up {(time.perf_counter() - started) * 1000:8.1f} ms (once per process)")
    thread_samples = []
    for text in ["d_k^(1/2)", "d_k", "log(d_k)", "2*sqrt(d_k)", "\\sqrt{d_k}"] * 40:
        started = time.perf_counter()
        in_thread(judge_bounded, attention, "scale", text)
        thread_samples.append((time.perf_counter() - started) * 1000)
    print(
        f"  p50 {percentile(thread_samples, 0.50):7.2f} ms   "
        f"p99 {percentile(thread_samples, 0.99):7.2f} ms  ({len(thread_samples)} judgements)"
    )


def in_thread(function, *args):  # type: ignore[no-untyped-def]
    result = []
    thread = threading.Thread(target=lambda: result.append(function(*args)))
    thread.start()
    thread.join()
    return result[0]


if __name__ == "__main__":
    main()
