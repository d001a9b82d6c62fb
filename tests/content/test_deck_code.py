"""Every bundled card's ``code`` runs and its asserts hold.

quizzer itself never runs card code (it only shows it); the test suite does,
in a fresh interpreter per card, so a snippet that is wrong fails here and
not in front of a learner.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import bundled_deck

CARDS = [loaded.card for loaded in bundled_deck().cards]
WITH_CODE = [card for card in CARDS if card.code]


@pytest.mark.parametrize("card", WITH_CODE, ids=lambda card: card.id)
def test_card_code_runs(card, tmp_path):
    result = subprocess.run(
        [sys.executable, "-I", "-c", card.code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, f"{card.id}: its code failed:\n{result.stderr[-2000:]}"


def test_card_code_uses_numpy_only():
    allowed = {"numpy", "math", "itertools", "functools", "collections", "fractions", "random"}
    for card in WITH_CODE:
        for line in card.code.splitlines():
            words = line.split()
            if words[:1] == ["import"] or (words[:1] == ["from"] and "import" in words):
                module = words[1].split(".")[0].rstrip(",")
                assert module in allowed, f"{card.id} imports {module}"
