"""docs/python-api.md: every example in it runs and prints what it says."""

from __future__ import annotations

import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "python-api.md"


def test_the_python_api_examples_run_as_written():
    failures, tried = doctest.testfile(
        str(DOC),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        report=True,
        verbose=False,
    )
    assert tried >= 20, "the examples were not found"
    assert failures == 0
