"""The deck cache: warm starts skip parsing, and nothing stale or broken gets through."""

from __future__ import annotations

import json
import os

import pytest

from quizzer.cards import deck as deck_module
from quizzer.cards.cache import DeckCache
from quizzer.cards.deck import load_deck

from .conftest import MINIMAL_CARD


@pytest.fixture
def folder(tmp_path):
    folder = tmp_path / "deck"
    folder.mkdir()
    (folder / "a.yaml").write_text(MINIMAL_CARD.format(id="a"))
    (folder / "b.yaml").write_text(MINIMAL_CARD.format(id="b"))
    return folder


def count_parses(monkeypatch):
    calls = []
    real = deck_module.load_card_file

    def counting(path, deck=""):
        calls.append(path.name)
        return real(path, deck)

    monkeypatch.setattr(deck_module, "load_card_file", counting)
    return calls


def test_second_load_comes_from_the_cache(folder, monkeypatch):
    calls = count_parses(monkeypatch)
    first = load_deck([folder], cached=True)
    assert sorted(calls) == ["a.yaml", "b.yaml"]
    calls.clear()
    second = load_deck([folder], cached=True)
    assert calls == []
    assert [c.card for c in second.cards] == [c.card for c in first.cards]
    assert second.cards[0].card.blanks["slope"].answer == "m"


def test_a_changed_file_is_read_again(folder, monkeypatch):
    load_deck([folder], cached=True)
    calls = count_parses(monkeypatch)
    path = folder / "a.yaml"
    path.write_text(MINIMAL_CARD.format(id="a").replace("A minimal card", "Edited"))
    os.utime(path, ns=(1, 1))
    loaded = load_deck([folder], cached=True)
    assert calls == ["a.yaml"]
    assert loaded.by_id()["a"].card.title == "Edited"


def test_invalid_cards_are_never_cached(folder, monkeypatch):
    (folder / "bad.yaml").write_text("id: [\n")
    load_deck([folder], cached=True)
    calls = count_parses(monkeypatch)
    again = load_deck([folder], cached=True)
    assert calls == ["bad.yaml"] and len(again.problems) == 1


def test_a_corrupt_cache_is_ignored(folder):
    load_deck([folder], cached=True)
    cache = DeckCache(folder)
    cache.path.write_text("{not json")
    assert len(load_deck([folder], cached=True).cards) == 2
    cache.path.write_text(json.dumps({"format": "old", "cards": {}}))
    assert len(load_deck([folder], cached=True).cards) == 2


def test_damaged_entries_fall_back_to_the_file(folder):
    load_deck([folder], cached=True)
    cache = DeckCache(folder)
    data = json.loads(cache.path.read_text())
    for entry in data["cards"].values():
        del entry["summary"]["blanks"]
    cache.path.write_text(json.dumps(data))
    assert len(load_deck([folder], cached=True).cards) == 2


def test_lost_card_data_is_read_from_the_card_file(folder):
    load_deck([folder], cached=True)
    cache = DeckCache(folder)
    for card_file in cache.cards_folder.iterdir():
        card_file.write_text("{broken")
    deck = load_deck([folder], cached=True)
    assert deck.cards[0].card.blanks["slope"].answer == "m"


def test_listing_does_not_read_card_data(folder):
    load_deck([folder], cached=True)
    cache = DeckCache(folder)
    for card_file in cache.cards_folder.iterdir():
        card_file.unlink()
    deck = load_deck([folder], cached=True)
    assert [(c.id, c.title, c.blank_names) for c in deck.cards] == [
        ("a", "A minimal card", ["slope"]),
        ("b", "A minimal card", ["slope"]),
    ]


def test_removed_files_leave_the_cache(folder):
    load_deck([folder], cached=True)
    (folder / "b.yaml").unlink()
    load_deck([folder], cached=True)
    cache = DeckCache(folder)
    assert len(cache.entries) == 1 and len(list(cache.cards_folder.iterdir())) == 1


def test_an_unwritable_cache_folder_is_harmless(folder, monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("QUIZZER_CACHE", str(blocker / "sub"))
    assert len(load_deck([folder], cached=True).cards) == 2


def test_find_cached_takes_a_fresh_card_without_walking_the_deck(folder, monkeypatch):
    from quizzer.cards.deck import find_cached

    assert find_cached("a", [folder]) is None  # nothing cached yet
    load_deck([folder], cached=True)
    calls = count_parses(monkeypatch)
    found = find_cached("a", [folder])
    assert found is not None and found.id == "a" and found.deck == folder.name
    assert found.card.blanks["slope"].answer == "m" and calls == []
    assert find_cached("missing", [folder]) is None
    path = folder / "a.yaml"
    path.write_text(MINIMAL_CARD.format(id="a").replace("A minimal card", "Changed"))
    os.utime(path, ns=(5, 5))
    assert find_cached("a", [folder]) is None  # stale: the caller loads the deck


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the pool needs two cores")
def test_a_cold_cache_of_many_cards_is_filled_in_parallel(tmp_path, monkeypatch):
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(
        "make_deck", Path(__file__).parent.parent / "bench" / "make_deck.py"
    )
    assert spec and spec.loader
    make_deck = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_deck)
    folder = tmp_path / "big"
    folder.mkdir()
    count = deck_module.PARALLEL_FROM + 20
    for index in range(count):
        text = make_deck.TEMPLATE.format(index=index, group=0, k=index % 97 + 2, m=index % 13 + 1)
        (folder / f"synthetic-{index}.yaml").write_text(text, encoding="utf-8")
    (folder / "broken.yaml").write_text("id: broken\ntitle: [\n", encoding="utf-8")
    (folder / "twin.yaml").write_text(
        make_deck.TEMPLATE.format(index=7, group=0, k=9, m=8), encoding="utf-8"
    )

    expected = load_deck([folder])  # one process, no cache: the reference
    cache = DeckCache(folder)
    files = deck_module.card_files(folder)
    deck_module._fill_cache(cache, files)
    # The workers stored every valid card; the broken one and the twin are left to the parent.
    assert len(cache.entries) == count + 1  # the twin is valid on its own
    assert "broken" not in json.dumps(cache.entries)

    cold = load_deck([folder], cached=True)
    assert sorted(c.id for c in cold.cards) == sorted(c.id for c in expected.cards)
    assert [(p.path, p.message) for p in cold.problems] == [
        (p.path, p.message) for p in expected.problems
    ]
    assert any("duplicate id 'synthetic-7'" in p.message for p in cold.problems)
    assert any(p.path.endswith("broken.yaml") for p in cold.problems)

    parsed = []
    real_load = deck_module.load_card_file

    def counting(path, *args, **kwargs):
        parsed.append(path.name)
        return real_load(path, *args, **kwargs)

    monkeypatch.setattr(deck_module, "load_card_file", counting)
    assert len(load_deck([folder], cached=True).cards) == len(cold.cards)
    assert parsed == ["broken.yaml"]  # problems are never cached; everything else is
