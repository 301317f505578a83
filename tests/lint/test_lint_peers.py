"""Live lint against real peers through the CLI (`-v` prints each finding): the demo
server, server-everything and an `mcp` 2.x server lint clean; our lint-breaking server
gets each of its broken rules named, with its pointer; `--record` keeps the findings in
the session file, and the offline session shows them on the right rows."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

import pytest

from inspector.lint import LintStore, LiveLinter
from inspector.lint.live import loop_scheduler
from inspector.recording.offline import load_offline
from inspector.recording.reader import read_session
from inspector.traffic.log import TrafficLog
from inspector.transports.stdio import StdioParams, StdioTransport
from tests.helpers.peers import EVERYTHING_JS, PY, REPO, SERVERS, demo_command
from tests.helpers.sessions import OpenSessions

pytestmark = pytest.mark.timeout(90)

LINT_SERVER = [PY, str(SERVERS / "misbehaving" / "lint_server.py")]
SDK_SERVER = [PY, str(SERVERS / "sdk" / "sdk_server.py")]


def cli(*args: str, server: list[str]) -> tuple[int, str]:
    proc = subprocess.run(
        [PY, "-m", "inspector", "cli", "-v", *args, "--", *server],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        cwd=REPO,
    )
    return proc.returncode, proc.stderr


def lint_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("lint: ")]


@pytest.mark.parametrize("era", ["legacy", "modern"])
@pytest.mark.parametrize("method", ["tools/list", "resources/list", "prompts/list"])
def test_demo_server_lints_clean(era: str, method: str) -> None:
    code, err = cli("--era", era, "--method", method, server=demo_command())
    assert code == 0, err
    assert lint_lines(err) == ["lint: 2 server message(s) checked, 0 finding(s)"]


@pytest.mark.peers
def test_server_everything_lints_clean() -> None:
    if not EVERYTHING_JS.exists():
        pytest.skip("server-everything is not installed (scripts/install-peers.sh)")
    code, err = cli("--method", "tools/list", server=["node", str(EVERYTHING_JS), "stdio"])
    assert code == 0, err
    [summary] = lint_lines(err)
    assert summary.endswith(" 0 finding(s)") and "8 server message(s)" in summary


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_sdk_server_lints_clean(era: str) -> None:
    code, err = cli("--era", era, "--method", "tools/list", server=SDK_SERVER)
    assert code == 0, err
    assert lint_lines(err)[-1].endswith(" 0 finding(s)")


@pytest.mark.parametrize(
    ("broken", "method", "expected"),
    [
        ("tool-name", "tools/list", "tool-name-format at /result/tools/2/name"),
        ("dup-names", "tools/list", "unique-names at /result/tools/2/name"),
        ("input-schema", "tools/list", "input-schema-invalid at /result/tools/2/inputSchema"),
        ("log-level", "ping", "schema.enum at /params/level"),
        ("undeclared-log", "ping", "undeclared-capability at /method"),
        ("list-changed", "ping", "undeclared-capability at /method"),
        ("cursor-loop", "prompts/list", "cursor-loop at /result/nextCursor"),
        ("notify-reply", "ping", "response-to-notification at /id"),
        ("bad-result", "tools/call", "schema.required at /result"),
    ],
)
def test_each_broken_rule_is_named_with_its_pointer(
    broken: str, method: str, expected: str
) -> None:
    args = ["--method", method]
    if method == "tools/call":
        args += ["--tool-name", "echo"]
    _code, err = cli(*args, server=[*LINT_SERVER, "--break", broken])
    assert any(expected in line for line in lint_lines(err)), err


async def test_structured_content_against_the_listed_output_schema(
    sessions: OpenSessions,
) -> None:
    """A live session: the tools' output schemas come from tools/list, the call breaks it."""
    log, store = TrafficLog(), LintStore()
    linter = LiveLinter(log, store, loop_scheduler)
    linter.begin_session()
    transport = StdioTransport(StdioParams(PY, [*LINT_SERVER[1:], "--break", "structured"]))
    session = await sessions.open(transport, observers=(log.observe,))
    linter.session_ready(session.protocol_version)
    await session.client.list_tools()
    await session.client.call_tool("weather", {}, on_progress=lambda _p: None)
    for _ in range(100):
        if linter.behind == 0:
            break
        await asyncio.sleep(0.01)
    [finding] = store.findings
    assert finding.rule == "structured-content-schema"
    assert finding.pointer == "/result/structuredContent/temp" and finding.value == '"hot"'
    assert log.entries[finding.index].method == "tools/call"


def test_a_modern_server_without_server_discover() -> None:
    _code, err = cli(
        "--era", "modern", "--method", "tools/list", server=[*LINT_SERVER, "--break", "no-discover"]
    )
    assert any("discover-missing at /error/code" in line for line in lint_lines(err)), err


def test_findings_are_recorded_and_shown_offline(tmp_path: Path) -> None:
    target = tmp_path / "s.jsonl"
    code, err = cli(
        "--method",
        "tools/list",
        "--record",
        str(target),
        server=[*LINT_SERVER, "--break", "tool-name,dup-names,undeclared-log"],
    )
    assert code == 0, err
    recorded = read_session(target)
    lint = [e for e in recorded.events if e.type == "lint"]
    assert {e.data["rule"] for e in lint} == {
        "tool-name-format",
        "unique-names",
        "undeclared-capability",
    }
    offline = load_offline(recorded)
    assert offline.lint.counts == {
        "tool-name-format": 1,
        "unique-names": 1,
        "undeclared-capability": 1,
    }
    for finding in offline.lint.findings:
        entry = offline.traffic.entries[finding.index]
        assert entry.direction == "in"
        expected = (
            "notifications/message" if finding.rule == "undeclared-capability" else "tools/list"
        )
        assert entry.method == expected
