"""Exporting cards as an Anki package of type-in cloze notes.

Nothing here prints; each function writes one file (or returns text).
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
import sqlite3
import time
from collections.abc import MutableMapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quizzer.cards.model import GAP, Card, Source
from quizzer.cards.sections import Depth, Section, citation, sections_to
from quizzer.files import FileProblem, atomic_writer
from quizzer.names import is_notation

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
.hints { font-size: 15px; color: #555; margin-top: 0.6em; }
.hints summary { cursor: pointer; color: #1565c0; }
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


_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def authored(card: Card, answer: str) -> str:
    """An answer in the author's notation: each symbol that declares a written
    notation (``P_B_A`` with ``P(B|A)``) spelled that way, the rest as written."""
    notations = {
        name: next((alias for alias in symbol.aliases if is_notation(alias)), None)
        for name, symbol in card.symbols.items()
    }

    def spell(match: re.Match[str]) -> str:
        return notations.get(match.group(0)) or match.group(0)

    return _NAME.sub(spell, answer)


def cloze_text(card: Card, *, hints: bool = False) -> str:
    """The prompt as Anki cloze text: each blank a numbered cloze, its answer in the
    author's notation.

    A hint is not in the cloze: Anki would print it in place of the blank, where
    quizzer gives it only when asked. The hints follow the prompt, folded away
    until clicked (``hints=True`` puts them back in the clozes, as
    ``{{c1::answer::hint}}``). They are in the Text field rather than a field of
    their own, so the note type keeps its fields and earlier exports still update.
    Where precedence needs it, the brackets go around the cloze, not inside it,
    so the back reads ``m_t / (1 - beta1^t)`` and the typed answer stays the blank's.
    """
    from quizzer.answers.formula import fitted_answers

    numbers = {name: index for index, name in enumerate(card.blanks, start=1)}
    fitted = fitted_answers(card)

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        blank = card.blanks[name]
        hint = f"::{_cloze_inner(blank.hint)}" if blank.hint and hints else ""
        answer = _cloze_inner(authored(card, blank.answer))
        cloze = f"{{{{c{numbers[name]}::{answer}{hint}}}}}"
        return f"({cloze})" if fitted[name] != blank.answer else cloze

    pieces = [f'<div class="title">{_text(card.title)}</div>']
    last = 0
    for match in GAP.finditer(card.prompt):
        pieces.append(_text(card.prompt[last : match.start()]))
        pieces.append(replace(match))
        last = match.end()
    pieces.append(_text(card.prompt[last:]))
    if not hints:
        pieces.append(hints_html(card))
    return "".join(pieces)


def _latex(card: Card, blank: str) -> str | None:
    """The blank's answer as LaTeX, when it is a formula quizzer can read."""
    try:
        from sympy import evaluate, latex

        from quizzer.answers.judge import symbol_table
        from quizzer.answers.symbolic import to_sympy
        from quizzer.answers.syntax import AnswerError, parse

        table = symbol_table(card)
        try:
            tree = parse(card.blanks[blank].answer, table, expand=False)
            # Unevaluated, so 2^(-24) stays 2^{-24} rather than 1/16777216.
            with evaluate(False):
                expr = to_sympy(tree, table)
            return str(latex(expr, order="none", symbol_names=_latex_names(card, expr)))
        except AnswerError:
            return None
    except Exception:  # a printer gap must not stop an export
        return None


def _latex_names(card: Card, expr: Any) -> dict[Any, str]:
    """How each symbol of ``expr`` is printed: a declared notation as written
    (``P(B|A)``), a multi-letter name upright (``\\mathrm{lam}``) rather than a run of
    italic letters; SymPy's own printing for the rest (``d_{k}``, ``\\beta_{1}``)."""
    from sympy.printing.latex import latex as to_latex

    names: dict[Any, str] = {}
    for symbol in expr.free_symbols:
        spec = card.symbols.get(symbol.name)
        notation = next((a for a in spec.aliases if is_notation(a)), None) if spec else None
        base = symbol.name.split("_")[0]
        if notation:
            names[symbol] = "\\text{" + notation.replace("\\", "") + "}"
        elif len(base) > 1 and to_latex(symbol.func(base)) == base:
            rest = symbol.name[len(base) :].replace("_", " ").strip()
            names[symbol] = f"\\mathrm{{{base}}}" + (f"_{{{rest}}}" if rest else "")
    return names


