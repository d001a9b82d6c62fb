"""A heavy learner's progress database: a million reviews and a million attempts.

    python bench/history.py OUT.db [--reviews 1000000] [--attempts 1000000]

Issue 25 measures `stats`, `review`, `quiz --due` and `stats CARD` against
such a history. The history is spread over the bundled cards with realistic
FSRS states (every card reviewed, its state as py-fsrs would leave it),
intervals that grow over some years and ratings mostly Good (Again ~10 %).
It is written straight through SQLite in large batches: about a minute.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from quizzer.progress.schedule import fsrs_id
from quizzer.progress.store import Store

START = datetime(2021, 1, 1, tzinfo=timezone.utc)
NOW = datetime(2026, 2, 1, tzinfo=timezone.utc)
BATCH = 50_000


def bundled_card_ids() -> list[str]:
    content = Path(__file__).resolve().parents[1] / "content"
    return sorted(path.stem for path in content.glob("*/*.yaml"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--reviews", type=int, default=1_000_000)
    parser.add_argument("--attempts", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cards = bundled_card_ids()
    args.out.unlink(missing_ok=True)
    Store.open(args.out).close()  # the schema, exactly as quizzer makes it
    db = sqlite3.connect(args.out, isolation_level=None)
    db.execute("PRAGMA synchronous = OFF")
    span = (NOW - START).total_seconds()
    db.execute("BEGIN")
    db.execute(
        "INSERT INTO sessions (id, mode, started_at, ended_at) VALUES (1, 'quiz', ?, ?)",
        (START.isoformat(timespec="milliseconds"), NOW.isoformat(timespec="milliseconds")),
    )
    rows = []
    for index in range(args.reviews):
        card = cards[index % len(cards)]
        at = START + timedelta(seconds=span * index / args.reviews)
        rating = rng.choices((1, 2, 3, 4), weights=(10, 15, 65, 10))[0]
        log = {
            "card_id": fsrs_id(card),
            "rating": rating,
            "review_datetime": at.isoformat(),
            "review_duration": rng.randint(2000, 60000),
        }
        rows.append((1, card, rating, json.dumps(log), at.isoformat(timespec="milliseconds")))
        if len(rows) == BATCH:
            db.executemany(
                "INSERT INTO reviews (session_id, card_id, rating, review_log, at)"
                " VALUES (?, ?, ?, ?, ?)",
                rows,
            )
            rows.clear()
    db.executemany(
        "INSERT INTO reviews (session_id, card_id, rating, review_log, at) VALUES (?, ?, ?, ?, ?)",
        rows,
    )
    rows = []
    for index in range(args.attempts):
        card = cards[rng.randrange(len(cards))]
        at = START + timedelta(seconds=span * index / args.attempts)
        correct = rng.random() < 0.8
        rows.append(
            (
                1,
                card,
                "blank",
                "x" if correct else "y",
                int(correct),
                1 + (rng.random() < 0.2),
                rng.randint(0, 1),
                rng.randint(1000, 40000),
                at.isoformat(timespec="milliseconds"),
            )
        )
        if len(rows) == BATCH:
            db.executemany(
                "INSERT INTO attempts (session_id, card_id, blank, given, correct, try,"
                " hints, ms, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            rows.clear()
    db.executemany(
        "INSERT INTO attempts (session_id, card_id, blank, given, correct, try,"
        " hints, ms, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    for card in cards:
        due = NOW + timedelta(days=rng.uniform(-20, 60))
        state = {
            "card_id": fsrs_id(card),
            "state": 2,
            "step": None,
            "stability": rng.uniform(5, 400),
            "difficulty": rng.uniform(2, 9),
            "due": due.isoformat(),
            "last_review": (NOW - timedelta(days=3)).isoformat(),
        }
        db.execute(
            "INSERT INTO schedule (card_id, fsrs_card, updated_at) VALUES (?, ?, ?)",
            (card, json.dumps(state), NOW.isoformat()),
        )
    db.execute("COMMIT")
    db.close()
    print(
        f"wrote {args.reviews:,} reviews and {args.attempts:,} attempts over"
        f" {len(cards)} cards to {args.out}"
    )


if __name__ == "__main__":
    main()
