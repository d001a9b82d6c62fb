"""`mypy` (as CI runs it) holds quizzer/app, quizzer/study and quizzer/progress to --strict.

mypy's ``strict`` cannot be set per module, so pyproject spells out its flags;
this test reads them from the installed mypy's own help, so a flag a newer
mypy adds to --strict is noticed rather than silently missing.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
STRICT_PACKAGES = ("quizzer.app.*", "quizzer.study.*", "quizzer.progress.*")
#: --strict's flags that only the global section may set.
GLOBAL_ONLY = {"warn_redundant_casts", "warn_unused_ignores", "warn_unused_configs"}


def strict_flags() -> set[str]:
    """The flags ``mypy --strict`` turns on, as this mypy's --help lists them."""
    help_text = subprocess.run(
        [sys.executable, "-m", "mypy", "--help"], capture_output=True, text=True, check=True
    ).stdout
    block = help_text.split("--strict ", 1)[1].split("enables the following flags:", 1)[1]
    block = block.split("\n  --", 1)[0]
    flags = re.findall(r"--([a-z-]+)", " ".join(block.split()).replace("- ", "-"))
    return {flag.replace("-", "_") for flag in flags}


@pytest.fixture(scope="module")
def mypy_config() -> dict:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+; CI runs a newer Python
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["mypy"]


def test_the_strict_flags_were_read():
    assert {"disallow_untyped_defs", "warn_return_any", "strict_equality"} <= strict_flags()


@pytest.mark.parametrize("package", STRICT_PACKAGES)
def test_each_strict_package_has_every_per_module_flag_of_strict(mypy_config, package):
    (section,) = [o for o in mypy_config["overrides"] if package in o["module"]]
    missing = {f for f in strict_flags() - GLOBAL_ONLY if section.get(f) is not True}
    assert missing == set(), f"{package} lacks {sorted(missing)}"


def test_the_global_flags_of_strict_are_set(mypy_config):
    for flag in (strict_flags() & GLOBAL_ONLY) - {"warn_unused_configs"}:
        assert mypy_config.get(flag) is True, flag
