"""The architecture of docs/architecture.md, checked on the source: imports point down only.

Every part of the package has its own rank, top to bottom:
__main__ → launch → the package top → cli → ui → app → study → imports → export → progress
→ answers → cards → names → files → errors → version. A module may import its
own part or any part ranked below it, never one above nor one beside it; the
module import graph (lazy imports inside functions included) has no cycle; and
no module inside the package imports the package top (``quizzer/__init__.py``),
which would load every part it re-exports.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "quizzer"
MODULES = sorted(PACKAGE.rglob("*.py"))

#: The parts of the package from the bottom up; a part may import only those before it.
STACK = (
    "version",
    "errors",
    "files",
    "names",
    "cards",
    "answers",
    "progress",
    "export",
    "imports",
    "study",
    "app",
    "ui",
    "cli",
    "__init__",
    "launch",
    "__main__",
)
LAYERS = {part: rank for rank, part in enumerate(STACK)}


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
    return found


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


def test_every_part_has_its_own_rank():
    assert len(set(LAYERS.values())) == len(LAYERS) == len(STACK)


def upward_imports(module: str, imported: set[str]) -> list[str]:
    """What ``module`` imports from a part ranked at or above its own, or the package top."""
    return sorted(
        other
        for other in imported
        if (other == "quizzer" and module != "quizzer")
        or (
            layer_of(other) != layer_of(module)
            and LAYERS[layer_of(other)] >= LAYERS[layer_of(module)]
        )
    )


def cycles_in(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each import cycle found by a depth-first walk of ``graph``."""
    cycles = []
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for imported in sorted(graph.get(module, ())):
            if state.get(imported) == 1:
                cycles.append([*path[path.index(imported) :], imported])
            elif imported not in state:
                visit(imported, [*path, imported])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    return cycles


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_point_down(module):
    upward = upward_imports(module, GRAPH[module])
    assert not upward, f"{module} imports a part at or above its own rank: {upward}"


def test_no_import_cycles():
    cycles = cycles_in(GRAPH)
    assert not cycles, "import cycles: " + "; ".join(" → ".join(c) for c in cycles)


def test_the_package_top_is_in_the_graph():
    assert "quizzer" in GRAPH and "quizzer.version" in GRAPH["quizzer"]


@pytest.mark.parametrize(
    ("module", "imports", "caught"),
    [
        ("quizzer.cards.cache", {"quizzer"}, ["quizzer"]),  # the package top, from inside
        ("quizzer.cards.model", {"quizzer.answers.judge"}, ["quizzer.answers.judge"]),  # upward
        ("quizzer.cards.model", {"quizzer.cards.yamldoc", "quizzer.names"}, []),  # own part, down
        (
            "quizzer.export.anki",
            {"quizzer.export.markdown", "quizzer.study.quiz"},
            ["quizzer.study.quiz"],
        ),
        ("quizzer", {"quizzer.version", "quizzer.answers"}, []),
    ],
)
def test_the_rank_check_catches(module, imports, caught):
    assert upward_imports(module, imports) == caught


def test_the_cycle_check_catches_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles_in(graph) == [["a", "b", "c", "a"]]
    assert cycles_in({"a": {"b"}, "b": set()}) == []


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
