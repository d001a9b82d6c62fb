"""One Anki note as one quizzer card.

- A cloze note: each cloze number is a blank named ``c1``, ``c2``, … in the
  prompt, its answer the cloze's text and its hint the cloze's hint
  (``{{c1::answer::hint}}``); a number used again later is its own blank
  (``c1_2``), since a quizzer gap appears once.
- Any other note (Basic, Basic and reversed, type in the answer, …): the first
  field is the question, the second the one blank's answer; a long back
  keeps its first line as the answer and the whole back as the explanation.
- Further fields become the explanation, in Markdown; tags are kept in
  quizzer's spelling (``Europe::France`` → ``europe-france``).

Answers are words: an answer that is not a plain phrase ("Paris, France",
``mc^2``) is answered by its words, the text as written accepted too.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from quizzer.imports.anki_package import AnkiNote
from quizzer.imports.html_text import MATH, Pieces, mark, media_in, plain_text, to_markdown

_OPENER = re.compile(r"\{\{c(\d+)::")
_TOKEN = re.compile(r"\{\{c(\d+)::|\}\}")
#: How long a title may be before it is cut at a word.
TITLE_LENGTH = 70


class NoteSkipped(Exception):
    """The note cannot be a card; the message says why, in a few words."""


@dataclass(frozen=True)
class Cloze:
    number: int
    answer_html: str
    hint_html: str | None
    start: int
    end: int


def clozes_in(text: str) -> list[Cloze]:
    """The top-level clozes of a field, as Anki reads them: a cloze ends at the first
    ``}}`` after it, and its hint follows its first ``::``."""
    found: list[Cloze] = []
    depth_start: int | None = None
    number = 0
    for token in _TOKEN.finditer(text):
        if token.group(1) is not None:
            if depth_start is not None:
                raise NoteSkipped("nested clozes (a cloze inside a cloze)")
            depth_start, number = token.start(), int(token.group(1))
        elif depth_start is not None:
            inner = text[_OPENER.match(text, depth_start).end() : token.start()]  # type: ignore[union-attr]
            answer, _, hint = inner.partition("::")
            found.append(Cloze(number, answer, hint or None, depth_start, token.end()))
            depth_start = None
    return found


def _no_gap_braces(text: str) -> str:
    """``{{`` and ``}}`` from the note itself (LaTeX ``x^{{2}}``) must not read as gaps."""
    while "{{" in text or "}}" in text:
        text = text.replace("{{", "{ {").replace("}}", "} }")
    return text


def kebab(text: str) -> str:
    """Lower-case kebab-case ASCII: the spelling of quizzer ids and tags."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "-".join(re.findall(r"[a-z0-9]+", ascii_text.lower()))


def quizzer_tags(tags: tuple[str, ...]) -> list[str]:
    return [tag for tag in dict.fromkeys(kebab(t) for t in tags) if tag]


def guid_hash(guid: str, length: int = 6) -> str:
    return hashlib.sha256(guid.encode("utf-8")).hexdigest()[:length]


def card_id_for(guid: str, title: str, length: int = 6) -> str:
    """A readable id that no other note shares: the title's first words and the GUID's hash."""
    words = kebab(title).split("-")[:5]
    stem = "-".join(w for w in words if w)[:40].strip("-") or "anki"
    return f"{stem}-{guid_hash(guid, length)}"


def title_from(text: str) -> str:
    text = text.strip() or "Anki note"
    if len(text) <= TITLE_LENGTH:
        return text
    cut = text[:TITLE_LENGTH].rsplit(" ", 1)[0].rstrip(",;:")
    return f"{cut}…"


def word_blank(answer: str, hint: str | None) -> dict[str, Any]:
    """A blank answered in words, whatever the answer looks like."""
    from quizzer.answers.judge import is_phrase

    blank: dict[str, Any] = {"answer": answer}
    if not is_phrase(answer) and not _is_number(answer):
        words = " ".join(re.findall(r"[^\W_]+(?:['’-][^\W_]+)*", answer))
        if not words:
            raise NoteSkipped(f"the answer '{answer}' has no words to type")
        blank = {"answer": words, "also": [answer]}
    if hint:
        blank["hint"] = hint
    return blank


