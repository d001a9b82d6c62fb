"""The position-keeping safe YAML loader."""

from __future__ import annotations

import contextlib

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from quizzer.cards.yamldoc import CardDumper, Position, YamlError, load_yaml


def test_positions_of_nested_values_and_keys():
    doc = load_yaml("a: 1\nb:\n  c: [x, y]\n  d:\n    - e: f\n")
    assert doc.data == {"a": 1, "b": {"c": ["x", "y"], "d": [{"e": "f"}]}}
    assert doc.positions[("a",)] == Position(1, 4)
    assert doc.positions[("b", "c", 1)] == Position(3, 10)
    assert doc.positions[("b", "d", 0, "e")] == Position(5, 10)
    assert doc.key_positions[("b", "d")] == Position(4, 3)


def test_position_of_falls_back_to_the_nearest_ancestor():
    doc = load_yaml("a:\n  b: 1\n")
    assert doc.position_of(("a", "missing", 3)) == Position(2, 3)
    assert doc.position_of(("a", "b"), key=True) == Position(2, 3)


def test_keys_stay_as_written():
    doc = load_yaml("on: 1\n1: 2\nnull: 3\n")
    assert doc.data == {"on": 1, "1": 2, "null": 3}


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        ("a: [1, 2\n", "invalid YAML", 2, 1),
        ("a: 1\n b: 2\n", "invalid YAML", 2, 3),
        ("a: 1\na: 2\n", "duplicate key 'a'", 2, 1),
        ("a: !!python/object/apply:os.system ['echo hi']\n", "!!python/object/apply", 1, 4),
        ("a: !!python/name:os.system\n", "!!python/name", 1, 4),
        ("a: !custom 3\n", "tag !custom is not allowed", 1, 4),
        ("a: !!binary aGVsbG8=\n", "!!binary", 1, 4),
        ("a: !!set {x, y}\n", "!!set", 1, 4),
        ("base: &b {x: 1}\nother:\n  <<: *b\n", "merge keys", 3, 3),
        ("? [a, b]\n: 1\n", "plain name", 1, 3),
        ("a: 1\n---\nb: 2\n", "invalid YAML", 2, 1),
        ("a: \x07\n", "invalid YAML", 1, 1),
    ],
)
def test_bad_documents_are_errors_with_positions(text, message, line, column):
    with pytest.raises(YamlError) as caught:
        load_yaml(text)
    assert message in caught.value.message
    assert caught.value.position == Position(line, column)


def test_python_tags_are_never_executed(tmp_path):
    marker = tmp_path / "pwned"
    text = f"a: !!python/object/apply:os.system ['touch {marker}']\n"
    with pytest.raises(YamlError):
        load_yaml(text)
    assert not marker.exists()


def test_alias_bomb_is_refused_quickly():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 10):
        refs = ", ".join([f"*a{i - 1}"] * 10)
        lines.append(f"a{i}: &a{i} [{refs}]")
    with pytest.raises(YamlError, match="too large"):
        load_yaml("\n".join(lines))


def test_deep_nesting_is_an_error_not_a_crash():
    with pytest.raises(YamlError):
        load_yaml("a: " + "[" * 100_000)


def test_empty_document_is_none():
    assert load_yaml("").data is None
    assert load_yaml("# only a comment\n").data is None


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.text(max_size=20),
    st.floats(allow_nan=False, allow_infinity=False),
)
documents = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.text(min_size=1, max_size=8), children, max_size=4),
    ),
    max_leaves=20,
)


@given(st.dictionaries(st.text(min_size=1, max_size=8), documents, max_size=5))
def test_round_trip_matches_safe_load(data):
    # Written by quizzer's dumper, a document means the same to quizzer (YAML 1.2) and to
    # PyYAML's safe_load (YAML 1.1). PyYAML's own dumper quotes only what 1.1 misreads.
    text = yaml.dump(data, Dumper=CardDumper, allow_unicode=True)
    assert load_yaml(text).data == yaml.safe_load(text)


@pytest.mark.parametrize(
    ("plain", "value"),
    [
        ("true", True), ("False", False), ("TRUE", True),
        ("yes", "yes"), ("no", "no"), ("on", "on"), ("off", "off"), ("Yes", "Yes"),
        ("NO", "NO"), ("y", "y"), ("N", "N"),
        ("12", 12), ("-3", -3), ("1.5", 1.5), ("~", None), ("null", None), ("", None),
        # YAML 1.2's core numbers: PyYAML (1.1) read the first two as text, 012 as ten.
        ("-1e9", -1e9), ("1e5", 100000.0), ("012", 12), ("0o17", 15), ("0x1F", 31),
        (".inf", float("inf")), ("-.Inf", float("-inf")), ("+.5", 0.5), ("1.", 1.0),
        # ...and what YAML 1.2 reads as text, where YAML 1.1 read numbers and dates.
        ("1_000", "1_000"), ("0b101", "0b101"), ("1:30", "1:30"), ("2017-01-01", "2017-01-01"),
        ("+0o7", "+0o7"), ("1e", "1e"), ("=", "="),
    ],
)  # fmt: skip
def test_only_true_and_false_are_booleans_as_in_yaml_1_2(plain, value):
    assert load_yaml(f"key: {plain}").data == {"key": value}


