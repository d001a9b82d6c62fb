"""What the full-text index of ``--search`` holds for a card, and how it is built.

A leaf of :mod:`quizzer.cards`: the deck cache writes these columns beside
each cached card, and :mod:`quizzer.cards.search` queries them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The indexed columns, in order, and what a match in each is worth to BM25.
COLUMNS = ("title", "tags", "prompt", "answers", "teaching")
WEIGHTS = (10.0, 6.0, 4.0, 3.0, 1.0)
#: What one searched word is worth in the best column it occurs in: the ranking's first key.
#: BM25 alone could not put the title first: its term frequency saturates (k1) and a
#: long card is marked down for its length, so qk-norm (attention and dot products
#: all through its teaching text) outranked "Scaled dot-product attention" for
#: "dot product attention". A word in the title outweighs every word found anywhere
#: else (a search has fewer than ten words), a word in the tags outweighs any in the
#: prompt, answers and teaching text; BM25 orders the cards that tie.
COLUMN_WORTH = (1000, 100, 10, 10, 1)
#: remove_diacritics 2 also folds letters whose accent is a separate code point.
TOKENIZER = "unicode61 remove_diacritics 2"
TABLE_SQL = (
    f"CREATE VIRTUAL TABLE IF NOT EXISTS search USING fts5({', '.join(COLUMNS)},"
    f" tokenize = '{TOKENIZER}')"
)
_CARD_FIELDS = {"id", "title", "prompt", "tags", "blanks", "level", "related"}


def search_columns(card: Mapping[str, Any]) -> tuple[str, str, str, str, str]:
    """A card's text (as cached JSON data) by indexed column."""
    teaching = " ".join(_strings(value) for key, value in card.items() if key not in _CARD_FIELDS)
    blanks = card.get("blanks") or {}
    answers = (
        " ".join(_strings(blank) for blank in blanks.values())
        if isinstance(blanks, Mapping)
        else ""
    )
    return (
        str(card.get("title", "")),
        " ".join(str(tag) for tag in card.get("tags") or []),
        str(card.get("prompt", "")),
        answers,
        teaching,
    )


def _strings(value: object) -> str:
    """Every string inside ``value`` (nested lists and mappings included), joined."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return " ".join(_strings(v) for v in value.values())
    if isinstance(value, list | tuple):
        return " ".join(_strings(v) for v in value)
    return ""
