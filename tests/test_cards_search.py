"""``--search TEXT``: every word, any case or accent, in title, prompt, tags, answers, teaching.

DESIGN.md contract item 19. Ranked by BM25 (a title match first), from the deck
cache's FTS5 index, or from an index built in memory when the cache lacks cards.
"""

from __future__ import annotations

import json

import pytest

from quizzer.cards import search as search_module
from quizzer.cards.cache import close_databases
from quizzer.cards.deck import load_deck
from quizzer.cards.search import fold, match_expression, search_cards, words_of
from quizzer.errors import QuizzerError

CARD = """\
id: {id}
title: {title}
prompt: "y = {{{{slope}}}} x"
tags: [{tags}]
symbols:
  m: {{}}
blanks:
  slope:
    answer: {answer}
explanation: {explanation}
"""


def card(id, title="A line", tags="lines", answer="m", explanation="The slope of a line."):
    return CARD.format(id=id, title=title, tags=tags, answer=answer, explanation=explanation)


@pytest.fixture
def deck(tmp_path):
    folder = tmp_path / "deck"
    folder.mkdir()
    cards = {
        "in-title": card("in-title", title="Zorblax of a softmax"),
        "in-teaching": card("in-teaching", explanation="Dividing by the zorblax flattens it."),
        "in-tags": card("in-tags", tags="zorblax, sampling"),
        "accented": card("accented", explanation="Régularisation de Tikhonov-Zéphyrin, à la main."),
        "unrelated": card("unrelated", explanation="Nothing to see."),
    }
    for name, text in cards.items():
        (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    return folder


def ids(cards):
    return [c.id for c in cards]


def test_words_are_folded_and_a_search_without_words_is_an_error():
    assert words_of("Régularisation  SOFTMAX, x_1") == ["regularisation", "softmax", "x_1"]
    assert fold("Ångström") == "angstrom"
    with pytest.raises(QuizzerError, match="nothing to search for"):
        words_of(" ,;- ")


def test_what_is_typed_is_never_read_as_query_syntax():
    assert match_expression(['a"b', "not"]) == '"a""b"* AND "not"*'


def test_a_title_match_ranks_first_then_tags_then_teaching(deck):
    found = search_cards(load_deck([deck], cached=True).cards, "zorblax")
    assert ids(found) == ["in-title", "in-tags", "in-teaching"]


ALL = "a-everywhere"  # the words all through its teaching text, and nowhere else
LONG_TEACHING = " ".join(["Attention scores are dot products; the dot product grows."] * 40)


@pytest.fixture
def ranked(tmp_path):
    """Cards shaped like the bundled deck's: a long card with the words all through its
    teaching text (as qk-norm) must not outrank the card whose title they are."""
    folder = tmp_path / "ranked"
    folder.mkdir()
    cards = {
        "a-everywhere": card(
            "a-everywhere",
            title="Normalising queries and keys",
            tags="normalisation",
            explanation=LONG_TEACHING,
        ),
        "b-titled": card("b-titled", title="Scaled dot-product attention", explanation="Short."),
        "c-tagged": card("c-tagged", title="Something else", tags="dot, product, attention"),
        # The hint is in the answers column (what a blank says).
        "d-hinted": card("d-hinted", title="Another", explanation="Short.").replace(
            "answer: m", "answer: m\n    hint: the dot product in attention"
        ),
        "e-longer-title": card(
            "e-longer-title", title="The cost of scaled dot-product attention at long context"
        ),
    }
    for name, text in cards.items():
        (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    return load_deck([folder], cached=True).cards


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Title first (the shorter title of two holding the words), then tags, then
        # answers, then the teaching text however often it repeats the words.
        ("dot product attention", ["b-titled", "e-longer-title", "c-tagged", "d-hinted", ALL]),
        ("attention", ["b-titled", "e-longer-title", "c-tagged", "d-hinted", "a-everywhere"]),
        ("scaled attention", ["b-titled", "e-longer-title"]),
        ("normalising dot", ["a-everywhere"]),
        ("product", ["b-titled", "e-longer-title", "c-tagged", "d-hinted", ALL]),
    ],
)
def test_title_outweighs_tags_which_outweigh_answers_and_teaching(ranked, text, expected):
    assert ids(search_cards(ranked, text)) == expected


