"""The card sections table: every view, the template, validate --strict and the docs agree."""

from __future__ import annotations

import re

import pytest

from quizzer.cards.model import TEACHING_SECTIONS, Card, publishing_problems
from quizzer.cards.sections import BY_FIELD, SECTIONS, STRICT_SECTIONS, Depth, sections_to
from quizzer.cards.template import card_template

from .conftest import REPO


def test_every_section_is_a_card_field_and_the_table_has_no_repeats():
    assert len(BY_FIELD) == len(SECTIONS)
    assert {s.field for s in SECTIONS} <= set(Card.model_fields)
    assert len({s.title for s in SECTIONS}) == len(SECTIONS)


def test_depths_nest():
    review, study, everything = (list(sections_to(d)) for d in Depth)
    assert set(review) < set(study) < set(everything) == set(SECTIONS)
    assert [s.field for s in review] == ["red_flags", "bullets"]


def test_strict_validation_requires_exactly_the_strict_sections():
    assert TEACHING_SECTIONS == STRICT_SECTIONS
    bare = Card.model_validate(
        {"id": "c", "title": "t", "prompt": "y = {{g}}", "blanks": {"g": {"answer": "1"}}}
    )
    missing = {
        p.path[0]
        for p in publishing_problems(bare)
        if p.message.startswith("missing teaching section")
    }
    assert missing == set(STRICT_SECTIONS)
    assert {"worked_example", "code"} <= missing


def test_the_template_has_every_section_in_reading_order():
    text = card_template("my-card", 1, "schema.json")
    places = [re.search(rf"^{s.field}:", text, re.M) for s in SECTIONS]
    assert all(places)
    starts = [p.start() for p in places if p]
    assert starts == sorted(starts)


DOCS = (REPO / "docs" / "writing-cards.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("section", SECTIONS, ids=lambda s: s.field)
def test_docs_describe_every_section_with_its_requirement(section):
    row = re.search(rf"^\| `{section.field}` \| ([^|]+) \|", DOCS, re.M)
    assert row is not None, f"docs/writing-cards.md has no row for {section.field}"
    assert ("strict" in row.group(1)) == section.strict
