"""Shared fixtures live in conftest files, each defined once (issue 25): no fixture name is
defined in two places under tests/ (a module's fixture of the same name as a conftest's is
an override a reader has to find; two modules' fixtures of one name are two meanings of
one word), and no module imports a fixture from a test module to share it."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from tests.architecture.sources import suite_trees
from tests.helpers.peers import REPO

FIXTURE_MODULES = {"pytest", "pytest_asyncio"}


def _is_fixture_decorator(decorator: ast.expr, imported: set[str]) -> bool:
    """`@pytest.fixture`, `@pytest.fixture(...)`, `@pytest_asyncio.fixture(...)`, or a bare
    `@fixture` imported from one of those modules."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(target, ast.Attribute):
        return (
            target.attr == "fixture"
            and isinstance(target.value, ast.Name)
            and target.value.id in FIXTURE_MODULES
        )
    return isinstance(target, ast.Name) and target.id in imported


def fixtures_in(tree: ast.Module) -> dict[str, int]:
    """The fixtures a module defines, by the name tests request them with, and their line."""
    imported = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module in FIXTURE_MODULES
        for alias in node.names
        if alias.name == "fixture"
    }
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for decorator in node.decorator_list:
            if not _is_fixture_decorator(decorator, imported):
                continue
            name = node.name
            if isinstance(decorator, ast.Call):
                for keyword in decorator.keywords:
                    if keyword.arg == "name" and isinstance(keyword.value, ast.Constant):
                        name = str(keyword.value.value)
            found[name] = node.lineno
    return found


def definitions(trees: dict[Path, ast.Module]) -> dict[str, list[str]]:
    """Every fixture name under tests/ with the places (path:line) that define it."""
    where: dict[str, list[str]] = defaultdict(list)
    for path, tree in trees.items():
        for name, line in fixtures_in(tree).items():
            where[name].append(f"{path.relative_to(REPO)}:{line}")
    return where


def test_the_scan_sees_every_kind_of_fixture_decorator() -> None:
    tree = ast.parse(
        "import pytest, pytest_asyncio\n"
        "from pytest import fixture\n"
        "@pytest.fixture\ndef a(): ...\n"
        "@pytest.fixture(scope='module')\ndef b(): ...\n"
        "@pytest_asyncio.fixture\nasync def c(): ...\n"
        "@pytest_asyncio.fixture(scope='module')\nasync def d(): ...\n"
        "@fixture\ndef e(): ...\n"
        "@pytest.fixture(name='f')\ndef _f(): ...\n"
        "@pytest.mark.slow\ndef test_g(): ...\n"
        "def helper(): ...\n"
    )
    assert set(fixtures_in(tree)) == {"a", "b", "c", "d", "e", "f"}


def test_no_fixture_name_is_defined_twice() -> None:
    trees = suite_trees()
    where = definitions(trees)
    assert len(where) > 50  # the scan found the suite's fixtures
    twice = {name: places for name, places in where.items() if len(places) > 1}
    assert twice == {}, (
        "fixtures defined more than once (identical ones go to the nearest common "
        "conftest.py, different ones get names of their own):\n"
        + "\n".join(f"{name}: {', '.join(places)}" for name, places in sorted(twice.items()))
    )


def test_no_module_imports_a_fixture_from_a_test_module() -> None:
    """A fixture two modules share goes to their conftest.py, not into an import."""
    trees = suite_trees()
    by_module = {
        ".".join(path.relative_to(REPO).with_suffix("").parts): fixtures_in(tree)
        for path, tree in trees.items()
        if path.name != "conftest.py"
    }
    shared: list[str] = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in by_module:
                names = {alias.name for alias in node.names} & set(by_module[node.module])
                shared += [f"{path.relative_to(REPO)}: {name}" for name in sorted(names)]
    assert shared == [], "fixtures imported from a test module:\n" + "\n".join(shared)
