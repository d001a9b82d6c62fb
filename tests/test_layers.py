"""The architecture of DESIGN.md, checked on the source: imports point down only.

Layers, top to bottom: cli → ui → study → core (cards, answers, progress, export)
→ errors. A module may import its own layer or any layer below it, never one
above, and the module import graph (lazy imports inside functions included)
has no cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "quizzer"
MODULES = sorted(PACKAGE.rglob("*.py"))

#: The rank of each top-level part of the package; higher ranks may import lower ones.
LAYERS = {
    "errors": 0,
    "files": 0,
    "cards": 1,
    "answers": 1,
    "progress": 1,
    "export": 1,
    "study": 2,
    "ui": 3,
    "cli": 4,
    # Entry points: the package's public face and the launcher sit above everything.
    "__init__": 5,
    "__main__": 5,
    "launch": 5,
}


def relative(path: Path) -> str:
    return path.relative_to(PACKAGE.parent).as_posix()


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


KNOWN = {module_name(path) for path in MODULES}


def resolve(module: str) -> str:
    """The quizzer module that an import of ``module`` loads (a package's __init__ if need be)."""
    while module not in KNOWN and "." in module:
        module = module.rsplit(".", 1)[0]
    return module


def quizzer_imports(path: Path) -> set[str]:
    """Every quizzer module that ``path`` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from quizzer.x import y` may name a submodule y or a name in x.
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(resolve(name) for name in names if name.split(".")[0] == "quizzer")
    return found - {"quizzer"}


GRAPH = {module_name(path): quizzer_imports(path) - {module_name(path)} for path in MODULES}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_every_module_has_a_layer():
    assert {layer_of(module) for module in GRAPH} <= set(LAYERS)


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_point_down(module):
    upward = sorted(
        imported
        for imported in GRAPH[module]
        if LAYERS[layer_of(imported)] > LAYERS[layer_of(module)]
    )
    assert not upward, f"{module} imports a higher layer: {upward}"


def test_no_import_cycles():
    cycles = []
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for imported in sorted(GRAPH.get(module, ())):
            if state.get(imported) == 1:
                cycles.append([*path[path.index(imported) :], imported])
            elif imported not in state:
                visit(imported, [*path, imported])
        state[module] = 2

    for module in sorted(GRAPH):
        if module not in state:
            visit(module, [module])
    assert not cycles, "import cycles: " + "; ".join(" → ".join(c) for c in cycles)


@pytest.mark.parametrize("path", MODULES, ids=relative)
def test_only_the_presentation_layer_imports_rich(path):
    if not relative(path).startswith("quizzer/ui/"):
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
