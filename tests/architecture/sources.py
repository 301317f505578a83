"""The test suite's own sources, parsed once per run, for the architecture tests that read
tests/ (fixtures defined once, no fixed sleeps)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

from tests.helpers.peers import REPO

TESTS = REPO / "tests"


@functools.cache
def suite_trees(root: Path = TESTS) -> dict[Path, ast.Module]:
    """Every .py file under `root` (tests/ by default), parsed, by path."""
    return {
        path: ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for path in sorted(root.rglob("*.py"))
    }
