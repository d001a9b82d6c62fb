"""Anki field HTML as Markdown (for prose) or plain text (for answers and titles).

Anki fields are HTML written by its editor: ``<b>``, ``<i>``, ``<div>``,
``<br>``, lists, links, ``&nbsp;``, images and ``[sound:...]`` tags. MathJax
(``\\(...\\)`` and ``\\[...\\]``) is kept exactly as LaTeX: it is cut out
before the HTML is read, so neither the Markdown escaping nor the parser can
touch a backslash or an underscore inside it. Everything else that came from
the field is escaped, so a ``*`` in a note stays a ``*`` in the card.

Stdlib ``html.parser`` only: it never fails on broken HTML, and these fields
use a handful of tags.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

#: MathJax as Anki writes it: inline \( \) and display \[ \], never across another opener.
MATH = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", re.DOTALL)
SOUND = re.compile(r"\[sound:([^\]]*)\]")
#: Private-use characters mark a cut-out piece; no Anki field contains them.
_OPEN, _CLOSE = "\ue000", "\ue001"
MARK = re.compile(f"{_OPEN}(\\d+){_CLOSE}")

_BLOCKS = {"div", "p", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
           "blockquote", "table", "tr", "hr"}  # fmt: skip
_EMPHASIS = {"b": "**", "strong": "**", "i": "*", "em": "*"}
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")
_LINE_START = re.compile(r"^(\s*)([#>+\-=])", re.MULTILINE)
_ORDERED = re.compile(r"^(\s*\d+)([.)])", re.MULTILINE)


def mark(index: int) -> str:
    """The placeholder that stands for cut-out piece ``index`` until it is put back."""
    return f"{_OPEN}{index}{_CLOSE}"


@dataclass
class Pieces:
    """Text cut out of a field before conversion, to be put back verbatim afterwards."""

    kept: list[str] = field(default_factory=list)

    def keep(self, text: str) -> str:
        self.kept.append(text)
        return mark(len(self.kept) - 1)


def media_in(field_html: str) -> set[str]:
    """The media files a field refers to: images and sounds."""
    names = set(SOUND.findall(field_html))
    names.update(re.findall(r"<img\b[^>]*?\bsrc\s*=\s*[\"']?([^\"' >]+)", field_html, re.I))
    return names


def _cut_math(field_html: str, pieces: Pieces, *, delimiters: bool) -> str:
    """MathJax out of the HTML, its entities decoded and tags dropped, kept as LaTeX."""

    def keep(match: re.Match[str]) -> str:
        inline = match.group(1) is not None
        body = _plain(match.group(1) if inline else match.group(2))
        body = re.sub(r"\s+", " ", body).strip()
        if delimiters:
            body = f"\\({body}\\)" if inline else f"\\[{body}\\]"
        return pieces.keep(body)

    return MATH.sub(keep, field_html)


def _plain(fragment: str) -> str:
    """A fragment's text: tags dropped, entities decoded, line breaks as spaces."""
    without = re.sub(r"<br\s*/?>|</(?:div|p|li)>", " ", fragment, flags=re.I)
    return html.unescape(re.sub(r"<[^>]*>", "", without)).replace("\xa0", " ")


def plain_text(field_html: str) -> str:
    """The field as one line of plain text (an answer, a title): MathJax without its
    delimiters, media left out, markup dropped, spacing collapsed."""
    pieces = Pieces()
    text = _plain(SOUND.sub(" ", _cut_math(field_html, pieces, delimiters=False)))
    text = re.sub(r"\s+", " ", text).strip()
    return MARK.sub(lambda m: pieces.kept[int(m.group(1))], text)


def escape_markdown(text: str) -> str:
    """Text that a Markdown renderer shows as it is written."""
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    text = _LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text)
    return _ORDERED.sub(lambda m: m.group(1) + "\\" + m.group(2), text)


class _ToMarkdown(HTMLParser):
    """HTML to Markdown, or (``markdown=False``) to the plain text of a prompt, which
    quizzer shows as it is written: the same layout without emphasis or escapes."""

    def __init__(self, markdown: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.markdown = markdown
        self.out: list[str] = []
        self.links: list[str] = []
        self.list_depth = 0
        self.in_pre = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            # A plain line break: YAML keeps it in a block scalar (two trailing spaces
            # would force a quoted string), and Markdown reads it as a soft break.
            self.out.append("\n")
        elif not self.markdown and tag in ("b", "strong", "i", "em", "code", "pre", "a"):
            return
        elif tag in _EMPHASIS:
            self.out.append(_EMPHASIS[tag])
        elif tag == "code" and not self.in_pre:
            self.out.append("`")
        elif tag == "pre":
            self.in_pre = True
            self.out.append("\n\n```\n")
        elif tag == "li":
            self.out.append("\n" + "  " * max(self.list_depth - 1, 0) + "- ")
        elif tag in ("ul", "ol"):
            self.list_depth += 1
            self.out.append("\n")
        elif tag == "a":
            href = dict(attrs).get("href") or ""
            # Only web and mail links survive: a javascript: or file: link is its text.
            safe = href.startswith(("http://", "https://", "mailto:"))
            self.links.append(href if safe else "")
            self.out.append("[" if safe else "")
        elif tag == "sub":
            self.out.append("\\_" if self.markdown else "_")
        elif tag == "sup":
            self.out.append("^")
        elif tag in ("td", "th"):
            self.out.append(" ")
        elif tag in _BLOCKS:
            self.out.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if not self.markdown and tag in ("b", "strong", "i", "em", "code", "pre", "a"):
            return
        if tag in _EMPHASIS:
            self.out.append(_EMPHASIS[tag])
        elif tag == "code" and not self.in_pre:
            self.out.append("`")
        elif tag == "pre":
            self.in_pre = False
            self.out.append("\n```\n\n")
        elif tag in ("ul", "ol"):
            self.list_depth = max(self.list_depth - 1, 0)
            self.out.append("\n\n")
        elif tag == "a":
            href = self.links.pop() if self.links else ""
            self.out.append(f"](<{href.replace('>', '%3E')}>)" if href else "")
        elif tag in _BLOCKS and tag != "li":
            self.out.append("\n\n")

    def handle_data(self, data: str) -> None:
        text = data.replace("\xa0", " ")
        if self.in_pre:
            self.out.append(text.replace("```", "` ` `"))
            return
        # Runs of spaces and line breaks in HTML source are one space when shown.
        text = re.sub(r"\s+", " ", text)
        self.out.append(escape_markdown(text) if self.markdown else text)


def to_markdown(field_html: str, pieces: Pieces | None = None, *, markdown: bool = True) -> str:
    """The field as Markdown, MathJax kept as LaTeX; placeholders of ``pieces`` left in.

    With ``pieces`` given, the caller has cut its own pieces out already (the
    clozes) and puts them back itself; MathJax is put back here.
    """
    own = pieces is None
    pieces = pieces or Pieces()
    first = len(pieces.kept)
    source = SOUND.sub(" ", _cut_math(field_html, pieces, delimiters=True))
    parser = _ToMarkdown(markdown)
    parser.feed(source)
    parser.close()
    text = "".join(parser.out)
    text = text.replace("****", "")  # <b></b>, which Anki's editor leaves behind
    text = re.sub(r"[ \t]+\n", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text).strip()

    def put_back(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return pieces.kept[index] if own or index >= first else match.group(0)

    return MARK.sub(put_back, text)
