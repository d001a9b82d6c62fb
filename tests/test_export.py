"""Exports: the Anki package opened as Anki would, the Markdown sheet, the JSON deck."""

from __future__ import annotations

import html
import json
import re
import sqlite3
import subprocess
import sys
import zipfile
from contextlib import closing
from pathlib import Path

import pytest

from quizzer.cards.deck import load_card_file
from quizzer.cards.model import Card
from quizzer.export.anki import cloze_text
from quizzer.export.markdown import markdown_sheet
from tests.conftest import MINIMAL_CARD

from .conftest import ATTENTION, REPO

SNAPSHOTS = Path(__file__).parent / "snapshots"


def notes(apkg: Path, tmp_path: Path) -> list[tuple[str, list[str], list[str]]]:
    with zipfile.ZipFile(apkg) as archive:
        assert "collection.anki2" in archive.namelist()
        archive.extract("collection.anki2", tmp_path)
    with closing(sqlite3.connect(tmp_path / "collection.anki2")) as db:
        rows = db.execute("SELECT guid, flds, tags FROM notes ORDER BY id").fetchall()
    return [(guid, fields.split("\x1f"), tags.split()) for guid, fields, tags in rows]


def test_anki_export_of_the_whole_deck(invoke, tmp_path):
    out = tmp_path / "deck.apkg"
    result = invoke("export", "anki", str(out))
    assert result.exit_code == 0, result.output
    found = notes(out, tmp_path)
    assert len(found) >= 40
    by_id = {fields[2]: (guid, fields, tags) for guid, fields, tags in found}
    guid, (text, extra, card_id), tags = by_id["attention"]
    assert card_id == "attention"
    # the hints follow the prompt, folded away until clicked
    assert '<details class="hints"><summary>Hints</summary>' in text
    assert "[1] Each score is a sum of d_k products" in html.unescape(text)
    import genanki

    assert guid == genanki.guid_for("attention")  # stable: derived from the card id
    # no hint inside a cloze: Anki would print it in place of the blank
    assert text.index("{{c1::sqrt(d_k)}}") < text.index("{{c2::V}}")
    assert "\\(\\sqrt{d_{k}}\\)" in html.unescape(extra)  # MathJax on the back
    for heading in (
        "Explanation",
        "Red flags",
        "What an interviewer would ask next",
        "60-second review",
    ):
        assert heading in extra
    assert "quizzer::ml" in tags and "transformers" in tags
    assert all(" " not in tag for _, _, card_tags in found for tag in card_tags)


def test_reexporting_an_edited_deck_keeps_the_guids(invoke, tmp_path):
    deck = tmp_path / "deck"
    deck.mkdir()
    text = ATTENTION.read_text().replace("id: attention", "id: my-attention")
    (deck / "my-attention.yaml").write_text(text)
    first = tmp_path / "one.apkg"
    assert invoke("export", "anki", str(first), str(deck / "my-attention.yaml")).exit_code == 0
    (deck / "my-attention.yaml").write_text(
        text.replace("Scaled dot-product attention", "Scaled attention, edited")
    )
    second = tmp_path / "two.apkg"
    assert invoke("export", "anki", str(second), str(deck / "my-attention.yaml")).exit_code == 0
    (one,) = notes(first, tmp_path / "a")
    (two,) = notes(second, tmp_path / "b")
    assert one[0] == two[0]  # same note: Anki updates it in place
    assert "Scaled attention, edited" in two[1][0] and "edited" not in one[1][0]


def anki_clozes(field: str) -> list[tuple[int, str, str | None]]:
    """The clozes Anki reads in a field's HTML source: (number, answer, hint), decoded.

    Anki's grammar (rslib/src/cloze.rs): ``{{c<n>::`` opens, ``::`` starts the
    hint, ``}}`` closes; entities are decoded only when the text is shown.
    """
    found = []
    for match in re.finditer(r"\{\{c(\d+)::(.*?)\}\}", field, re.S):
        answer, _, hint = match.group(2).partition("::")
        found.append((int(match.group(1)), html.unescape(answer), html.unescape(hint) or None))
    return found


