"""The Markdown sheet reads right in a real renderer: everything quizzer inserts is escaped.

Every bundled card's sheet is rendered with markdown-it-py (CommonMark, as
GitHub, pandoc and editors read it) and the text a reader sees is compared
with the card: the title, the filled formula, each answer and accepted word,
each citation. ``gamma*lam`` must not turn into italics.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from quizzer.answers.formula import filled_prompt
from quizzer.cards.sections import citation
from quizzer.export.markdown import code_span, escape, markdown_sheet

from .conftest import bundled_deck

MD = MarkdownIt("commonmark")
CARDS = [loaded.card for loaded in bundled_deck().cards]


def _text(inline) -> str:
    """What a reader sees of an inline token: its text and code, markup gone."""
    return "".join(
        child.content for child in inline.children if child.type in ("text", "code_inline")
    )


def _rendered(card, brief=False):
    tokens = MD.parse(markdown_sheet([card], brief=brief))
    title = next(
        t for i, t in enumerate(tokens) if tokens[i - 1].tag == "h2" and t.type == "inline"
    )
    start = next(i for i, t in enumerate(tokens) if t.type == "blockquote_open")
    quote = next(t for t in tokens[start:] if t.type == "inline")
    return tokens, title, quote


def test_the_deck_is_there():
    assert len(CARDS) > 100


@pytest.mark.parametrize("card", CARDS, ids=lambda card: card.id)
def test_every_bundled_sheet_renders_its_formula_and_answers_as_written(card):
    tokens, title, quote = _rendered(card)
    assert _text(title) == card.title
    assert [c.type for c in quote.children] == ["code_inline"]
    assert quote.children[0].content == filled_prompt(card).replace("\n", " ")
    answers = {}
    for token in tokens:
        kinds = [c.type for c in token.children or []]
        if token.type == "inline" and "strong_open" in kinds[:2]:
            name = token.children[kinds.index("strong_open") + 1].content
            if name in card.blanks:
                answers[name] = token
    assert set(answers) == set(card.blanks)
    for name, token in answers.items():
        codes = [c.content for c in token.children if c.type == "code_inline"]
        assert codes == [card.blanks[name].answer]
        if card.blanks[name].also:
            also = ", ".join(card.blanks[name].also)
            assert _text(token).endswith(f" (also: {also})")
    shown = [_text(t) for t in tokens if t.type == "inline"]
    for source in card.sources if "**Sources**" in markdown_sheet([card]) else []:
        assert any(text.startswith(citation(source)) for text in shown), citation(source)


@pytest.mark.parametrize("card", CARDS[:40], ids=lambda card: card.id)
def test_the_brief_sheet_has_the_formula_review_red_flags_and_questions_only(card):
    _, _, quote = _rendered(card, brief=True)
    assert quote.children[0].content == filled_prompt(card).replace("\n", " ")
    sheet = markdown_sheet([card], brief=True)
    assert "Explanation" not in sheet and "*Approach:*" not in sheet
    for question in [f.question for f in card.follow_ups]:
        assert question.split("\n")[0] in sheet
    if card.red_flags:
        assert "**Red flags**" in sheet
    if card.bullets:
        assert "**60-second review**" in sheet


def test_the_brief_sheet_of_the_deck_is_a_fraction_of_the_full_one():
    full = markdown_sheet(CARDS).count("\n")
    brief = markdown_sheet(CARDS, brief=True).count("\n")
    assert brief < full / 3


@given(st.text(alphabet="ab *_`[]<>#-+1.&|~\\ ", min_size=1, max_size=30))
def test_escaped_text_renders_as_written(text):
    import html

    shown = html.unescape(MD.renderInline(escape(text)))
    assert shown == text


@given(st.text(alphabet="ab *_`` \\", min_size=1, max_size=20).filter(str.strip))
def test_a_code_span_shows_its_text_verbatim(text):
    (inline,) = [t for t in MD.parse(code_span(text)) if t.type == "inline"]
    assert [c.type for c in inline.children] == ["code_inline"]
    assert inline.children[0].content == text


def test_export_markdown_brief_from_the_command(invoke, tmp_path):
    out = tmp_path / "brief.md"
    result = invoke("export", "markdown", "--brief", str(out), "attention")
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "> `Attention(Q, K, V) = softmax(Q Kᵀ / sqrt(d_k)) V`" in text
    assert "**Follow-up questions**" in text and "**Explanation**" not in text
