"""One way to reach a server: only `inspector/core/server_connection.py` constructs a
`Session`, and the floors above the connection floor never import the session floor
(import-linter keeps the second rule too; this test says it without the tool)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers.peers import REPO

PACKAGE = REPO / "inspector"
SESSION_MAKER = PACKAGE / "core" / "server_connection.py"
ABOVE_THE_CONNECTION = ("ui", "cli", "compare", "collections", "watch")


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _constructs_session(path: Path) -> list[int]:
    """Lines of `path` that call `Session(...)` (a bare name or `<module>.Session`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name == "Session":
            lines.append(node.lineno)
    return lines


def _imports_session_floor(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        if any(n == "inspector.session" or n.startswith("inspector.session.") for n in names):
            lines.append(node.lineno)
    return lines


def test_only_the_connection_module_constructs_a_session() -> None:
    found = {
        str(path.relative_to(REPO)): lines
        for path in _sources()
        if (lines := _constructs_session(path))
    }
    assert list(found) == [str(SESSION_MAKER.relative_to(REPO))], found


def test_the_floors_above_the_connection_do_not_import_the_session_floor() -> None:
    found = {
        str(path.relative_to(REPO)): lines
        for folder in ABOVE_THE_CONNECTION
        for path in sorted((PACKAGE / folder).rglob("*.py"))
        if (lines := _imports_session_floor(path))
    }
    assert found == {}, found


def test_the_checker_sees_a_construction(tmp_path: Path) -> None:
    """The AST walk finds both spellings (so the tests above cannot pass by seeing nothing)."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import inspector.session as s\nfrom inspector.session import Session\n"
        "a = Session(t)\nb = s.Session(t)\n",
        encoding="utf-8",
    )
    assert _constructs_session(sample) == [3, 4]
    assert _imports_session_floor(sample) == [1, 2]
