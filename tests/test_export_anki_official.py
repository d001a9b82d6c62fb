"""The Anki export as Anki itself reads it: imported with the official ``anki`` library.

Checks what a learner sees in Anki: one type-in card per blank, the answers in
the author's notation, hints folded away instead of printed in the blank, every
teaching section on the back, and the tags the learner added in Anki kept when
an unchanged deck is exported and imported again.
"""

from __future__ import annotations

import html
import time
from pathlib import Path

import pytest

anki_collection = pytest.importorskip("anki.collection")

from quizzer.cards.deck import load_deck  # noqa: E402
from quizzer.cards.finding import bundled_content_dir  # noqa: E402

from .conftest import ATTENTION  # noqa: E402


def _import(col, apkg: Path):
    request = anki_collection.ImportAnkiPackageRequest(
        package_path=str(apkg),
        options=anki_collection.ImportAnkiPackageOptions(with_scheduling=True),
    )
    return col.import_anki_package(request).log


@pytest.fixture
def col(tmp_path):
    (tmp_path / "anki").mkdir()
    collection = anki_collection.Collection(str(tmp_path / "anki" / "collection.anki2"))
    yield collection
    collection.close()


def _notes(col) -> dict[str, object]:
    notes = [col.get_note(note_id) for note_id in col.find_notes("")]
    return {note["Card id"]: note for note in notes}


def test_the_whole_deck_imports_with_one_card_per_blank(invoke, col, tmp_path):
    apkg = tmp_path / "deck.apkg"
    assert invoke("export", "anki", str(apkg)).exit_code == 0
    log = _import(col, apkg)
    cards = load_deck([bundled_content_dir()]).cards
    assert len(log.new) == len(cards) and not log.conflicting
    assert col.card_count() == sum(len(loaded.card.blanks) for loaded in cards)


def test_anki_shows_the_authors_notation_hints_behind_a_click_and_every_section(
    invoke, col, tmp_path
):
    apkg = tmp_path / "two.apkg"
    assert invoke("export", "anki", str(apkg), "bayes-rule", "attention").exit_code == 0
    _import(col, apkg)
    notes = _notes(col)
    bayes = notes["bayes-rule"]
    first = min(bayes.cards(), key=lambda card: card.ord)
    question, answer = first.question(), first.answer()
    # the blank is a blank: Anki shows [...] there, never the hint
    assert 'data-ordinal="1">[...]</span>' in question
    assert "Likelihood times prior" in question and '<details class="hints">' in question
    # the type-in answer and the back are in the card's notation, not P_B_A*P_A/P_B
    assert 'data-cloze="P&#x28;B&#x7C;A&#x29;&#x2A;P&#x28;A&#x29;&#x2F;P&#x28;B&#x29;"' in question
    assert "<code>P(B|A)*P(A)/P(B)</code>" in answer
    # MathJax reads the decoded text: the notation, in the author's order
    assert "\\frac{\\text{P(B|A)} \\text{P(A)}}{\\text{P(B)}}" in html.unescape(answer)
    attention = min(notes["attention"].cards(), key=lambda card: card.ord).answer()
    for heading in ("Intuition", "Where it stops working", "Used in", "Sources", "Related"):
        assert f"<h4>{heading}</h4>" in attention, heading


def test_tags_added_in_anki_survive_an_unchanged_reexport(invoke, col, tmp_path):
    first = tmp_path / "one.apkg"
    assert invoke("export", "anki", str(first), "attention", "bayes-rule").exit_code == 0
    _import(col, first)
    for note in _notes(col).values():
        note.tags.append("my-own-tag")
        col.update_note(note)
    time.sleep(1.1)  # Anki keeps modification times in seconds
    again = tmp_path / "again.apkg"
    assert invoke("export", "anki", str(again), "attention", "bayes-rule").exit_code == 0
    log = _import(col, again)
    assert not log.updated and not log.new
    assert all("my-own-tag" in note.tags for note in _notes(col).values())


def test_a_changed_card_updates_its_note_in_place(invoke, col, tmp_path):
    deck = tmp_path / "deck"
    deck.mkdir()
    text = ATTENTION.read_text().replace("id: attention", "id: my-attention")
    card = deck / "my-attention.yaml"
    card.write_text(text)
    first = tmp_path / "one.apkg"
    assert invoke("export", "anki", str(first), str(card)).exit_code == 0
    _import(col, first)
    time.sleep(1.1)
    card.write_text(text.replace("Scaled dot-product attention", "Scaled attention, edited"))
    second = tmp_path / "two.apkg"
    assert invoke("export", "anki", str(second), str(card)).exit_code == 0
    log = _import(col, second)
    assert len(log.updated) == 1 and not log.new
    (note,) = _notes(col).values()
    assert "Scaled attention, edited" in note["Text"]
