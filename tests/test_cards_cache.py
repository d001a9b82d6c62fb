"""The deck cache: warm starts skip parsing, and nothing stale or broken gets through."""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from quizzer.cards import cache as cache_module
from quizzer.cards import deck as deck_module
from quizzer.cards.cache import CACHE_FILE, DeckCache, cache_folder, close_databases, database
from quizzer.cards.deck import load_deck

from .conftest import MINIMAL_CARD

MINIMAL = {
    "id": "a",
    "title": "A minimal card",
    "prompt": "y = {{slope}} x",
    "tags": [],
    "symbols": {"m": {}},
    "blanks": {"slope": {"answer": "m", "also": [], "wrong": [], "examples": []}},
    "follow_ups": [],
    "sources": [],
}


@pytest.fixture(autouse=True)
def fresh_connections(tmp_path, monkeypatch):
    """Each test starts as a new process would: no cache connection open, and a cold
    cache of its own (the other tests share one per process)."""
    monkeypatch.setenv("QUIZZER_CACHE", str(tmp_path / "own-cache"))
    close_databases()
    yield
    close_databases()


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


def rows(query, args=()):
    """Read the cache file as another process would."""
    close_databases()
    with closing(sqlite3.connect(cache_folder() / CACHE_FILE)) as db:
        return db.execute(query, args).fetchall()


def tamper(query, args=()):
    close_databases()
    with closing(sqlite3.connect(cache_folder() / CACHE_FILE)) as db:
        db.execute(query, args)
        db.commit()


@pytest.mark.parametrize(
    "content",
    [b"", b"{not json", b"SQLite format 3\x00" + b"\xff" * 5000, os.urandom(8192)],
    ids=["empty", "text", "damaged-header", "random"],
)
def test_a_corrupt_cache_file_is_a_miss_and_is_rebuilt(folder, monkeypatch, content):
    load_deck([folder], cached=True)
    close_databases()
    (cache_folder() / CACHE_FILE).write_bytes(content)
    for suffix in ("-wal", "-shm"):
        (cache_folder() / f"{CACHE_FILE}{suffix}").unlink(missing_ok=True)
    assert len(load_deck([folder], cached=True).cards) == 2
    close_databases()
    calls = count_parses(monkeypatch)
    assert len(load_deck([folder], cached=True).cards) == 2
    assert calls == []  # the cache was written afresh


def test_a_cache_of_another_version_is_not_read(folder, monkeypatch):
    load_deck([folder], cached=True)
    tamper("UPDATE meta SET value = 'old' WHERE key = 'format'")
    calls = count_parses(monkeypatch)
    assert len(load_deck([folder], cached=True).cards) == 2
    assert sorted(calls) == ["a.yaml", "b.yaml"]


@pytest.mark.parametrize(
    "summary",
    [
        "{broken",
        "[]",
        json.dumps({"id": "a", "title": "A minimal card", "tags": []}),  # no blanks
        json.dumps({"id": 5, "title": "x", "tags": [], "blanks": []}),
        "[" * 100_000 + "]" * 100_000,  # deeper than the JSON reader's stack
    ],
    ids=["not-json", "a-list", "no-blanks", "id-not-text", "deep"],
)
def test_wrong_shaped_summaries_fall_back_to_the_file(folder, summary):
    load_deck([folder], cached=True)
    tamper("UPDATE cards SET summary = ?", (summary,))
    deck = load_deck([folder], cached=True)
    assert sorted(c.id for c in deck.cards) == ["a", "b"] and deck.problems == []


@pytest.mark.parametrize(
    "data",
    [
        "{broken",
        "null",
        json.dumps({"id": "a"}),
        json.dumps({**MINIMAL, "blanks": ["slope"]}),
        json.dumps({**MINIMAL, "blanks": {"slope": {"answer": 5}}}),
        json.dumps({**MINIMAL, "symbols": {"m": []}}),
        "{" + '"a":[' * 50_000 + "]" * 50_000 + "}",
    ],
    ids=["not-json", "null", "only-id", "blanks-list", "answer-number", "symbol-list", "deep"],
)
def test_wrong_shaped_card_data_is_read_from_the_card_file(folder, data):
    load_deck([folder], cached=True)
    tamper("UPDATE cards SET data = ?", (data,))
    deck = load_deck([folder], cached=True)
    assert deck.cards[0].card.blanks["slope"].answer == "m"


def test_listing_does_not_read_card_data(folder):
    load_deck([folder], cached=True)
    tamper("UPDATE cards SET data = ''")
    deck = load_deck([folder], cached=True)
    assert [(c.id, c.title, c.blank_names) for c in deck.cards] == [
        ("a", "A minimal card", ["slope"]),
        ("b", "A minimal card", ["slope"]),
    ]


def test_removed_files_leave_the_cache(folder):
    load_deck([folder], cached=True)
    (folder / "b.yaml").unlink()
    load_deck([folder], cached=True)
    assert rows("SELECT card_id FROM cards") == [("a",)]
    assert len(DeckCache(folder).entries) == 1


def test_a_cold_cache_is_written_in_one_transaction(folder):
    for index in range(20):
        (folder / f"c{index}.yaml").write_text(MINIMAL_CARD.format(id=f"c{index}"))
    db = database()
    assert db is not None
    statements = []
    db.set_trace_callback(statements.append)
    load_deck([folder], cached=True)
    db.set_trace_callback(None)
    assert statements.count("COMMIT") == 1
    assert len(rows("SELECT path FROM cards")) == 22
    assert [p.name for p in cache_folder().iterdir() if not p.name.startswith(CACHE_FILE)] == []


