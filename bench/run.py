"""All of quizzer's performance figures in one table.

    python bench/run.py            # about two minutes on a 2-core machine
    python bench/run.py --quick    # fewer repetitions, 2,000-card decks

Targets come from the issues: --help and list start-up close to a bare
`import typer, rich`; first question under 0.5 s; verdicts under 0.1 s;
judge p99 under 10 ms; pathological answers under 0.3 s; list of 10,000 cards
under 1 s; memory under 300 MB.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import judge as judge_bench  # noqa: E402  (bench/judge.py)
import session as session_bench  # noqa: E402  (bench/session.py)


def timed(command: list[str], env: dict[str, str], runs: int) -> tuple[float, float]:
    """Median wall time (s) and peak RSS (MB) of a command.

    Peak memory comes from GNU time's %M for this command alone (RUSAGE_CHILDREN
    would report the largest child so far); without GNU time it is left at 0.
    """
    gnu_time = Path("/usr/bin/time")
    times, peak = [], 0.0
    for _ in range(runs):
        wrapped = [str(gnu_time), "-f", "%M", *command] if gnu_time.exists() else command
        started = time.perf_counter()
        result = subprocess.run(
            wrapped,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=True,
        )
        times.append(time.perf_counter() - started)
        if gnu_time.exists():
            peak = max(peak, int(result.stderr.strip().splitlines()[-1]) / 1024)
    return statistics.median(times), peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    runs = 3 if args.quick else 7
    big = 2_000 if args.quick else 10_000
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "QUIZZER_DB": f"{folder}/p.db",
            "QUIZZER_CACHE": f"{folder}/cache",
            "NO_COLOR": "1",
        }
        quizzer = [sys.executable, "-m", "quizzer"]
        bare, _ = timed([sys.executable, "-c", "import typer, rich"], env, runs)
        helped, _ = timed([*quizzer, "--help"], env, runs)
        listed, _ = timed([*quizzer, "list"], env, runs)
        rows += [
            ("bare `import typer, rich`", f"{bare * 1000:.0f} ms", "reference"),
            ("quizzer --help", f"{helped * 1000:.0f} ms ({helped / bare:.1f}×)", "close to bare"),
            (
                "quizzer list (40 cards)",
                f"{listed * 1000:.0f} ms ({listed / bare:.1f}×)",
                "close to bare",
            ),
        ]
        first = [session_bench.one_run(2.0) for _ in range(max(3, runs // 2))]
        rows += [
            (
                "first question on screen",
                f"{statistics.median(r[0] for r in first) * 1000:.0f} ms",
                "< 500 ms",
            ),
            (
                "verdict after 2 s of reading",
                f"{max(r[1] for r in first) * 1000:.0f} ms (max)",
                "< 100 ms",
            ),
        ]
        samples, worst = judge_bench.measure(rounds=3 if args.quick else 5)
        rows += [
            (
                "judge p50 / p99",
                f"{judge_bench.percentile(samples, 0.5):.1f} / "
                f"{judge_bench.percentile(samples, 0.99):.1f} ms",
                "p99 < 10 ms",
            ),
            ("worst pathological answer", f"{worst:.0f} ms", "< 300 ms"),
        ]
        deck = Path(folder) / "big"
        subprocess.run(
            [sys.executable, str(HERE / "make_deck.py"), str(big), str(deck)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        cold, _ = timed([*quizzer, "list", "--deck", str(deck)], env, 1)
        warm, list_mb = timed([*quizzer, "list", "--deck", str(deck)], env, runs)
        rows += [
            (f"list, {big:,} cards (first, cold cache)", f"{cold:.2f} s", ""),
            (f"list, {big:,} cards (cached)", f"{warm:.2f} s, {list_mb:.0f} MB", "< 1 s, < 300 MB"),
        ]
        small = Path(folder) / "small"
        count = 500 if args.quick else 1_000
        subprocess.run(
            [sys.executable, str(HERE / "make_deck.py"), str(count), str(small)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        validated, validate_mb = timed([*quizzer, "validate", str(small)], env, 1)
        rows.append(
            (
                f"validate, {count:,} cards, {os.cpu_count()} cores",
                f"{count / validated:.0f} cards/s, {validate_mb:.0f} MB",
                "uses every core",
            )
        )
    width = max(len(r[0]) for r in rows)
    print(
        f"quizzer benchmarks — {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {platform.system()}"
    )
    print(f"{'measure':<{width}}  {'figure':<24}  target")
    for name, figure, target in rows:
        print(f"{name:<{width}}  {figure:<24}  {target}")


if __name__ == "__main__":
    main()
