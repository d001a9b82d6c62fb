"""Exporting cards as an Anki package of type-in cloze notes.

Nothing here prints; each function writes one file (or returns text).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from pathlib import Path

from quizzer.cards.model import GAP, Card
from quizzer.files import atomic_writer

#: Fixed ids, so that re-importing an updated export updates the same note type and deck.
ANKI_MODEL_ID = 1_736_200_417
ANKI_DECK_ID = 2_059_400_211
ANKI_DECK_NAME = "quizzer"

_CLOZE_CSS = """\
.card { font-family: -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 20px;
        text-align: left; color: #222; background: #fff; }
.cloze { font-weight: bold; color: #1565c0; }
.nightMode .cloze { color: #90caf9; }
.title { font-size: 14px; color: #666; margin-bottom: 0.6em; }
.extra h4 { margin: 1em 0 0.2em; }
.extra ul { margin-top: 0.2em; }
"""


def _cloze_safe(text: str) -> str:
    # Inside {{c1::...}}, "}}" would close the cloze and "::" would start a hint.
    return text.replace("}}", "} }").replace("::", ": :")


def cloze_text(card: Card) -> str:
    """The prompt as Anki cloze text: each blank a numbered cloze with its hint."""
    numbers = {name: index for index, name in enumerate(card.blanks, start=1)}

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        blank = card.blanks[name]
        hint = f"::{_cloze_safe(html.escape(blank.hint))}" if blank.hint else ""
        return f"{{{{c{numbers[name]}::{_cloze_safe(html.escape(blank.answer))}{hint}}}}}"

    pieces = [f'<div class="title">{html.escape(card.title)}</div>']
    last = 0
    for match in GAP.finditer(card.prompt):
        pieces.append(html.escape(card.prompt[last : match.start()]))
        pieces.append(replace(match))
        last = match.end()
    pieces.append(html.escape(card.prompt[last:]))
    return "".join(pieces)


def _latex(card: Card, blank: str) -> str | None:
    """The blank's answer as LaTeX, when it is a formula quizzer can read."""
    try:
        from sympy import latex

        from quizzer.answers.judge import symbol_table
        from quizzer.answers.symbolic import to_sympy
        from quizzer.answers.syntax import AnswerError, parse

        table = symbol_table(card)
        try:
            return str(latex(to_sympy(parse(card.blanks[blank].answer, table), table)))
        except AnswerError:
            return None
    except Exception:  # a printer gap must not stop an export
        return None


def back_extra(card: Card) -> str:
    """The teaching sections as HTML, with each answer in MathJax."""
    parts = ['<div class="extra">']
    answers = []
    for name, blank in card.blanks.items():
        tex = _latex(card, name)
        shown = f"\\({html.escape(tex)}\\)" if tex else html.escape(blank.answer)
        answers.append(f"<li><b>{html.escape(name)}</b>: {shown}</li>")
    parts.append("<h4>Answers</h4><ul>" + "".join(answers) + "</ul>")
    if card.explanation:
        parts.append("<h4>Explanation</h4>" + _paragraphs(card.explanation))
    if card.red_flags:
        parts.append("<h4>Red flags</h4>" + _list(card.red_flags))
    if card.follow_ups:
        items = [
            f"<li><b>{html.escape(f.question)}</b><br>{html.escape(f.approach)}</li>"
            for f in card.follow_ups
        ]
        parts.append("<h4>What an interviewer would ask next</h4><ul>" + "".join(items) + "</ul>")
    if card.bullets:
        parts.append("<h4>60-second review</h4>" + _list(card.bullets))
    parts.append("</div>")
    return "".join(parts)


def _list(items: Sequence[str]) -> str:
    return "<ul>" + "".join(f"<li>{html.escape(item)}</li>" for item in items) + "</ul>"


def _paragraphs(text: str) -> str:
    blocks = [b.strip() for b in re.split(r"\n\s*\n", text) if b.strip()]
    return "".join(f"<p>{html.escape(' '.join(b.split()))}</p>" for b in blocks)


def anki_tags(card: Card, deck: str) -> list[str]:
    """Card tags plus quizzer::<deck>; Anki tags cannot contain spaces."""
    tags = ["quizzer", f"quizzer::{deck.replace('/', '::')}", *card.tags]
    return [re.sub(r"\s+", "_", tag) for tag in dict.fromkeys(tags)]


def write_anki(cards: Sequence[tuple[Card, str]], path: Path) -> int:
    """Write an .apkg with one cloze note per card. Returns the number of notes.

    Notes are identified by a GUID derived from the card id, so importing a
    newer export updates notes instead of duplicating them.
    """
    import genanki

    model = genanki.Model(
        ANKI_MODEL_ID,
        "quizzer cloze (type in)",
        model_type=genanki.Model.CLOZE,
        fields=[{"name": "Text"}, {"name": "Back Extra"}, {"name": "Card id"}],
        templates=[
            {
                "name": "Cloze",
                "qfmt": "{{cloze:Text}}<br><br>{{type:cloze:Text}}",
                "afmt": "{{cloze:Text}}<br><br>{{type:cloze:Text}}<hr id=answer>{{Back Extra}}",
            }
        ],
        css=_CLOZE_CSS,
    )
    deck = genanki.Deck(ANKI_DECK_ID, ANKI_DECK_NAME)
    for card, deck_name in cards:
        deck.add_note(
            genanki.Note(
                model=model,
                fields=[cloze_text(card), back_extra(card), card.id],
                tags=anki_tags(card, deck_name),
                guid=genanki.guid_for(card.id),
            )
        )
    with atomic_writer(path) as out:
        genanki.Package(deck).write_to_file(out)
    return len(cards)