def _is_number(text: str) -> bool:
    return bool(re.fullmatch(r"-?\d+(\.\d+)?", text))


@dataclass(frozen=True)
class ConvertedNote:
    """The card a note became (as data for YAML) and the media it mentions."""

    data: dict[str, Any]
    media: frozenset[str]


def convert_note(note: AnkiNote) -> ConvertedNote:
    """The card data for ``note``; raises :class:`NoteSkipped` when there can be none."""
    fields = [value for _, value in note.fields]
    media = frozenset(name for value in fields for name in media_in(value))
    if "image-occlusion:" in (fields[0] if fields else ""):
        raise NoteSkipped("an image occlusion note: its question is an image")
    if note.is_cloze:
        prompt, title, blanks, rest = _cloze(fields)
    else:
        prompt, title, blanks, rest = _basic(fields)
    data: dict[str, Any] = {
        "id": card_id_for(note.guid, title),
        "title": title,
        "tags": quizzer_tags(note.tags),
        "prompt": prompt,
        "blanks": blanks,
    }
    explanation = "\n\n".join(part for part in (to_markdown(value) for value in rest) if part)
    if explanation:
        data["explanation"] = explanation
    return ConvertedNote(data, media)


def _cloze(fields: list[str]) -> tuple[str, str, dict[str, Any], list[str]]:
    text = fields[0] if fields else ""
    clozes = clozes_in(text)
    if not clozes:
        raise NoteSkipped("a cloze note without a cloze")
    pieces, blanks, seen = Pieces(), {}, dict[int, int]()
    parts, last = [], 0
    for cloze in clozes:
        seen[cloze.number] = seen.get(cloze.number, 0) + 1
        name = f"c{cloze.number}" + (f"_{seen[cloze.number]}" if seen[cloze.number] > 1 else "")
        answer = plain_text(cloze.answer_html)
        if not answer:
            raise NoteSkipped(f"cloze c{cloze.number} is empty or only media")
        hint = plain_text(cloze.hint_html) if cloze.hint_html else None
        blanks[name] = word_blank(answer, hint or None)
        parts.append(text[last : cloze.start])
        parts.append(pieces.keep(f"{{{{{name}}}}}"))
        last = cloze.end
    parts.append(text[last:])
    source = "".join(parts)
    prompt = _fill(to_markdown(source, pieces, markdown=False), pieces)
    title_text = plain_text(re.sub(r"\ue000\d+\ue001", "…", source))
    return prompt, title_from(title_text), blanks, fields[1:]


def _fill(text: str, pieces: Pieces) -> str:
    text = _no_gap_braces(text)
    for index, piece in enumerate(pieces.kept):
        text = text.replace(mark(index), piece)
    return text


def _basic(fields: list[str]) -> tuple[str, str, dict[str, Any], list[str]]:
    if len(fields) < 2:
        raise NoteSkipped("a note type with one field: no question and answer")
    front, back = fields[0], fields[1]
    question = _no_gap_braces(to_markdown(front, markdown=False))
    if not question:
        raise NoteSkipped("the front has no text (only media or nothing)")
    shown = MATH.sub(lambda m: m.group(1) or m.group(2) or "", to_markdown(back, markdown=False))
    lines = [re.sub(r"\s+", " ", line).strip() for line in shown.splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        raise NoteSkipped("the back has no text (only media or nothing)")
    rest = fields[2:]
    if len(lines) > 1:  # the first line is the answer; the whole back is shown after it
        rest = [back, *rest]
    prompt = f"{question}\n\n{{{{answer}}}}"
    return prompt, title_from(plain_text(front)), {"answer": word_blank(lines[0], None)}, rest
