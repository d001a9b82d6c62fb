"""The architecture of DESIGN.md, checked on the source: imports point down only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "quizzer"
MODULES = sorted(PACKAGE.rglob("*.py"))


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def relative(path: Path) -> str:
    return path.relative_to(PACKAGE.parent).as_posix()


@pytest.mark.parametrize("path", MODULES, ids=relative)
def test_only_the_presentation_layer_imports_rich(path):
    if relative(path) != "quizzer/render.py":
        assert "rich" not in imported_roots(path)


@pytest.mark.parametrize("path", MODULES, ids=relative)
def test_only_the_cli_imports_typer(path):
    if not relative(path).startswith("quizzer/cli/"):
        assert "typer" not in imported_roots(path)


@pytest.mark.parametrize("path", MODULES, ids=relative)
def test_nothing_evaluates_text(path):
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = (
                node.func.attr
                if isinstance(node.func, ast.Attribute)
                else getattr(node.func, "id", "")
            )
            assert name not in {"eval", "exec", "sympify", "parse_expr", "unsafe_load"}, (
                f"{relative(path)}:{node.lineno} calls {name}"
            )
            if name == "load" and isinstance(node.func, ast.Attribute):
                assert getattr(node.func.value, "id", "") != "yaml", (
                    f"{relative(path)}:{node.lineno}"
                )
