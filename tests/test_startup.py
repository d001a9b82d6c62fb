"""`--help` and `list` must start without SymPy or numpy (DESIGN.md: speed is a feature)."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("sympy", "numpy", "mpmath")


def imported_modules(*args: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "quizzer", *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    modules = set()
    for line in result.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            modules.add(line.rsplit("|", 1)[1].strip())
    return modules


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("list",),
        ("list", "--json"),
        ("list", "--search", "attention"),
        ("show", "attention"),
    ],
)
def test_no_heavy_imports(args):
    modules = imported_modules(*args)
    assert "quizzer.cli" in modules  # the measurement itself worked
    heavy = sorted(m for m in modules if m.split(".")[0] in HEAVY)
    assert heavy == []


def test_help_does_not_load_cards_or_pydantic():
    modules = imported_modules("--help")
    assert not any(m.split(".")[0] == "pydantic" for m in modules)


INTERRUPT_WHILE_IMPORTING_TYPER = """
import sys
class PressCtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == "typer":
            raise KeyboardInterrupt
sys.meta_path.insert(0, PressCtrlC())
from quizzer.launch import main
main()
"""


def test_ctrl_c_while_starting_up_is_exit_130_without_a_traceback():
    # Ctrl-C while Typer and Rich are still loading, before any command runs.
    result = subprocess.run(
        [sys.executable, "-c", INTERRUPT_WHILE_IMPORTING_TYPER, "list"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 130
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_the_entry_points_interrupt_code_is_the_documented_one():
    from quizzer.errors import ExitCode
    from quizzer.launch import INTERRUPTED

    assert INTERRUPTED == ExitCode.INTERRUPTED


def test_list_of_cached_cards_does_not_load_pydantic():
    imported_modules("list")  # fills the deck cache
    modules = imported_modules("list")
    assert "quizzer.cards.deck" in modules  # the measurement itself worked
    assert not any(m.split(".")[0] == "pydantic" for m in modules)
    assert "quizzer.cards.model" not in modules and "fsrs" not in modules