TRICKY = Card.model_validate(
    {
        "id": "tricky",
        "title": "Pick {{c5::this}} one",
        "prompt": "a <b>bold</b> & {{x}} claim, then {{y}} too",
        "symbols": {"y": {}, "z": {}},
        "blanks": {
            "x": {"answer": "\\frac{1}{\\sqrt{y}}", "hint": "a :: b }} c }"},
            "y": {"answer": "z", "hint": "ends in a brace {z}"},
        },
        "explanation": "Use **bold** and `code`; {{c9::never}} a cloze. <script>x</script>",
        "red_flags": ["Saying *variance* for {{c8::deviation}}"],
    }
)


def test_cloze_text_gives_anki_exactly_the_blanks_with_their_answers_and_hints():
    text = cloze_text(TRICKY, hints=True)
    assert "&lt;b&gt;bold&lt;/b&gt; &amp;" in text
    assert anki_clozes(text) == [
        (1, "\\frac{1}{\\sqrt{y}}", "a :: b }} c }"),
        (2, "z", "ends in a brace {z}"),
    ]
    assert "Pick {{c5::this}} one" in html.unescape(text)  # the title reads as written


def test_every_field_of_a_note_is_safe_from_the_cloze_grammar(tmp_path):
    from quizzer.export.anki import back_extra, write_anki

    assert anki_clozes(back_extra(TRICKY)) == []
    out = tmp_path / "tricky.apkg"
    write_anki([(TRICKY, "deck")], out)
    (note,) = notes(out, tmp_path)
    assert all(anki_clozes(field) == [] for field in note[1][1:])
    with closing(sqlite3.connect(tmp_path / "collection.anki2")) as db:
        ordinals = sorted(row[0] for row in db.execute("SELECT ord FROM cards"))
    assert ordinals == [0, 1]  # one card per blank: the title's {{c5::...}} adds none


def test_back_renders_markdown_and_escapes_html():
    from quizzer.export.anki import back_extra

    back = back_extra(TRICKY)
    assert "<strong>bold</strong>" in back and "<code>code</code>" in back
    assert "<em>variance</em>" in back
    assert "<script>" not in back and "&lt;script&gt;" in back


def test_back_lists_every_accepted_form_of_each_blank():
    from quizzer.export.anki import accepted_forms, back_extra

    card = load_card_file(REPO / "content" / "training" / "adam-bias-correction.yaml")[0].card
    back = back_extra(card).replace("&#123;", "{").replace("&#125;", "}")
    for name, blank in card.blanks.items():
        forms = accepted_forms(card, name)
        assert forms[0] == blank.answer and len(forms) > 1
        assert set(blank.also) | {e.answer for e in blank.examples if e.correct} <= set(forms)
        for form in forms:
            assert f"<code>{html.escape(form)}</code>" in back


def test_back_shows_code_as_code_and_the_cloze_keeps_precedence():
    from quizzer.export.anki import back_extra

    card = TRICKY.model_copy(update={"code": "import numpy as np\nassert np.all(1 < 2)"})
    back = back_extra(card)
    assert '<pre><code class="language-python">import numpy as np\nassert np.all(1 &lt; 2)' in back
    adam = load_card_file(REPO / "content" / "training" / "adam-bias-correction.yaml")[0].card
    assert "m_t / ({{c1::1 - beta1^t}})" in cloze_text(adam)


def test_markdown_sheet_matches_the_snapshot():
    card = load_card_file(ATTENTION)[0].card
    expected = (SNAPSHOTS / "attention.md").read_text(encoding="utf-8")
    assert markdown_sheet([card]) == expected


def test_markdown_and_json_exports(invoke, tmp_path):
    md = tmp_path / "sheet.md"
    assert invoke("export", "markdown", str(md), "--tag", "metrics").exit_code == 0
    sheet = md.read_text()
    assert sheet.startswith("# quizzer study sheet") and "## Precision" in sheet
    assert "## Scaled dot-product attention" not in sheet
    out = tmp_path / "deck.json"
    assert invoke("export", "json", str(out)).exit_code == 0
    data = json.loads(out.read_text())
    assert len(data) >= 40
    for item in data:
        Card.model_validate(item)  # each item matches the card schema


