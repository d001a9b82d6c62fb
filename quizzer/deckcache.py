"""A cache of validated cards, so a warm start neither parses YAML nor validates.

One JSON file per deck folder in the user cache folder, keyed by each card
file's path, size and modification time. Only cards that passed every check
are cached; a file that changed, or a cache written by another quizzer
version, is simply read again. Any trouble with the cache (unreadable,
corrupt, read-only folder) falls back to reading the cards; it never fails a
command.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from quizzer import __version__

CACHE_ENV = "QUIZZER_CACHE"
FORMAT = f"{__version__}/1"


def cache_folder() -> Path:
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("quizzer", appauthor=False)) / "decks"


def _stamp(stat: os.stat_result) -> list[int]:
    return [stat.st_size, stat.st_mtime_ns]


class DeckCache:
    """Cached card data for the files under one deck source."""

    def __init__(self, source: Path) -> None:
        key = hashlib.sha256(str(source.resolve()).encode()).hexdigest()[:20]
        self.path = cache_folder() / f"{key}.json"
        self.entries: dict[str, Any] = {}
        self.changed = False
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("format") == FORMAT and isinstance(data.get("cards"), dict):
                self.entries = data["cards"]
        except (OSError, ValueError, AttributeError):
            pass

    def get(self, path: Path, stat: os.stat_result) -> dict[str, Any] | None:
        entry = self.entries.get(str(path))
        if isinstance(entry, dict) and entry.get("stamp") == _stamp(stat):
            card = entry.get("card")
            return card if isinstance(card, dict) else None
        return None

    def put(self, path: Path, stat: os.stat_result, card: dict[str, Any]) -> None:
        self.entries[str(path)] = {"stamp": _stamp(stat), "card": card}
        self.changed = True

    def keep_only(self, paths: set[str]) -> None:
        """Forget files that are gone, so the cache does not grow forever."""
        for stale in set(self.entries) - paths:
            del self.entries[stale]
            self.changed = True

    def save(self) -> None:
        if not self.changed:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.path.parent, suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump({"format": FORMAT, "cards": self.entries}, out, ensure_ascii=False)
            os.replace(temporary, self.path)  # atomic: readers see the old or the new file
            self.changed = False
        except OSError:
            pass
