"""Layer rules from DESIGN.md, checked on the source with `ast` (no imports run)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers.peers import REPO

PACKAGE = REPO / "inspector"
PURE = sorted((PACKAGE / "protocol").rglob("*.py"))
IO_MODULES = frozenset(
    {"asyncio", "httpx", "PySide6", "qasync", "anyio", "socket", "subprocess", "threading"}
)
QT_MODULES = frozenset({"PySide6", "qasync"})


def imported_roots(path: Path) -> set[str]:
    """Top-level names of every module `path` imports, anywhere in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name | ast.Attribute)
            and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr)
            in ("__import__", "import_module")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            roots.add(node.args[0].value.split(".")[0])
    return roots


def rel(path: Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


def test_the_pure_layer_exists() -> None:
    names = {p.name for p in PURE}
    assert {"connection.py", "versions.py", "jsonrpc.py", "events.py"} <= names


@pytest.mark.parametrize("path", PURE, ids=rel)
def test_pure_modules_do_no_io(path: Path) -> None:
    bad = imported_roots(path) & IO_MODULES
    assert not bad, f"{rel(path)} imports {sorted(bad)}; the protocol core must stay sans-IO"


def test_only_the_ui_imports_qt() -> None:
    offenders = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if (PACKAGE / "ui") in path.parents:
            continue
        bad = imported_roots(path) & QT_MODULES
        if bad:
            offenders[rel(path)] = sorted(bad)
    assert offenders == {}, f"Qt imported outside inspector/ui/: {offenders}"


def test_the_checker_sees_every_import_form(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import asyncio.tasks\n"
        "from httpx import Client\n"
        "def f():\n"
        "    import threading\n"
        "    from PySide6.QtCore import QObject\n"
        "    __import__('socket')\n"
        "    importlib.import_module('qasync')\n"
        "from . import sibling\n"
    )
    assert imported_roots(sample) >= {
        "asyncio",
        "httpx",
        "threading",
        "PySide6",
        "socket",
        "qasync",
    }
    assert "sibling" not in imported_roots(sample)
