"""`cli`, `test` and `replay` check a tool's structuredContent against its outputSchema as
the Python and TypeScript SDK clients do, also when the run has not listed the tools: the
definition is listed first (every page: the broken tools are on the second one), the
mismatch is said on stderr (or in the report) and the exit code is not 0. A result that
keeps its schema, or a tool with no outputSchema, passes. Run from a working directory
other than the server's (the test's own tmp_path)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.helpers.peers import PY, REPO

pytestmark = pytest.mark.timeout(180)

SERVER = (PY, str(REPO / "tests" / "servers" / "misbehaving" / "output_schema_server.py"))


def inspector(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "-m", "inspector", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        cwd=cwd,
    )


def call(cwd: Path, tool: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return inspector(
        cwd, "cli", *extra, "--method", "tools/call", "--tool-name", tool, "--", *SERVER
    )


def test_cli_flags_structured_content_that_breaks_the_schema(tmp_path: Path) -> None:
    proc = call(tmp_path, "weather", "-v")
    assert proc.returncode == 6, proc.stderr
    assert json.loads(proc.stdout)["structuredContent"] == {"temp": "hot"}  # still shown
    assert (
        "error: tools/call 'weather': structuredContent breaks the tool's outputSchema: "
        "temp: 'hot' is not of type 'number'"
    ) in proc.stderr
    # The definition was not known: both pages of tools/list were asked for (before the
    # call, so that the live lint sees them too).
    assert proc.stderr.count("[server] recv tools/list") == 2
    # -v: the live lint saw the listing too, and says the same.
    assert "structuredContent breaks the outputSchema of 'weather'" in proc.stderr


def test_cli_flags_a_missing_structured_content(tmp_path: Path) -> None:
    proc = call(tmp_path, "nostruct")
    assert proc.returncode == 6, proc.stderr
    assert "declares an outputSchema but sent no structuredContent" in proc.stderr


@pytest.mark.parametrize("tool", ["fine", "plain"])
def test_cli_passes_a_result_that_keeps_its_schema(tmp_path: Path, tool: str) -> None:
    proc = call(tmp_path, tool)
    assert proc.returncode == 0, proc.stderr
    assert "outputSchema" not in proc.stderr


def test_test_fails_a_call_whose_result_breaks_the_schema(tmp_path: Path) -> None:
    collection = tmp_path / "c.collection.json"
    calls = [
        {"name": tool, "kind": "tool", "tool": tool, "assert": [{"outcome": "ok"}]}
        for tool in ("fine", "plain", "weather", "nostruct")
    ]
    collection.write_text(json.dumps({"version": 1, "name": "schemas", "calls": calls}))
    proc = inspector(tmp_path, "test", str(collection), "--", *SERVER)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    for tool in ("fine", "plain"):
        assert any(line.startswith(f"PASS  {tool} ") for line in lines), proc.stdout
    for tool in ("weather", "nostruct"):
        assert any(line.startswith(f"FAIL  {tool} ") for line in lines), proc.stdout
    assert "temp: 'hot' is not of type 'number'" in proc.stdout
    report = json.loads(
        inspector(tmp_path, "test", str(collection), "--json", "--", *SERVER).stdout
    )
    assert [c["passed"] for c in report["calls"]] == [True, True, False, False]


def _without_tool_lists(session: Path) -> None:
    """The recording as if the run had never listed the tools."""
    kept, list_ids = [], set()
    for line in session.read_text().splitlines():
        entry = json.loads(line)
        if entry.get("type") == "stderr" and "tools/list" in entry["text"]:
            continue
        if entry.get("type") == "frame":
            message = json.loads(entry["text"])
            if message.get("method") == "tools/list":
                list_ids.add(message.get("id"))
                continue
            if "method" not in message and message.get("id") in list_ids:
                continue
        kept.append(line)
    session.write_text("\n".join(kept) + "\n")


@pytest.mark.parametrize("listed", [True, False], ids=["listed", "never-listed"])
def test_replay_flags_a_result_that_breaks_the_schema(tmp_path: Path, listed: bool) -> None:
    session = tmp_path / "weather.jsonl"
    call(tmp_path, "weather", "--record", str(session))
    if not listed:
        _without_tool_lists(session)
        assert "tools/list" not in session.read_text()
    proc = inspector(tmp_path, "replay", str(session), "--", *SERVER)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "tools/call weather: breaks-schema" in proc.stdout, proc.stdout
    assert "temp: 'hot' is not of type 'number'" in proc.stdout
    assert "no drift, but a result breaks its schema" in proc.stdout
