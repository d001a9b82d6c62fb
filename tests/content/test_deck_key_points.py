"""Key points on the bundled deck's follow-ups (issue 28 items 4 and 5).

Every key point written on a bundled card must carry at least two covering and
two non-covering examples, and each example must hold. Held-out answers,
written apart from the cards (``tests/data/follow_up_answers/*.yaml``), measure
precision and recall: no false "covered" is allowed, and at least 80% of the
points an answer truly makes must be found.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from quizzer.answers.keypoints import KeyPointChecker
from quizzer.cards.model import Card
from tests.conftest import bundled_deck

HELD_OUT_DIR = Path(__file__).parent.parent / "data" / "follow_up_answers"
CARDS: dict[str, Card] = {loaded.card.id: loaded.card for loaded in bundled_deck().cards}
WITH_KEY_POINTS = sorted(
    card_id
    for card_id, card in CARDS.items()
    if any(follow_up.key_points for follow_up in card.follow_ups)
)


@pytest.mark.parametrize("card_id", WITH_KEY_POINTS)
def test_every_key_point_has_two_examples_each_way_and_they_hold(card_id):
    card = CARDS[card_id]
    checker = KeyPointChecker(card)
    for number, follow_up in enumerate(card.follow_ups, 1):
        for point in follow_up.key_points:
            where = f"{card_id} follow-up {number}: {point.point}"
            assert sum(e.covered for e in point.examples) >= 2, where
            assert sum(not e.covered for e in point.examples) >= 2, where
            for example in point.examples:
                assert checker.covered(point, example.answer) is example.covered, (
                    where,
                    example.answer,
                )


def _held_out_rows(path: Path) -> list[dict]:
    rows = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    assert isinstance(rows, list), path
    return rows


HELD_OUT_FILES = sorted(HELD_OUT_DIR.glob("*.yaml"))


@pytest.mark.parametrize("path", HELD_OUT_FILES, ids=lambda p: p.stem)
def test_held_out_answers_no_false_covered_and_most_points_found(path):
    true = false = missed = 0
    false_rows = []
    checkers: dict[str, KeyPointChecker] = {}
    for row in _held_out_rows(path):
        card = CARDS[row["card"]]
        checker = checkers.setdefault(card.id, KeyPointChecker(card))
        points = card.follow_ups[row["follow_up"] - 1].key_points
        assert points, (row["card"], row["follow_up"])
        truth = set(row["covers"])
        assert truth <= set(range(1, len(points) + 1)), row
        for index, point in enumerate(points, 1):
            found = checker.covered(point, row["answer"])
            true += found and index in truth
            false += found and index not in truth
            missed += not found and index in truth
            if found and index not in truth:
                false_rows.append((row["card"], row["follow_up"], index, row["answer"]))
    assert false == 0, false_rows
    assert true + missed > 0
    assert true / (true + missed) >= 0.8, (true, missed)