def test_every_ranking_path_agrees_on_the_ranked_cards(ranked, monkeypatch):
    texts = ["dot product attention", "attention", "product", "scaled attention"]
    from_cache = [ids(search_cards(ranked, text)) for text in texts]
    close_databases()
    monkeypatch.setattr(search_module, "database", lambda: None)
    assert [ids(search_cards(ranked, text)) for text in texts] == from_cache
    rows = [
        (str(c.path), search_module.search_columns(c.card.model_dump(mode="json"))) for c in ranked
    ]
    by_path = {str(c.path): c.id for c in ranked}
    for text, expected in zip(texts, from_cache, strict=True):
        scores = search_module._scores_without_fts(rows, words_of(text))
        assert [by_path[p] for p in sorted(scores, key=scores.__getitem__)] == expected


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("dot product attention", "attention"),  # issue 24: qk-norm used to come first
        ("softmax temperature", "softmax-temperature"),
        ("kl divergence", "kl-divergence"),
        ("layer normalisation", "layer-norm"),
        ("gradient softmax cross entropy", "softmax-cross-entropy-gradient"),
    ],
)
def test_the_bundled_card_a_search_names_comes_first(invoke, text, first):
    items = json.loads(invoke("list", "--search", text, "--json").stdout)
    assert items[0]["id"] == first


def test_every_word_must_match_somewhere_in_the_card(deck):
    cards = load_deck([deck], cached=True).cards
    assert ids(search_cards(cards, "softmax zorblax")) == ["in-title"]
    assert ids(search_cards(cards, "zorblax tikhonov")) == []
    # A word may match the start of a longer one, in any column.
    assert ids(search_cards(cards, "zorbl soft")) == ["in-title"]


@pytest.mark.parametrize("text", ["regularisation", "RÉGULARISATION", "régularisation tikhonov"])
def test_case_and_accents_do_not_matter(deck, text):
    assert ids(search_cards(load_deck([deck], cached=True).cards, text)) == ["accented"]


def test_answers_are_searched(deck, tmp_path):
    (deck / "answered.yaml").write_text(card("answered", answer="m*kappa", explanation="x"))
    assert "answered" in ids(search_cards(load_deck([deck], cached=True).cards, "kappa"))


def test_the_cache_index_the_memory_index_and_plain_python_rank_alike(deck, monkeypatch):
    cards = load_deck([deck], cached=True).cards
    from_cache = ids(search_cards(cards, "zorblax"))
    close_databases()
    monkeypatch.setattr(search_module, "database", lambda: None)
    assert ids(search_cards(cards, "zorblax")) == from_cache
    rows = [
        (str(c.path), search_module.search_columns(c.card.model_dump(mode="json"))) for c in cards
    ]
    scores = search_module._scores_without_fts(rows, ["zorblax"])
    by_path = {str(c.path): c.id for c in cards}
    assert [by_path[p] for p in sorted(scores, key=scores.__getitem__)] == from_cache


def test_an_edited_card_is_found_by_its_new_words_only(deck):
    load_deck([deck], cached=True)
    (deck / "unrelated.yaml").write_text(card("unrelated", explanation="Now about zebras."))
    cards = load_deck([deck], cached=True).cards
    assert ids(search_cards(cards, "zebras")) == ["unrelated"]
    assert ids(search_cards(cards, "nothing to see")) == []


def test_list_search_ranks_and_keeps_the_json_shape(invoke, deck):
    result = invoke("list", "--deck", str(deck), "--search", "zorblax", "--json")
    assert result.exit_code == 0, result.output
    items = json.loads(result.stdout)
    assert [i["id"] for i in items] == ["in-title", "in-tags", "in-teaching"]
    assert set(json.loads(invoke("list", "--json").stdout)[0]) == set(items[0])


def test_list_search_finds_bundled_cards_by_their_teaching(invoke):
    items = json.loads(invoke("list", "--search", "scaled dot product", "--json").stdout)
    assert "attention" in [i["id"] for i in items]


@pytest.mark.parametrize(
    "args",
    [
        ("list", "--search", "zebra quagga"),
        ("quiz", "--no-record", "--search", "zebra quagga"),
        ("review", "--search", "zebra quagga"),
        ("drill", "--no-record", "--search", "zebra quagga"),
        ("export", "json", "out.json", "--search", "zebra quagga"),
    ],
)
def test_no_match_is_one_clear_line_and_exit_2(invoke, args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == "quizzer: error: no cards match 'zebra quagga'"


def test_quiz_review_and_export_study_only_the_matches(invoke, deck, tmp_path):
    out = tmp_path / "found.json"
    assert invoke("export", "json", str(out), "--deck", str(deck), "-s", "zorblax").exit_code == 0
    assert [c["id"] for c in json.loads(out.read_text())] == ["in-title", "in-tags", "in-teaching"]
    result = invoke("quiz", "--no-record", "--deck", str(deck), "--search", "zephyrin", input="m\n")
    assert result.exit_code == 0, result.output
    assert "accented │" in result.stdout
    assert not any(f"{other} │" in result.stdout for other in ("in-title", "unrelated"))
    result = invoke(
        "review", "--deck", str(deck), "--search", "zephyrin", "--new", "5", input="m\n"
    )
    assert result.exit_code == 0, result.output
    assert "Review: 0 due, 1 new" in result.stdout and "accented │" in result.stdout