def test_a_cache_locked_by_another_process_is_harmless(folder, monkeypatch):
    monkeypatch.setattr(cache_module, "BUSY_SECONDS", 0.05)
    load_deck([folder], cached=True)
    close_databases()
    (folder / "c.yaml").write_text(MINIMAL_CARD.format(id="c"))
    with closing(sqlite3.connect(cache_folder() / CACHE_FILE, isolation_level=None)) as other:
        other.execute("BEGIN EXCLUSIVE")
        deck = load_deck([folder], cached=True)  # cannot save: carries on without
        other.execute("ROLLBACK")
    assert sorted(c.id for c in deck.cards) == ["a", "b", "c"]


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
    deck_module._fill_cache(cache, files, deck_module._stats(files))
    # The workers stored every valid card; the broken one and the twin are left to the parent.
    assert len(cache.entries) == count + 1  # the twin is valid on its own
    assert "broken" not in json.dumps(cache.entries)
    cache.save()

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
    # Problems are never cached; a duplicate id reads both files again for its position.
    assert sorted(parsed) == ["broken.yaml", "synthetic-7.yaml", "twin.yaml"]


# -- validate's result cache -------------------------------------------------------------------

CHECKED_CARD = """\
id: {id}
title: A checked card
prompt: "y = {{{{slope}}}} x"
symbols:
  m: {{}}
related: [{related}]
blanks:
  slope:
    answer: m
    examples:
      - {{answer: "m", correct: true}}
      - {{answer: "2*m", correct: {second}}}
"""


def count_deep_checks(monkeypatch):
    from quizzer.app import validating as validate_module

    checked = []
    real = validate_module._deep_check

    def counting(job):
        checked.append(Path(job[1]).name)
        return real(job)

    monkeypatch.setattr(validate_module, "_deep_check", counting)
    return checked


def checked_deck(tmp_path):
    folder = tmp_path / "checked"
    folder.mkdir()
    (folder / "a.yaml").write_text(CHECKED_CARD.format(id="a", related="b", second="false"))
    (folder / "b.yaml").write_text(CHECKED_CARD.format(id="b", related="", second="true"))
    return folder


def report_of(folder, **options):
    from quizzer.app.validating import validate_paths

    report = validate_paths([folder], [folder], workers=1, **options)
    return [(Path(p.path).name, p.line, p.message) for p in report.problems]


def test_validate_judges_an_unchanged_card_once(tmp_path, monkeypatch):
    folder = checked_deck(tmp_path)
    checked = count_deep_checks(monkeypatch)
    first = report_of(folder)
    assert sorted(checked) == ["a.yaml", "b.yaml"]
    assert any(
        (name, line) == ("b.yaml", 12) and "'2*m' is judged wrong but declared right" in message
        for name, line, message in first
    )
    checked.clear()
    assert report_of(folder) == first and checked == []  # positions included


def test_validate_judges_again_what_changed(tmp_path, monkeypatch):
    folder = checked_deck(tmp_path)
    report_of(folder)
    checked = count_deep_checks(monkeypatch)
    (folder / "b.yaml").write_text(CHECKED_CARD.format(id="b", related="", second="false"))
    problems = report_of(folder)
    assert checked == ["b.yaml"]
    assert not any("'2*m' is judged" in message for _, _, message in problems)


def test_a_new_id_in_the_deck_judges_every_card_again(tmp_path, monkeypatch):
    folder = checked_deck(tmp_path)
    (folder / "a.yaml").write_text(CHECKED_CARD.format(id="a", related="c", second="false"))
    assert any("unknown related card 'c'" in m for _, _, m in report_of(folder))
    checked = count_deep_checks(monkeypatch)
    (folder / "c.yaml").write_text(CHECKED_CARD.format(id="c", related="", second="false"))
    problems = report_of(folder)
    assert not any("unknown related card" in m for _, _, m in problems)
    assert sorted(checked) == ["a.yaml", "b.yaml", "c.yaml"]


def test_strict_and_no_cache_give_the_same_problems(tmp_path, monkeypatch):
    folder = checked_deck(tmp_path)
    report_of(folder)
    checked = count_deep_checks(monkeypatch)
    uncached = report_of(folder, cached=False)
    assert sorted(checked) == ["a.yaml", "b.yaml"]
    assert report_of(folder) == uncached


@pytest.mark.parametrize(
    "stored",
    [
        "{broken",
        "{}",
        "[1, 2]",
        '[{"path": "x"}]',
        '[{"path": "x", "line": "one", "column": 1, "message": "m", "severity": "error"}]',
        '[{"path": "x", "line": 1, "column": 1, "message": "m", "severity": "fatal"}]',
        "[" * 100_000 + "]" * 100_000,
    ],
    ids=["not-json", "a-map", "numbers", "missing-keys", "line-text", "severity", "deep"],
)
def test_damaged_results_are_judged_again(tmp_path, monkeypatch, stored):
    folder = checked_deck(tmp_path)
    first = report_of(folder)
    tamper("UPDATE results SET problems = ?", (stored,))
    checked = count_deep_checks(monkeypatch)
    assert report_of(folder) == first
    assert sorted(checked) == ["a.yaml", "b.yaml"]


def test_duplicate_ids_point_at_the_id_line_even_from_the_cache(tmp_path):
    folder = checked_deck(tmp_path)
    (folder / "c.yaml").write_text("\n\n" + CHECKED_CARD.format(id="a", related="", second="false"))
    load_deck([folder], cached=True)
    deck = load_deck([folder], cached=True)
    (problem,) = [p for p in deck.problems if "duplicate" in p.message]
    assert (Path(problem.path).name, problem.line, problem.column) == ("c.yaml", 3, 5)
    assert f"also in {folder / 'a.yaml'}:1" in problem.message
