"""Import time and peak memory of `quizzer progress import` for a large backup.

Run: python bench/backup.py [--reviews N] [--attempts N]
Targets (issue 16): a backup of 1,000,000 reviews imports in under 60 s and
500 MB; importing it again (everything already there) takes under 30 s.

`main()` returns the figures, for bench/run.py.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

CARDS = 1000
START = datetime(2024, 1, 1, tzinfo=timezone.utc)


def write_synthetic_backup(path: Path, reviews: int, attempts: int) -> None:
    """A backup as `progress export` writes it: one entry per line, times in UTC milliseconds."""
    with path.open("w", encoding="utf-8") as out:
        out.write('{"format": "quizzer-progress", "version": 1,\n"attempts": [')
        for n in range(attempts):
            at = (START + timedelta(seconds=n, milliseconds=n % 1000)).isoformat(
                timespec="milliseconds"
            )
            entry = {
                "card": f"card-{n % CARDS}",
                "blank": "scale",
                "given": f"sqrt(d_k) * {n}",
                "correct": n % 3 != 0,
                "try": 1 + n % 2,
                "hints": 0,
                "ms": 1000 + n % 5000,
                "at": at,
                "overridden": False,
            }
            out.write(("\n" if n == 0 else ",\n") + json.dumps(entry))
        out.write('\n],\n"reviews": [')
        for n in range(reviews):
            at = (START + timedelta(seconds=n)).isoformat(timespec="milliseconds")
            log = {
                "card_id": n % CARDS,
                "rating": 1 + n % 4,
                "review_datetime": at,
                "review_duration": 1000 + n % 9000,
            }
            entry = {"card": f"card-{n % CARDS}", "rating": 1 + n % 4, "review_log": log, "at": at}
            out.write(("\n" if n == 0 else ",\n") + json.dumps(entry))
        out.write('\n],\n"schedule": {')
        last = START + timedelta(seconds=reviews)
        for n in range(CARDS):
            state = {
                "card_id": n,
                "state": 2,
                "step": None,
                "stability": 3.2,
                "difficulty": 5.5,
                "due": (last + timedelta(days=3)).isoformat(),
                "last_review": last.isoformat(),
            }
            out.write(("\n" if n == 0 else ",\n") + f'"card-{n}": {json.dumps(state)}')
        out.write("\n}}\n")


def run_import(backup: Path, env: dict[str, str]) -> tuple[float, float, float, str]:
    """Wall time (s), CPU time (s), peak RSS (MB) and quizzer's message.

    CPU time and peak memory come from GNU time (0 without it). On a shared
    machine the wall time swings with the load; the CPU time much less.
    """
    gnu_time = Path("/usr/bin/time")
    command = [sys.executable, "-m", "quizzer", "progress", "import", str(backup)]
    if gnu_time.exists():
        command = [str(gnu_time), "-f", "measured %M %U %S", *command]
    started = time.perf_counter()
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    elapsed = time.perf_counter() - started
    lines = result.stderr.strip().splitlines()
    peak = cpu = 0.0
    if lines and lines[-1].startswith("measured "):
        _, kb, user, system = lines.pop().split()
        peak, cpu = int(kb) / 1024, float(user) + float(system)
    return elapsed, cpu, peak, lines[-1] if lines else ""


def main(reviews: int = 1_000_000, attempts: int = 0) -> dict[str, float]:
    """Import a synthetic backup twice into a fresh database; return the figures."""
    with tempfile.TemporaryDirectory() as folder:
        backup = Path(folder) / "backup.json"
        write_synthetic_backup(backup, reviews, attempts)
        env = {**os.environ, "QUIZZER_DB": f"{folder}/p.db", "NO_COLOR": "1"}
        first, first_cpu, first_peak, first_note = run_import(backup, env)
        again, again_cpu, again_peak, again_note = run_import(backup, env)
        size = backup.stat().st_size
    print(f"first import: {first_note}", file=sys.stderr)
    print(f"re-import:    {again_note}", file=sys.stderr)
    return {
        "reviews": reviews,
        "attempts": attempts,
        "backup_mb": size / 2**20,
        "import_s": first,
        "import_cpu_s": first_cpu,
        "import_peak_mb": first_peak,
        "reimport_s": again,
        "reimport_cpu_s": again_cpu,
        "reimport_peak_mb": again_peak,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reviews", type=int, default=1_000_000)
    parser.add_argument("--attempts", type=int, default=0)
    args = parser.parse_args()
    figures = main(args.reviews, args.attempts)
    print(
        f"{figures['reviews']:,} reviews + {figures['attempts']:,} attempts"
        f" ({figures['backup_mb']:.0f} MB): import {figures['import_s']:.1f} s"
        f" (CPU {figures['import_cpu_s']:.1f} s), {figures['import_peak_mb']:.0f} MB peak;"
        f" re-import {figures['reimport_s']:.1f} s (CPU {figures['reimport_cpu_s']:.1f} s),"
        f" {figures['reimport_peak_mb']:.0f} MB peak (targets: < 60 s and < 500 MB; < 30 s)"
    )
