"""``assert_never`` for the views' ``match`` statements, on every Python quizzer runs on.

A ``match`` over a closed union of events (or prompts) ends in
``case _: assert_never(x)``: mypy then fails when a new member has no case,
so every event has a view without a hand-kept table.
"""

from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    from typing import assert_never
else:  # pragma: no cover - Python 3.10 has no typing.assert_never; the same check
    from typing import NoReturn

    def assert_never(value: NoReturn) -> NoReturn:
        """Never called when the match is complete (mypy proves it)."""
        raise AssertionError(f"no view for {type(value).__name__}")


__all__ = ["assert_never"]
