"""A recorded request as the `mcp-inspector-qt cli` command that reproduces it: the command
is run through a real shell against the demo server and must give the recorded result."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest

from inspector.cli.parser import METHODS
from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.wire.versions import EraSetting
from inspector.recording.diff import diff_json
from inspector.recording.format import REDACTED, Redactor, connection_summary, header_line
from inspector.recording.reader import RecordedSession, read_session
from inspector.recording.replay import extract_calls
from inspector.recording.request_to_cli import _CLI_METHODS, CliCommandError, cli_command_for
from inspector.recording.writer import SessionRecorder
from inspector.session import Session
from inspector.transports.stdio import StdioParams, StdioTransport
from tests.helpers.peers import PY, REPO

pytestmark = pytest.mark.timeout(60)

PROGRAM = f"{shlex.quote(PY)} -m inspector"
TRICKY = 'it\'s "quoted" $HOME `date` ; echo pwned > /tmp/x && \\ \n ünïcode'
SECRET = "env-s3cret-value-42"


async def _record(path: Path, era: EraSetting, calls: list[tuple[str, dict[str, Any]]]) -> None:
    env = {"DEMO_NOTE": "a value with spaces and 'quotes'", "API_TOKEN": SECRET}
    params = StdioParams(PY, ["-m", "inspector.demo"], env=env, cwd=str(REPO))
    session = Session(StdioTransport(params), ClientConfig(era=era))
    connection = connection_summary(
        transport="stdio", command=PY, args=["-m", "inspector.demo"], env=env, cwd=str(REPO)
    )
    header = header_line(
        connection, era=str(era), client_info={}, client_capabilities={}, protocol_version=None
    )
    recorder = SessionRecorder(path, header, redactor=Redactor([SECRET]))
    recorder.start()
    session.add_traffic_observer(recorder.observe)
    try:
        recorder.ready(await session.connect(timeout=20))
        for method, call_params in calls:
            if method == "tools/list":
                await session.client.list_tools()
            else:
                await session.request(method, call_params)
    finally:
        await session.close()
        recorder.close()


def _run(command: str) -> tuple[int, Any, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), API_TOKEN=SECRET)
    proc = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, timeout=30, env=env, cwd="/"
    )
    out = json.loads(proc.stdout) if proc.stdout.strip() else None
    return proc.returncode, out, proc.stderr


def _check_reproduces(recorded: RecordedSession, expected_flags: list[list[str]]) -> None:
    calls = extract_calls(recorded)
    assert len(calls) == len(expected_flags)
    for call, flags in zip(calls, expected_flags, strict=True):
        command = cli_command_for(
            call.method, call.params, recorded.connection, era=recorded.era, program=PROGRAM
        )
        words = shlex.split(command)
        assert SECRET not in command
        for flag in flags:
            assert flag in words, (flag, command)
        code, out, err = _run(command)
        assert code == 0, (command, err)
        assert call.result is not None
        assert diff_json(call.result, out) == [], command


async def test_recorded_requests_reproduce_as_cli_commands(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    ticket = {"title": "Broken build", "tags": ["ci"], "assignee": {"name": "Ada"}}
    calls: list[tuple[str, dict[str, Any]]] = [
        ("tools/call", {"name": "add", "arguments": {"a": 2, "b": 40.5}}),
        ("tools/call", {"name": "echo", "arguments": {"message": "5"}}),
        ("tools/call", {"name": "echo", "arguments": {"message": TRICKY}}),
        ("tools/call", {"name": "create_ticket", "arguments": ticket}),
        ("resources/read", {"uri": "demo://readme"}),
        ("prompts/get", {"name": "greet", "arguments": {"name": "Ada Lovelace"}}),
        ("tools/list", {}),
        (
            "completion/complete",
            {
                "ref": {"type": "ref/resource", "uri": "demo://notes/{topic}"},
                "argument": {"name": "topic", "value": ""},
            },
        ),
    ]
    await _record(path, EraSetting.LEGACY, calls)
    recorded = read_session(path)
    assert recorded.connection["env"]["API_TOKEN"] == REDACTED
    _check_reproduces(
        recorded,
        [
            ["--tool-name", "add", "a=2", "b=40.5"],
            ["--tool-arg", 'message="5"'],  # a string that looks like JSON stays a string
            ["--tool-arg", f"message={TRICKY}"],
            ["--tool-args-json"],
            ["--uri", "demo://readme"],
            ["--prompt-name", "greet", "--prompt-args", "name=Ada Lovelace"],
            ["--method", "tools/list"],
            ["--uri-template", "demo://notes/{topic}", "--argument-name", "topic"],
        ],
    )


async def test_a_modern_era_request_reproduces_with_era_modern(tmp_path: Path) -> None:
    path = tmp_path / "modern.jsonl"
    await _record(
        path, EraSetting.MODERN, [("tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}})]
    )
    recorded = read_session(path)
    assert recorded.era == "modern"
    _check_reproduces(recorded, [["--era", "modern"]])


def test_the_server_part_of_the_command() -> None:
    stdio = connection_summary(
        transport="stdio",
        command="node",
        args=["dist/index.js", "stdio"],
        env={"API_KEY": "xyz-secret", "MODE": "debug"},
        cwd="/srv/my server",
    )
    command = cli_command_for("tools/list", None, stdio)
    assert command == (
        'mcp-inspector-qt cli --method tools/list --env API_KEY="$API_KEY" --env MODE=debug '
        "--cwd '/srv/my server' -- node dist/index.js stdio"
    )
    http = connection_summary(
        transport="http", url="https://mcp.example.com/mcp", headers={"Authorization": "Bearer x"}
    )
    command = cli_command_for("ping", {}, http, era="auto")
    assert command == (
        "mcp-inspector-qt cli --method ping --era auto --url https://mcp.example.com/mcp "
        '--header "Authorization: $HEADER_AUTHORIZATION"'
    )
    assert "Bearer" not in command


def test_requests_the_cli_cannot_express_say_why() -> None:
    conn = {"transport": "stdio", "command": "srv", "args": [], "env": {}}
    with pytest.raises(CliCommandError, match="no --method resources/subscribe"):
        cli_command_for("resources/subscribe", {"uri": "x://y"}, conn)
    with pytest.raises(CliCommandError, match="not a string"):
        cli_command_for("prompts/get", {"name": "p", "arguments": {"n": 5}}, conn)
    with pytest.raises(CliCommandError, match="no server command or URL"):
        cli_command_for("ping", None, {"transport": "stdio"})
    # Our own _meta stamps are not part of the request.
    command = cli_command_for(
        "tools/call", {"name": "t", "arguments": {}, "_meta": {"progressToken": "p1"}}, conn
    )
    assert command == "mcp-inspector-qt cli --method tools/call --tool-name t -- srv"


def test_the_methods_match_the_cli() -> None:
    assert set(METHODS) == _CLI_METHODS