@pytest.mark.parametrize(
    "args",
    [
        ["export", "anki", "/no/such/folder/x.apkg"],
        ["export", "markdown", "."],
        ["export", "json", "x.json", "--tag", "no-such-tag"],
        ["export", "anki", "x.apkg", "nope"],
    ],
)
def test_export_errors(invoke, args):
    result = invoke(*args)
    assert result.exit_code == 2 and "Traceback" not in result.output


def completions(*words: str) -> list[str]:
    import os

    env = {
        **os.environ,
        "_QUIZZER_COMPLETE": "complete_bash",
        "COMP_WORDS": " ".join(["quizzer", *words]),
        "COMP_CWORD": str(len(words)),
    }
    result = subprocess.run(
        [sys.executable, "-m", "quizzer"], env=env, capture_output=True, text=True, check=False
    )
    return result.stdout.split()


def test_completion_of_card_ids_tags_and_commands():
    assert {"attention", "attention-cost"} <= set(completions("quiz", "att"))
    assert "rotary-positions" in completions("show", "rot")
    assert {"training", "transformers"} <= set(completions("list", "--tag", "tra"))
    assert all(tag.startswith("tra") for tag in completions("list", "--tag", "tra"))
    assert {"quiz", "review"} <= set(completions("qu")) | set(completions("re"))


def test_readme_reference_is_current():
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "readme_reference.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_markdown_sheet_fences_code_and_keeps_long_items_together():
    card = TRICKY.model_copy(
        update={
            "code": "import numpy as np\nassert np.sqrt(4) == 2",
            "bullets": ["first line\nsecond line"],
        }
    )
    sheet = markdown_sheet([card])
    assert "**Code**\n\n```python\nimport numpy as np\nassert np.sqrt(4) == 2\n```" in sheet
    assert "- first line\n  second line" in sheet
    with_fence = card.model_copy(update={"code": 'doc = """\n```\n"""'})
    assert '````python\ndoc = """\n```\n"""\n````' in markdown_sheet([with_fence])


def test_json_export_from_the_warm_cache_is_silent_and_keeps_ranges(invoke, tmp_path):
    import json

    # The first run fills the card cache; the second reads ranges back from JSON.
    for name in ("cold.json", "warm.json"):
        result = invoke("export", "json", str(tmp_path / name))
        assert result.exit_code == 0, result.output
        assert "Warning" not in result.stderr
    cold = json.loads((tmp_path / "cold.json").read_text())
    warm = json.loads((tmp_path / "warm.json").read_text())
    assert warm == cold
    ranges = [s["range"] for c in warm for s in c["symbols"].values() if s["range"]]
    assert ranges and all(len(r) == 2 for r in ranges)


@pytest.mark.parametrize("kind", ["anki", "markdown", "json"])
def test_an_export_with_no_matching_card_says_so_in_its_own_words(invoke, tmp_path, kind):
    result = invoke("export", kind, str(tmp_path / "out"), "--tag", "no-such-tag")
    assert result.exit_code == 2
    assert result.stderr == "quizzer: error: no cards with tag no-such-tag to export\n"
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("kind", "noun"), [("anki", "note"), ("markdown", "card")])
def test_an_export_of_one_card_counts_it_in_the_singular(invoke, write_card, tmp_path, kind, noun):
    card = write_card(MINIMAL_CARD.format(id="lonely-line") + "tags: [lonely]\n")
    args = ["--deck", str(card), "--tag", "lonely"]
    result = invoke("export", kind, str(tmp_path / "out"), *args)
    assert result.exit_code == 0, result.output
    assert f"wrote 1 {noun} to" in result.stderr


@pytest.mark.parametrize("kind", ["anki", "markdown", "json"])
def test_every_export_takes_the_cards_to_write_by_name(invoke, tmp_path, kind):
    out = tmp_path / "out"
    result = invoke("export", kind, str(out), "attention", "layer-norm")
    assert result.exit_code == 0, result.output
    noun = "notes" if kind == "anki" else "cards"
    assert f"wrote 2 {noun} to" in result.stderr
    if kind == "json":
        assert [c["id"] for c in json.loads(out.read_text())] == ["attention", "layer-norm"]
    unknown = invoke("export", kind, str(tmp_path / "other"), "no-such-card")
    assert unknown.exit_code == 2 and "unknown card 'no-such-card'" in unknown.stderr
    assert not (tmp_path / "other").exists()