def hints_html(card: Card) -> str:
    """Each blank's hint, numbered as its cloze, folded away until clicked (an HTML
    ``<details>``, which every Anki client shows); empty when no blank has a hint."""
    items = [
        f"<li>[{index}] {_text(blank.hint)}</li>"
        for index, blank in enumerate(card.blanks.values(), start=1)
        if blank.hint
    ]
    if not items:
        return ""
    return f'<details class="hints"><summary>Hints</summary><ul>{"".join(items)}</ul></details>'


def back_extra(card: Card) -> str:
    """The back of the note as HTML: every accepted answer, then the sections to study.

    Card prose is Markdown, rendered with markdown-it (raw HTML in a card is
    escaped, never passed through).
    """
    parts = ['<div class="extra">', "<h4>Answers</h4>", _answers(card)]
    for section in sections_to(Depth.REFERENCE):
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
        written = authored(card, blank.answer)
        others = forms[1:] if written == blank.answer else forms
        also = ", ".join(f"<code>{html.escape(form)}</code>" for form in others)
        items.append(
            f"<li><b>{html.escape(name)}</b>: {shown}"
            f"<code>{html.escape(authored(card, blank.answer))}</code>"
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


#: What an export remembers of each note it wrote: the hash of the note's content and the
#: modification time it was given, by GUID (see :func:`write_anki`).
NoteTimes = MutableMapping[str, tuple[str, int]]


def _timed_note(modified: int, **fields: Any) -> Any:
    """A genanki note written with its own modification time instead of the package's."""
    import genanki

    class TimedNote(genanki.Note):
        def write_to_db(self, cursor: Any, timestamp: float, deck_id: int, id_gen: Any) -> None:
            super().write_to_db(cursor, modified, deck_id, id_gen)

    return TimedNote(**fields)


def _content_hash(fields: Sequence[str], tags: Sequence[str]) -> str:
    return hashlib.sha256("\x1f".join([*fields, " ".join(tags)]).encode("utf-8")).hexdigest()


def write_anki(
    cards: Sequence[tuple[Card, str]], path: Path, times: NoteTimes | None = None
) -> int:
    """Write an .apkg with one cloze note per card. Returns the number of notes.

    Notes are identified by a GUID derived from the card id, so importing a
    newer export updates notes instead of duplicating them. Anki updates a note
    only when the package's copy is newer, and then replaces its fields and its
    tags with the package's. So a note whose content is unchanged since the last
    export keeps the modification time it had (from ``times``, which is updated
    in place): Anki leaves it alone, with the tags and edits the learner made.
    """
    import genanki

    model = genanki.Model(
        ANKI_MODEL_ID,
        "quizzer cloze (type in)",
        model_type=genanki.Model.CLOZE,
        # The fields and templates must stay as they are: Anki will not update the notes
        # of an earlier export whose note type has other fields (it reports a conflict).
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
    now = int(time.time())
    times = {} if times is None else times
    for card, deck_name in cards:
        fields = [cloze_text(card), back_extra(card), card.id]
        tags = anki_tags(card, deck_name)
        guid = genanki.guid_for(card.id)
        digest = _content_hash(fields, tags)
        known = times.get(guid)
        modified = known[1] if known and known[0] == digest else now
        times[guid] = (digest, modified)
        deck.add_note(_timed_note(modified, model=model, fields=fields, tags=tags, guid=guid))
    try:
        with atomic_writer(path) as out:
            genanki.Package(deck).write_to_file(out)
    except sqlite3.Error as error:  # genanki builds the collection in a temporary SQLite file
        raise FileProblem(f"cannot write {path}: {error}", str(error)) from None
    return len(cards)
