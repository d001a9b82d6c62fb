"""Finding cards by the words they contain: ``--search TEXT`` (DESIGN.md, contract item 19).

Every word of TEXT must occur in the card (as a word or the start of one),
in its title, prompt, tags, answers or teaching sections; case and accents do
not matter (``softmax`` finds "Softmax", ``regularise`` finds "régularise").
Matches are ranked by SQLite FTS5's BM25 with a title match worth most, then
tags, prompt, answers and teaching text.

The deck cache keeps a full-text index beside each cached card
(:mod:`quizzer.cards.cache`), so searching 10,000 cached cards reads no card
file. Cards the cache does not hold (no usable cache, or a cache that could
not be written) are indexed in memory for the one query, with the same
ranking.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from quizzer.cards.cache import database
from quizzer.cards.fulltext import TABLE_SQL, WEIGHTS, search_columns
from quizzer.errors import QuizzerError

if TYPE_CHECKING:
    from quizzer.cards.deck import LoadedCard

_WORD = re.compile(r"\w+")


def words_of(text: str) -> list[str]:
    """The words of a search, folded as the index folds them; none is a usage error."""
    words = [fold(word) for word in _WORD.findall(text)]
    if not words:
        raise QuizzerError(f"nothing to search for in {text!r}: give at least one word")
    return words


def fold(text: str) -> str:
    """``text`` without case or accents, as the index compares it."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def match_expression(words: Sequence[str]) -> str:
    """An FTS5 query asking for every word, each as a word or a word's start.

    Each word is quoted, so nothing the learner types is read as FTS5 syntax
    (``NOT``, ``:``, ``*``, parentheses).
    """
    return " AND ".join('"' + word.replace('"', '""') + '"*' for word in words)


def search_cards(cards: Sequence[LoadedCard], text: str) -> list[LoadedCard]:
    """Of ``cards``, those containing every word of ``text``, best match first.

    Equally good matches keep the order given. Raises :class:`QuizzerError`
    when ``text`` has no word in it.
    """
    words = words_of(text)
    scores = _scores_from_cache(cards, words)
    if scores is None:
        scores = _scores_in_memory(cards, words)
    order = {id(card): index for index, card in enumerate(cards)}
    found = [card for card in cards if str(card.path) in scores]
    return sorted(found, key=lambda card: (scores[str(card.path)], order[id(card)]))


def _scores_from_cache(
    cards: Sequence[LoadedCard], words: Sequence[str]
) -> dict[str, float] | None:
    """BM25 scores by card path from the deck cache's index (None: it lacks some card)."""
    db = database()
    if db is None:
        return None
    try:
        indexed = {str(path) for (path,) in db.execute("SELECT path FROM cards")}
        if not all(str(card.path) in indexed for card in cards):
            return None
        rows = db.execute(
            f"SELECT cards.path, bm25(search, {', '.join(map(str, WEIGHTS))}) FROM search"
            " JOIN cards ON cards.rowid = search.rowid WHERE search MATCH ?",
            (match_expression(words),),
        ).fetchall()
    except sqlite3.Error:
        return None
    wanted = {str(card.path) for card in cards}
    scores: dict[str, float] = {}
    for path, score in rows:
        if path in wanted:
            scores[path] = min(float(score), scores.get(path, float("inf")))
    return scores


def _scores_in_memory(cards: Sequence[LoadedCard], words: Sequence[str]) -> dict[str, float]:
    """The same ranking over an index built for this one query."""
    rows = [(str(c.path), search_columns(c.card.model_dump(mode="json"))) for c in cards]
    try:
        db = sqlite3.connect(":memory:")
    except sqlite3.Error:  # pragma: no cover - an in-memory database always opens
        return _scores_without_fts(rows, words)
    try:
        db.execute(TABLE_SQL)
        db.executemany(
            "INSERT INTO search (rowid, title, tags, prompt, answers, teaching)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(index, *columns) for index, (_, columns) in enumerate(rows)],
        )
        found = db.execute(
            f"SELECT rowid, bm25(search, {', '.join(map(str, WEIGHTS))}) FROM search"
            " WHERE search MATCH ?",
            (match_expression(words),),
        ).fetchall()
    except sqlite3.OperationalError:  # an SQLite built without FTS5
        return _scores_without_fts(rows, words)
    finally:
        db.close()
    return {rows[index][0]: float(score) for index, score in found}


def _scores_without_fts(
    rows: Iterable[tuple[str, tuple[str, ...]]], words: Sequence[str]
) -> dict[str, float]:
    """Every word as a word's start in some column; more weighted matches rank first."""
    scores = {}
    for path, columns in rows:
        tokens = [_WORD.findall(fold(column)) for column in columns]
        total = 0.0
        for word in words:
            hits = [
                weight * sum(token.startswith(word) for token in column)
                for weight, column in zip(WEIGHTS, tokens, strict=True)
            ]
            if not any(hits):
                break
            total += sum(hits)
        else:
            scores[path] = -total  # BM25 scores are negative: lower is better
    return scores
