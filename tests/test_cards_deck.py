"""Loading cards: the model, located problems, duplicates, deck discovery."""

from __future__ import annotations

import os

import pytest

from quizzer.cards.deck import (
    bundled_content_dir,
    deck_sources,
    load_card_file,
    load_deck,
    resolve_card,
)
from quizzer.cards.model import Card
from quizzer.errors import CardNotFound, DeckNotFound, InvalidCard

from .conftest import ATTENTION, MINIMAL_CARD


def problems_of(path):
    loaded, problems = load_card_file(path)
    return loaded, [(p.line, p.column, p.message) for p in problems]


def test_the_attention_card_loads():
    loaded, problems = load_card_file(ATTENTION)
    assert problems == []
    card = loaded.card
    assert card.id == "attention"
    assert list(card.blanks) == ["scale", "values"]
    assert card.gaps() == ["scale", "values"]
    assert card.blanks["scale"].answer == "sqrt(d_k)"
    assert card.blanks["values"].answer == "V"
    assert {"value matrix", "values"} <= set(card.blanks["values"].also)
    assert card.symbols["d_k"].positive and card.symbols["V"].matrix
    wrong = {w.answer for w in card.blanks["scale"].wrong}
    assert {"d_k", "log(d_k)", "d_k**2"} <= wrong
    assert {"K", "Q"} <= {w.answer for w in card.blanks["values"].wrong}
    assert len(card.follow_ups) >= 3
    assert any(
        "variance" in w.feedback and "standard deviation" in w.feedback
        for w in card.blanks["scale"].wrong
        if w.answer == "d_k"
    )


def test_a_minimal_card_is_valid(write_card):
    loaded, problems = problems_of(write_card(MINIMAL_CARD.format(id="minimal")))
    assert problems == []
    assert loaded.card.intuition is None and loaded.card.follow_ups == []


def test_numbers_in_answers_are_text(write_card):
    path = write_card(MINIMAL_CARD.format(id="numeric").replace("answer: m", "answer: 0.5"))
    loaded, problems = problems_of(path)
    assert problems == [] and loaded.card.blanks["slope"].answer == "0.5"


BROKEN_FIELDS = [
    # (replace this, with that, expected line, column, message fragment)
    ("id: {id}", "id: Not_Kebab", 1, 5, "id must be lower-case kebab-case"),
    ("title: A minimal card\n", "", 1, 1, "missing required field 'title'"),
    ("    answer: m\n", "    answer: m\n    feedbak: x\n", 9, 5, "unknown field 'feedbak'"),
    ("    answer: m\n", "    answr: m\n", 8, 5, "missing required field 'answer'"),
    (
        "  m: {{}}",
        "  m: {{matrix: maybe}}",
        5,
        15,
        "symbols.m.matrix: input should be a valid boolean",
    ),
    ("  m: {{}}", "  2m: {{}}", 5, 3, "'2m' must be a name"),
    (
        "    answer: m\n",
        "    answer: m\n    wrong: [{{answer: x}}]\n",
        9,
        13,
        "missing required field 'feedback'",
    ),
    (
        "y = {{{{slope}}}} x",
        "y = {{{{slope}}}} x + {{{{intercept}}}}",
        3,
        9,
        "gap {{intercept}} has no blank",
    ),
    ("y = {{{{slope}}}} x", "y = x", 3, 9, "prompt has no {{gap}}"),
    (
        "title: A minimal card\n",
        "title: A minimal card\ntags: [Has Space]\n",
        3,
        8,
        "tags[0] must be lower-case kebab-case",
    ),
    (
        "title: A minimal card\n",
        "title: A minimal card\nfollow_up: []\n",
        3,
        1,
        "did you mean 'follow_ups'?",
    ),
]


@pytest.mark.parametrize(("old", "new", "line", "column", "message"), BROKEN_FIELDS)
def test_broken_fields_point_at_their_node(write_card, old, new, line, column, message):
    text = MINIMAL_CARD.replace(old, new).format(id="broken")
    loaded, problems = problems_of(write_card(text))
    assert loaded is None
    assert any(message in m and (ln, col) == (line, column) for ln, col, m in problems), problems


def test_blank_not_in_prompt_and_order(write_card):
    text = """\
    id: order
    title: Order
    prompt: "{{b}} then {{a}}"
    blanks:
      a: {answer: x}
      b: {answer: y}
      c: {answer: z}
    symbols: {x: {}, y: {}, z: {}}
    """
    _, problems = problems_of(write_card(text))
    messages = [m for _, _, m in problems]
    assert "blank 'c' is not in the prompt" in messages
    assert any(m.startswith("list the blanks in prompt order: b, a") for m in messages)