def test_not_a_number_is_nan():
    value = load_yaml("x: .NaN").data["x"]
    assert value != value


@given(st.lists(st.sampled_from(["yes", "no", "on", "off", "-1e9", "1e5", "0o12", "true"])))
def test_what_pyyaml_writes_reads_back_the_same(words):
    # quizzer's dumper is PyYAML's, quoting what either YAML version would misread.
    text = yaml.dump({"words": words}, Dumper=CardDumper)
    assert load_yaml(text).data == yaml.safe_load(text) == {"words": words}


def test_pyyaml_leaves_bare_what_yaml_1_2_reads_as_numbers():
    # Why quizzer has its own dumper: PyYAML writes these texts unquoted.
    assert yaml.safe_dump(["-1e9", "0o12"]) == "- -1e9\n- 0o12\n"
    assert load_yaml(yaml.safe_dump({"w": ["-1e9", "0o12"]})).data == {"w": [-1e9, 10]}


def test_quoted_and_tagged_scalars_keep_their_type():
    assert load_yaml('a: "true"\nb: \'no\'\nc: !!str 12\nd: !!int "7"').data == {
        "a": "true",
        "b": "no",
        "c": "12",
        "d": 7,
    }


def test_an_answer_of_no_is_the_word_no(write_card):
    from quizzer.cards.deck import load_card_file

    path = write_card(
        """\
        id: yes-or-no
        title: A word that YAML 1.1 reads as false
        prompt: "Is 2 prime? {{reply}}"
        blanks:
          reply: {answer: no, also: [on, off]}
        """
    )
    loaded, problems = load_card_file(path)
    assert problems == [] and loaded is not None
    assert loaded.card.blanks["reply"].answer == "no"
    assert loaded.card.blanks["reply"].also == ["on", "off"]


@given(st.text(max_size=200))
def test_arbitrary_text_raises_only_yaml_error(text):
    with contextlib.suppress(YamlError):
        load_yaml(text)


@pytest.mark.parametrize(
    "text",
    ["extra: " + "9" * 5000, "list:\n  - 1\n  - -" + "1" * 4301, "key: +" + "10" * 3000],
)
def test_an_integer_too_long_for_python_is_a_located_error(text):
    with pytest.raises(YamlError, match="number too long") as caught:
        load_yaml(text)
    assert caught.value.position.line == text.count("\n") + 1


def test_a_long_run_with_underscores_is_text_in_yaml_1_2():
    assert load_yaml("key: +" + "1_0" * 3000).data == {"key": "+" + "1_0" * 3000}


def test_an_explicit_number_tag_on_text_is_a_located_error():
    with pytest.raises(YamlError, match="'abc' is not an integer") as caught:
        load_yaml("a: 1\nb: !!int abc\n")
    assert caught.value.position == Position(2, 4)
    assert load_yaml('a: !!int "0o17"\nb: !!float "1e3"').data == {"a": 15, "b": 1000.0}


def test_a_long_integer_in_quotes_is_text():
    assert load_yaml('x: "' + "9" * 5000 + '"').data == {"x": "9" * 5000}


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        (
            'tags:\n  - "quoted" phrase\n',
            "quote the whole item: - '\"quoted\" phrase'",
            2,
            14,
        ),
        ("hint: note: this\n", "a ': ' inside a value needs quotes: hint: \"note: this\"", 1, 11),
        ('prompt: "x" y\n', "quote the whole value: prompt: '\"x\" y'", 1, 13),
        ("blanks:\n\tx: 1\n", "use spaces, not tabs, to indent", 2, 1),
        ("id: x\n\ttitle: T\n", "use spaces, not tabs, to indent", 2, 1),
        (
            'also: ["value" matrix, values]\n',
            "quote the whole item: [..., '\"value\" matrix', ...]",
            1,
            16,
        ),
        (
            "hint: it\n  says: more\n",
            "'says:' is indented under a value, not a mapping: line it up with the keys above it,"
            " or quote the value if the ': ' belongs to it",
            2,
            7,
        ),
        ("hint: 'it's'\n", "a ' inside '...' ends it: hint: \"it's\"", 1, 11),
        (
            'a: 1\nhint: "never closed\nb: 2\n',
            "this quote is never closed (a quote inside the text is doubled in '...' or escaped"
            ' as \\" in "...")',
            2,
            7,
        ),
    ],
)
def test_common_mistakes_say_what_to_do(text, message, line, column):
    with pytest.raises(YamlError) as caught:
        load_yaml(text)
    assert caught.value.message == f"invalid YAML: {message}"
    assert caught.value.position == Position(line, column)


def test_validate_names_the_fix_at_path_line_column(invoke, write_card):
    path = write_card('id: x\ntitle: T\nprompt: "{{a}}"\nblanks:\n  a: {answer: x}\nhint: a: b\n')
    result = invoke("validate", str(path))
    assert result.exit_code == 1
    assert f"{path}:6:8: invalid YAML: a ': ' inside a value needs quotes: hint: \"a: b\"" in (
        result.output
    )
