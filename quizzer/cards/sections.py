"""The teaching sections of a card, in reading order: one table that every view reads.

The terminal (``show``, after a card, a brief run), the Markdown sheet, Anki
backs, the drill cheat sheet, the ``quizzer new`` template, ``validate
--strict`` and docs/writing-cards.md all walk :data:`SECTIONS`. Each view
renders a section by its :attr:`Section.kind`, so adding a section of an
existing kind is one line here; a new kind needs one renderer per view.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import Literal, Protocol

#: How a section's value is shaped, and so how every view draws it.
#: prose: Markdown text. code: Python source, shown highlighted and never run.
#: list: short lines, shown as bullets. follow_ups: {question, approach} pairs.
#: sources: {title, authors, year, url}. related: card ids.
Kind = Literal["prose", "code", "list", "follow_ups", "sources", "related"]


class Depth(IntEnum):
    """How much of a card a view shows; each view takes every section up to its depth."""

    #: The minimum to keep in mind: a brief run, the drill's cheat sheet.
    REVIEW = 1
    #: What to read right after answering: after a card, the Markdown sheet, Anki backs.
    STUDY = 2
    #: The whole card: ``show``.
    REFERENCE = 3


@dataclass(frozen=True)
class Section:
    """One teaching section of a card."""

    field: str  # the card field (and YAML key) that holds it
    title: str  # its heading in every view
    kind: Kind
    depth: Depth  # the shallowest view that shows it
    about: str  # what to write in it: the template's placeholder and the docs' description
    strict: bool = True  # required by ``validate --strict``


SECTIONS: tuple[Section, ...] = (
    Section("intuition", "Intuition", "prose", Depth.REFERENCE,
            "the plain-language picture, without symbols"),
    Section("explanation", "Explanation", "prose", Depth.STUDY,
            "the mechanics and the derivation (Markdown)"),
    Section("worked_example", "Worked example", "prose", Depth.STUDY,
            "the formula with real numbers, step by step (Markdown)"),
    Section("code", "Code", "code", Depth.STUDY,
            "a short numpy snippet that computes the formula and checks it with an assert;"
            " shown, never run by quizzer"),
    Section("red_flags", "Red flags", "list", Depth.REVIEW,
            "a phrase that signals junior thinking, as a candidate would say it"),
    Section("follow_ups", "What an interviewer would ask next", "follow_ups", Depth.STUDY,
            "what an interviewer asks next, and how a strong candidate answers"),
    Section("limitations", "Where it stops working", "list", Depth.REFERENCE,
            "where the technique stops working"),
    Section("used_in", "Used in", "list", Depth.REFERENCE,
            "a real model, library or paper that uses it"),
    Section("bullets", "60-second review", "list", Depth.REVIEW,
            "what to remember in 60 seconds"),
    Section("sources", "Sources", "sources", Depth.REFERENCE,
            "the primary paper or textbook first"),
    Section("related", "Related", "related", Depth.REFERENCE,
            "ids of cards to practise next", strict=False),
)  # fmt: skip

#: The sections ``validate --strict`` requires.
STRICT_SECTIONS: tuple[str, ...] = tuple(s.field for s in SECTIONS if s.strict)

#: Each section by the field that holds it.
BY_FIELD = {section.field: section for section in SECTIONS}


def sections_to(depth: Depth) -> Iterator[Section]:
    """The sections a view of ``depth`` shows, in reading order."""
    return (s for s in SECTIONS if s.depth <= depth)


class Cited(Protocol):
    """What a citation is made of (a card's Source; the model imports this module)."""

    @property
    def title(self) -> str: ...
    @property
    def authors(self) -> str | None: ...
    @property
    def year(self) -> int | None: ...


def citation(source: Cited) -> str:
    """How every view cites a source: ``Title — Authors, Year``, with the parts it gives."""
    who = ", ".join(str(part) for part in (source.authors, source.year) if part)
    return source.title + (f" — {who}" if who else "")