def test_alias_clash(write_card):
    text = MINIMAL_CARD.format(id="alias").replace("  m: {}", "  m: {aliases: [k]}\n  k: {}")
    _, problems = problems_of(write_card(text))
    assert (5, 17, "alias 'k' is already used by symbol 'k'") in problems


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "not empty"),
        (b"- just\n- a list\n", "not a list"),
        (b"id: [unclosed\n", "invalid YAML"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b"id: x\x00y\n", "binary file"),
    ],
)
def test_files_that_are_not_cards(tmp_path, content, message):
    path = tmp_path / "bad.yaml"
    path.write_bytes(content)
    loaded, problems = problems_of(path)
    assert loaded is None
    assert message in problems[0][2]


def test_a_folder_and_a_huge_file(tmp_path):
    folder = tmp_path / "dir.yaml"
    folder.mkdir()
    assert "folder" in problems_of(folder)[1][0][2]
    huge = tmp_path / "huge.yaml"
    huge.write_text("a: " + "x" * 1_100_000)
    assert "too large" in problems_of(huge)[1][0][2]


def test_python_tag_in_a_card_is_not_executed(write_card, tmp_path):
    marker = tmp_path / "pwned"
    text = (
        MINIMAL_CARD.format(id="evil")
        + f"intuition: !!python/object/apply:os.system ['touch {marker}']\n"
    )
    loaded, problems = problems_of(write_card(text))
    assert loaded is None and "not allowed" in problems[0][2]
    assert not marker.exists()


def test_duplicate_ids_name_both_files(tmp_path):
    first = tmp_path / "a" / "one.yaml"
    second = tmp_path / "b" / "two.yaml"
    for path in (first, second):
        path.parent.mkdir()
        path.write_text(MINIMAL_CARD.format(id="same"))
    deck = load_deck([tmp_path])
    assert [c.path for c in deck.cards] == [first]
    (problem,) = deck.problems
    assert problem.path == str(second) and (problem.line, problem.column) == (1, 5)
    assert f"duplicate id 'same' (also in {first}:1)" in problem.message


def test_the_same_file_twice_is_not_a_duplicate():
    deck = load_deck([bundled_content_dir(), ATTENTION])
    assert deck.problems == [] and [c.id for c in deck.cards].count("attention") == 1


def test_deck_sources_order(tmp_path):
    one, two, three = (tmp_path / n for n in ("one", "two", "three"))
    for folder in (one, two, three):
        folder.mkdir()
    env = {"QUIZZER_DECKS": os.pathsep.join([str(one), "", str(two)])}
    assert deck_sources([three], env) == [bundled_content_dir(), one, two, three]
    with pytest.raises(DeckNotFound, match="QUIZZER_DECKS"):
        deck_sources([], {"QUIZZER_DECKS": str(tmp_path / "nope")})
    with pytest.raises(DeckNotFound, match="--deck"):
        deck_sources([tmp_path / "nope"], {})


def test_deck_names_come_from_folders(tmp_path):
    (tmp_path / "stats" / "basics").mkdir(parents=True)
    (tmp_path / "stats" / "basics" / "c.yaml").write_text(MINIMAL_CARD.format(id="c"))
    (tmp_path / "top.yml").write_text(MINIMAL_CARD.format(id="top"))
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "h.yaml").write_text(MINIMAL_CARD.format(id="hidden"))
    deck = load_deck([tmp_path])
    assert {(c.id, c.deck) for c in deck.cards} == {("c", "stats/basics"), ("top", tmp_path.name)}


def test_resolve_by_id_and_by_path(write_card):
    sources = deck_sources([], {})
    assert resolve_card("attention", sources).path == ATTENTION
    assert resolve_card(str(ATTENTION), sources).id == "attention"
    with pytest.raises(CardNotFound, match="did you mean attention"):
        resolve_card("atention", sources)
    with pytest.raises(CardNotFound, match="no card file"):
        resolve_card("missing/card.yaml", sources)
    bad = write_card("id: [\n", "bad.yaml")
    with pytest.raises(InvalidCard, match=r"bad.yaml:2:1: invalid YAML"):
        resolve_card(str(bad), sources)


def test_card_model_forbids_extra_fields():
    with pytest.raises(Exception, match="extra"):
        Card.model_validate(
            {
                "id": "x",
                "title": "t",
                "prompt": "{{a}}",
                "blanks": {"a": {"answer": "x"}},
                "oops": 1,
            }
        )


