"""Backups of progress: export to versioned JSON and import (merging) from it."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from quizzer.errors import QuizzerError
from quizzer.progress import schedule
from quizzer.progress.store import Attempt, Review, Store, iso

EXPORT_FORMAT = "quizzer-progress"
EXPORT_VERSION = 1


# -- backups --------------------------------------------------------------------------------


def export_progress(store: Store) -> dict[str, Any]:
    """All progress as versioned JSON data."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "attempts": [
            {
                "card": a.card_id,
                "blank": a.blank,
                "given": a.given,
                "correct": a.correct,
                "try": a.try_number,
                "hints": a.hints,
                "ms": a.ms,
                "at": iso(a.at),
                "overridden": a.overridden,
            }
            for a in store.attempts()
        ],
        "reviews": [
            {"card": r.card_id, "rating": r.rating, "review_log": r.review_log, "at": iso(r.at)}
            for r in store.reviews()
        ],
        "schedule": store.fsrs_cards(),
    }


class BadBackup(QuizzerError):
    """A progress file that quizzer cannot import."""


def read_backup(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadBackup(f"no such file: {path}") from None
    except IsADirectoryError:
        raise BadBackup(f"{path} is a folder, not a progress file") from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise BadBackup(f"{path} is not a quizzer progress file ({error})") from None
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise BadBackup(f"{path} is not a quizzer progress file")
    if data.get("version") != EXPORT_VERSION:
        raise BadBackup(
            f"{path} has progress format version {data.get('version')!r};"
            f" this quizzer reads version {EXPORT_VERSION}"
        )
    return data


def import_progress(store: Store, data: Mapping[str, Any], now: datetime) -> int:
    """Merge exported progress into ``store``. Returns the attempts added.

    Attempts and reviews already present are not added twice, so importing the
    same file again changes nothing. A card's schedule is taken from the file
    only when the file's last review of it is more recent.
    """
    try:
        attempts = [
            Attempt(
                str(a["card"]),
                str(a["blank"]),
                str(a["given"]),
                bool(a["correct"]),
                int(a["try"]),
                int(a["hints"]),
                int(a["ms"]),
                datetime.fromisoformat(a["at"]),
                bool(a.get("overridden", False)),
            )
            for a in data.get("attempts", [])
        ]
        reviews = [
            Review(
                str(r["card"]),
                int(r["rating"]),
                dict(r["review_log"]),
                datetime.fromisoformat(r["at"]),
            )
            for r in data.get("reviews", [])
        ]
        incoming = {str(k): dict(v) for k, v in dict(data.get("schedule", {})).items()}
        for state in incoming.values():
            schedule.due_at(state)
    except (KeyError, TypeError, ValueError) as error:
        raise BadBackup(f"progress file has a malformed entry ({error})") from None
    # Counting keys (rather than a set) keeps genuine repeats within one file.
    have_attempts = Counter((a.card_id, a.blank, a.given, a.at) for a in store.attempts())
    have_reviews = Counter((r.card_id, r.at) for r in store.reviews())
    states = store.fsrs_cards()
    new_attempts = []
    for attempt in attempts:
        key = (attempt.card_id, attempt.blank, attempt.given, attempt.at)
        if have_attempts[key]:
            have_attempts[key] -= 1
        else:
            new_attempts.append(attempt)
    session = store.start_session("import", now) if new_attempts or reviews else None
    for attempt in new_attempts:
        store.record_attempt(session, attempt)
    for item in reviews:
        if have_reviews[(item.card_id, item.at)]:
            have_reviews[(item.card_id, item.at)] -= 1
            continue
        mine, theirs = states.get(item.card_id), incoming.get(item.card_id)
        newer = theirs is not None and (mine is None or _last(theirs) >= _last(mine))
        state = theirs if newer and theirs is not None else mine
        if state is None:
            continue
        store.save_review(
            Review(item.card_id, item.rating, item.review_log, item.at, session), state
        )
        states[item.card_id] = state
    if session is not None:
        store.end_session(session, now)
    return len(new_attempts)


def _last(state: Mapping[str, Any]) -> str:
    return str(state.get("last_review") or "")
