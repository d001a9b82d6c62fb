"""Exporting cards as an Anki package of type-in cloze notes.

Nothing here prints; each function writes one file (or returns text).
"""

from __future__ import annotations

import functools
import html
import re
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from quizzer.cards.model import GAP, Card, Source
from quizzer.cards.sections import Depth, Section, citation, sections_to
from quizzer.files import FileProblem, atomic_writer

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

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
.extra pre { font-size: 14px; background: #f5f5f5; padding: 0.5em; overflow-x: auto; }
.nightMode .extra pre { background: #2a2a2a; }
"""


#: Characters of Anki's cloze grammar ({{c1::answer::hint}}), as HTML entities: Anki
#: and genanki read the grammar in the field's HTML source, the reviewer shows the
#: decoded characters, and the type-in check compares against the decoded text.
_BRACES = str.maketrans({"{": "&#123;", "}": "&#125;"})
_CLOZE_INNER = str.maketrans({"{": "&#123;", "}": "&#125;", ":": "&#58;"})


def _text(text: str) -> str:
    """Plain text for a cloze field: HTML-escaped, braces unreadable as cloze syntax."""
    return html.escape(text).translate(_BRACES)


def _cloze_inner(text: str) -> str:
    """An answer or hint inside {{c1::...}}: "::" and "}}" must not end it early."""
    return html.escape(text).translate(_CLOZE_INNER)


def cloze_text(card: Card) -> str:
    """The prompt as Anki cloze text: each blank a numbered cloze with its hint.

    Where precedence needs it, the brackets go around the cloze, not inside it,
    so the back reads ``m_t / (1 - beta1^t)`` and the typed answer stays the blank's.
    """
    from quizzer.answers.formula import fitted_answers

    numbers = {name: index for index, name in enumerate(card.blanks, start=1)}
    fitted = fitted_answers(card)

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        blank = card.blanks[name]
        hint = f"::{_cloze_inner(blank.hint)}" if blank.hint else ""
        cloze = f"{{{{c{numbers[name]}::{_cloze_inner(blank.answer)}{hint}}}}}"
        return f"({cloze})" if fitted[name] != blank.answer else cloze

    pieces = [f'<div class="title">{_text(card.title)}</div>']
    last = 0
    for match in GAP.finditer(card.prompt):
        pieces.append(_text(card.prompt[last : match.start()]))
        pieces.append(replace(match))
        last = match.end()
    pieces.append(_text(card.prompt[last:]))
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
            tree = parse(card.blanks[blank].answer, table, expand=False)
            return str(latex(to_sympy(tree, table)))
        except AnswerError:
            return None
    except Exception:  # a printer gap must not stop an export
        return None


def back_extra(card: Card) -> str:
    """The back of the note as HTML: every accepted answer, then the sections to study.

    Card prose is Markdown, rendered with markdown-it (raw HTML in a card is
    escaped, never passed through).
    """
    parts = ['<div class="extra">', "<h4>Answers</h4>", _answers(card)]
    for section in sections_to(Depth.STUDY):
        body = _section_html(card, section)
        if body:
            parts.append(f"<h4>{html.escape(section.title)}</h4>{body}")
    parts.append("</div>")
    return "".join(parts).translate(_BRACES)


def accepted_forms(card: Card, blank: str) -> list[str]:
    """Every form quizzer accepts as written for ``blank``: its answer, its ``also``
    words and its examples declared right, without repeats."""
    spec = card.blanks[blank]
    right = [example.answer for example in spec.examples if example.correct]
    return list(dict.fromkeys([spec.answer, *spec.also, *right]))


def _answers(card: Card) -> str:
    """Each blank: its answer in MathJax, then exactly the text Anki's type-in box expects,
    then every other form quizzer accepts."""
    items = []
    for name, blank in card.blanks.items():
        tex = _latex(card, name)
        shown = f"\\({html.escape(tex)}\\) " if tex else ""
        forms = accepted_forms(card, name)
        also = ", ".join(f"<code>{html.escape(form)}</code>" for form in forms[1:])
        items.append(
            f"<li><b>{html.escape(name)}</b>: {shown}<code>{html.escape(blank.answer)}</code>"
            + (f"<br>also accepted by quizzer: {also}" if also else "")
            + "</li>"
        )
    return "<ul>" + "".join(items) + "</ul>"


def _section_html(card: Card, section: Section) -> str:
    value = getattr(card, section.field)
    if not value:
        return ""
    if section.kind == "prose":
        return str(_markdown().render(value))  # markdown-it types render() as Any
    if section.kind == "code":
        return f'<pre><code class="language-python">{html.escape(value)}</code></pre>'
    if section.kind == "list":
        return _list([_markdown().renderInline(item) for item in value])
    if section.kind == "follow_ups":
        return _list(
            [
                f"<b>{_markdown().renderInline(f.question)}</b>{_markdown().render(f.approach)}"
                for f in card.follow_ups
            ]
        )
    if section.kind == "sources":
        return _list([_source(s) for s in card.sources])
    return "<p>" + ", ".join(html.escape(card_id) for card_id in value) + "</p>"


def _source(source: Source) -> str:
    cited = html.escape(citation(source))
    if not source.url:
        return cited
    address = html.escape(source.url, quote=True)
    return f'{cited}: <a href="{address}">{address}</a>'


def _list(items_html: Sequence[str]) -> str:
    return "<ul>" + "".join(f"<li>{item}</li>" for item in items_html) + "</ul>"


@functools.cache
def _markdown() -> MarkdownIt:
    from markdown_it import MarkdownIt

    # "html": False escapes any HTML written in a card instead of passing it to Anki.
    return MarkdownIt("commonmark", {"html": False}).enable("table")


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
    try:
        with atomic_writer(path) as out:
            genanki.Package(deck).write_to_file(out)
    except sqlite3.Error as error:  # genanki builds the collection in a temporary SQLite file
        raise FileProblem(f"cannot write {path}: {error}", str(error)) from None
    return len(cards)
