"""`check` (the real CLI) against each corpus server agrees with tests/corpus/check_golden.json,
both ways: a check the golden lacks, one it has that `check` no longer runs, a verdict, an exit
code, a live-lint rule or a self-diff change that differs, each fails. Run from a temporary
working directory, never the server's. Regenerate: `scripts/probe_corpus.py --golden`."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.corpus import SERVERS, Server, require
from tests.helpers.corpus_golden import GOLDEN, check_entry, run_check, run_self_diff

REGENERATE = "scripts/probe_corpus.py --golden NAME (docs/corpus.md)"


def _golden() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(GOLDEN.read_text())
    return loaded


def _disagreements(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    lines = []
    want, got = expected.get("checks", {}), actual.get("checks", {})
    for check in sorted(set(want) | set(got)):
        if check not in want:
            lines.append(f"{check}: check says {got[check]}, the golden lacks it")
        elif check not in got:
            lines.append(f"{check}: the golden says {want[check]}, check no longer runs it")
        elif want[check] != got[check]:
            lines.append(f"{check}: golden {want[check]}, check says {got[check]}")
    for key in sorted((set(expected) | set(actual)) - {"checks"}):
        if expected.get(key) != actual.get(key):
            lines.append(f"{key}: golden {expected.get(key)!r}, now {actual.get(key)!r}")
    return lines


def test_the_golden_names_the_corpus() -> None:
    assert sorted(_golden()) == sorted(s.name for s in SERVERS), REGENERATE


@pytest.mark.timeout(300)
@pytest.mark.parametrize("server", SERVERS, ids=[s.name for s in SERVERS])
def test_check_and_diff_agree_with_the_golden(server: Server) -> None:
    require(server)
    expected = _golden().get(server.name)
    assert expected is not None, f"{server.name} has no golden entry: {REGENERATE}"
    with tempfile.TemporaryDirectory(prefix="corpus-check-") as name:
        folder = Path(name)
        actual = check_entry(run_check(server, folder))
        actual["self_diff"] = run_self_diff(server, folder)
    problems = _disagreements(expected, actual)
    assert not problems, f"{server.name} disagrees with the golden ({REGENERATE}):\n" + "\n".join(
        problems
    )