# -- the depth every bundled card promises (issue 17) ----------------------------------


def _bundled_cards():
    from quizzer.cards.deck import bundled_content_dir, load_deck

    return [loaded.card for loaded in load_deck([bundled_content_dir()]).cards]


def test_the_bundled_deck_is_deep_enough():
    cards = _bundled_cards()
    assert len(cards) >= 120
    assert len({tag for card in cards for tag in card.tags}) >= 15
    shallow = []
    for card in cards:
        words = len((card.explanation or "").split())
        if words < 150 or len(card.follow_ups) < 3 or not card.code or not card.worked_example:
            shallow.append(f"{card.id}: {words} words, {len(card.follow_ups)} follow-ups")
    assert not shallow, "cards below the bar: " + "; ".join(shallow)


# --- strict types, as the schema says: no text-to-bool or text-to-number coercion -------


@pytest.mark.parametrize(
    ("extra", "line", "column", "message"),
    [
        (
            "symbols:\n  m: {positive: \"true\"}\n",
            2, 17, "symbols.m.positive: input should be a valid boolean, not the text 'true':"
            " write it without quotes",
        ),
        (
            "symbols:\n  m: {matrix: \"yes\"}\n",
            2, 15, "symbols.m.matrix: input should be a valid boolean, not the text 'yes'"
            " (true or false)",
        ),
        ("symbols:\n  m: {integer: 1}\n", 2, 16, "symbols.m.integer: input should be a valid bool"),
        (
            "sources:\n  - {title: Paper, year: \"2017\"}\n",
            2, 26, "sources[0].year: input should be a valid integer, not the text '2017':"
            " write it without quotes",
        ),
        ("sources:\n  - {title: P, year: 2017.0}\n", 2, 22, "sources[0].year: input should be"),
        ("level: 1.0\n", 1, 8, "level: input should be 1, 2 or 3"),
        ("level: true\n", 1, 8, "level: input should be 1, 2 or 3"),
        (
            "symbols:\n  m: {range: [\"0\", 1]}\n",
            2, 15, "symbols.m.range[0]: input should be a valid number, not the text '0':",
        ),
    ],
)  # fmt: skip
def test_types_are_strict_with_the_fix_at_line_and_column(write_card, extra, line, column, message):
    text = MINIMAL_CARD.format(id="strict").replace("symbols:\n  m: {}\n", "")
    if "symbols:" not in extra:
        text += "symbols:\n  m: {}\n"
    loaded, problems = problems_of(write_card(text + extra))
    assert loaded is None
    # line counts from the start of ``extra``, after the minimal card's lines.
    offset = text.count("\n")
    assert [(p_line - offset, p_column) for p_line, p_column, _ in problems] == [(line, column)]
    assert problems[0][2].startswith(message), problems[0][2]


def test_the_same_card_with_real_types_loads(write_card):
    text = MINIMAL_CARD.format(id="typed").replace("m: {}", "m: {positive: true, range: [0, 1.5]}")
    loaded, problems = problems_of(
        write_card(text + "sources:\n  - {title: P, year: 2017}\nlevel: 1\n")
    )
    assert problems == [] and loaded.card.symbols["m"].positive and loaded.card.level == 1
    assert loaded.card.sources[0].year == 2017


@pytest.mark.parametrize("written", ["1e-4", "012", "0.50", "0o17", "-1e9", "7"])
def test_a_bare_number_in_an_answer_field_keeps_its_text(write_card, written):
    text = MINIMAL_CARD.format(id="as-written").replace("answer: m", f"answer: {written}")
    text = text.replace("m: {}", f"m: {{}}\n  k: {{value: {written}}}")
    text += "follow_ups:\n  - question: Q\n    approach: A\n    key_points:\n"
    text += f"      - {{point: p, formula: {written}}}\n"
    loaded, problems = problems_of(write_card(text))
    assert loaded is not None, problems
    assert loaded.card.blanks["slope"].answer == written
    assert loaded.card.symbols["k"].value == written
    assert loaded.card.follow_ups[0].key_points[0].formula == written


def test_a_bare_number_where_text_is_wanted_says_to_quote_it(write_card):
    text = MINIMAL_CARD.format(id="quote-it") + "bullets: [fine, 1e-4]\n"
    loaded, problems = problems_of(write_card(text))
    assert loaded is None
    message = 'bullets[1]: text is wanted, not the number 1e-4: quote it, "1e-4"'
    assert problems == [(9, 17, message)]
