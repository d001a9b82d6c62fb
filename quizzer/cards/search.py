"""Finding cards by the words they contain: ``--search TEXT`` (DESIGN.md, contract item 19).

Every word of TEXT must occur in the card (as a word or the start of one),
in its title, prompt, tags, answers or teaching sections; case and accents do
not matter (``softmax`` finds "Softmax", ``regularise`` finds "régularise").
Matches are ranked first by where each word is found (its best column: the
title far above the tags, the tags above the prompt and answers, those
above the teaching text; :data:`~quizzer.cards.fulltext.COLUMN_WORTH`), then
by SQLite FTS5's BM25 with the same column order.

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
from quizzer.cards.fulltext import COLUMN_WORTH, COLUMNS, TABLE_SQL, WEIGHTS, search_columns
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
    return " AND ".join(_quoted(word) for word in words)


def _quoted(word: str) -> str:
    return '"' + word.replace('"', '""') + '"*'


#: A card's rank, lower first: minus the worth of where its words are found; the
#: length of its title in words when a word is in it (of two titles holding the
#: words, the one with fewer others is the closer); then BM25.
Rank = tuple[float, int, float]


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


def _scores_from_cache(cards: Sequence[LoadedCard], words: Sequence[str]) -> dict[str, Rank] | None:
    """Ranks by card path from the deck cache's index (None: it lacks some card)."""
    db = database()
    if db is None:
        return None
    try:
        paths = dict(db.execute("SELECT rowid, path FROM cards").fetchall())
        indexed = set(paths.values())
        if not all(str(card.path) in indexed for card in cards):
            return None
        ranks = _ranks(db, words)
    except sqlite3.Error:
        return None
    wanted = {str(card.path) for card in cards}
    scores: dict[str, Rank] = {}
    for rowid, rank in ranks.items():
        path = paths.get(rowid)
        if path in wanted:
            scores[path] = min(rank, scores.get(path, rank))
    return scores


def _ranks(db: sqlite3.Connection, words: Sequence[str]) -> dict[int, Rank]:
    """The rank of every indexed row holding all of ``words``, by rowid.

    One query finds the rows, their BM25 and their titles; then, per word, one
    query per tier above the teaching text says where the word is (a word in
    none of them is in the teaching text, since every word is somewhere).
    Measured on 10,000 cached cards (a machine shared by eight): 130 ms for a
    search one card matches, 440 ms for a word every card holds (BM25 over all
    of them is most of it); BM25 alone took 60 and 260 ms.
    """
    weights = ", ".join(map(str, WEIGHTS))
    found: dict[int, float] = {}
    title_words: dict[int, int] = {}
    for rowid, score, title in db.execute(
        f"SELECT rowid, bm25(search, {weights}), title FROM search WHERE search MATCH ?",
        (match_expression(words),),
    ):
        found[rowid] = float(score)
        title_words[rowid] = len(_WORD.findall(str(title)))
    worth = dict.fromkeys(found, 0.0)
    in_title: set[int] = set()
    for word in words:
        best: dict[int, float] = {}
        # Highest tier first: a row keeps the first (best) worth it is given.
        for columns, value in _TIERS:
            for (rowid,) in db.execute(
                "SELECT rowid FROM search WHERE search MATCH ?", (f"{columns} : {_quoted(word)}",)
            ):
                if rowid in found and rowid not in best:
                    best[rowid] = value
                    if columns == "title":
                        in_title.add(rowid)
        for rowid in found:
            worth[rowid] += best.get(rowid, _TEACHING_WORTH)
    return {
        rowid: (-worth[rowid], title_words[rowid] if rowid in in_title else 0, score)
        for rowid, score in found.items()
    }


def _tiers() -> tuple[list[tuple[str, int]], int]:
    """FTS5 column filters from the best worth down, each with its worth; and the last
    column's worth (what a word found nowhere before it is worth)."""
    by_worth: dict[int, list[str]] = {}
    for column, value in zip(COLUMNS, COLUMN_WORTH, strict=True):
        by_worth.setdefault(value, []).append(column)
    tiers = [
        (names[0] if len(names) == 1 else "{" + " ".join(names) + "}", value)
        for value, names in by_worth.items()
    ]
    return tiers[:-1], tiers[-1][1]


_TIERS, _TEACHING_WORTH = _tiers()


def _scores_in_memory(cards: Sequence[LoadedCard], words: Sequence[str]) -> dict[str, Rank]:
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
        ranks = _ranks(db, words)
    except sqlite3.OperationalError:  # an SQLite built without FTS5
        return _scores_without_fts(rows, words)
    finally:
        db.close()
    return {rows[index][0]: rank for index, rank in ranks.items()}


def _scores_without_fts(
    rows: Iterable[tuple[str, tuple[str, ...]]], words: Sequence[str]
) -> dict[str, Rank]:
    """Every word as a word's start in some column; ranked as FTS5 ranks, with a
    weighted count of matches in place of BM25."""
    scores = {}
    for path, columns in rows:
        tokens = [_WORD.findall(fold(column)) for column in columns]
        worth = total = 0.0
        in_title = False
        for word in words:
            hits = [sum(token.startswith(word) for token in column) for column in tokens]
            if not any(hits):
                break
            worth += max(value for value, hit in zip(COLUMN_WORTH, hits, strict=True) if hit)
            total += sum(weight * hit for weight, hit in zip(WEIGHTS, hits, strict=True))
            in_title = in_title or bool(hits[0])
        else:
            # BM25 scores are negative: lower is better.
            scores[path] = (-worth, len(tokens[0]) if in_title else 0, -total)
    return scores
