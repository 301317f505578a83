"""The layout rules a contract in pyproject cannot say (docs/architecture.md): no module flat
in inspector/, small files, no import cycle (TYPE_CHECKING imports count too), no loading of
our own modules by name, and the import-linter contracts themselves."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.peers import REPO

PACKAGE = REPO / "inspector"
MAX_LINES = 600


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(REPO).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """Our modules that `name` imports, anywhere in the file, TYPE_CHECKING blocks included."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".")
                if path.name != "__init__.py":
                    anchor.pop()
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and target.startswith("inspector"):
                yield target


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Kosaraju, iterative: the
    test must not raise the interpreter's recursion limit for the tests after it)."""
    order: list[str] = []
    seen: set[str] = set()
    for root in graph:
        if root in seen:
            continue
        seen.add(root)
        stack: list[tuple[str, list[str]]] = [(root, sorted(graph[root]))]
        while stack:
            node, todo = stack[-1]
            if todo:
                nxt = todo.pop()
                if nxt in graph and nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, sorted(graph[nxt])))
            else:
                stack.pop()
                order.append(node)
    reverse: dict[str, set[str]] = {v: set() for v in graph}
    for v, targets in graph.items():
        for w in targets:
            if w in reverse:
                reverse[w].add(v)
    found: list[list[str]] = []
    assigned: set[str] = set()
    for root in reversed(order):
        if root in assigned:
            continue
        component, todo_nodes = [], [root]
        assigned.add(root)
        while todo_nodes:
            v = todo_nodes.pop()
            component.append(v)
            for w in reverse[v]:
                if w not in assigned:
                    assigned.add(w)
                    todo_nodes.append(w)
        if len(component) > 1:
            found.append(sorted(component))
    return found


def test_nothing_sits_flat_in_the_package() -> None:
    flat = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert flat == ["__init__.py", "__main__.py"], (
        f"modules flat in inspector/: {flat}; a module goes in the folder of its floor"
    )


def test_every_package_says_what_it_holds() -> None:
    bare = [
        str(init.relative_to(REPO))
        for init in sorted(PACKAGE.rglob("__init__.py"))
        if ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) is None
    ]
    assert bare == [], f"packages without a docstring: {bare}"


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.name))
def test_no_module_is_over_the_size_limit(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, (
        f"{path.relative_to(REPO)} has {lines} lines (limit {MAX_LINES}): find its second "
        "concept and give it an object of its own"
    )


def test_there_is_no_import_cycle() -> None:
    known = modules()
    graph = {name: set(imports_of(name, path, known)) for name, path in known.items()}
    # A package's __init__ re-exporting its own modules is not a cycle between concepts.
    for name in graph:
        graph[name] = {t for t in graph[name] if not name.startswith(f"{t}.")}
    assert cycles(graph) == []


def test_the_cycle_finder_sees_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_of_ours_is_loaded_by_name() -> None:
    """importlib by name hides an import from mypy and from the layer contracts."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name | ast.Attribute)
                and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr)
                in ("import_module", "__import__")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and str(node.args[0].value).startswith("inspector")
            ):
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert offenders == []


def test_the_import_contracts_hold() -> None:
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint is None:
        pytest.skip("import-linter is not installed (scripts/setup.sh installs it)")
    done = subprocess.run(
        [lint, "--no-cache"], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


MAX_MODULES_PER_FOLDER = 20


def test_no_folder_holds_more_than_twenty_modules() -> None:
    """A folder past 20 modules is a grab-bag: split it by concept (issue 25)."""
    crowded = {
        str(folder.relative_to(REPO)): n
        for folder in [PACKAGE, *(p for p in PACKAGE.rglob("*") if p.is_dir())]
        if (n := len([m for m in folder.glob("*.py") if m.name != "__init__.py"]))
        > MAX_MODULES_PER_FOLDER
    }
    assert crowded == {}


def test_ui_tests_mirror_the_ui_folders() -> None:
    """No test stands flat in tests/ui/: each lives in the folder of the ui feature it tests."""
    tests_ui = REPO / "tests" / "ui"
    flat = sorted(
        p.name for p in tests_ui.glob("*.py") if p.name not in ("__init__.py", "conftest.py")
    )
    assert flat == []
    ui_folders = {p.name for p in (PACKAGE / "ui").iterdir() if (p / "__init__.py").exists()}
    test_folders = {p.name for p in tests_ui.iterdir() if (p / "__init__.py").exists()}
    assert test_folders <= ui_folders
