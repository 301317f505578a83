"""Real hosts through the tap to real servers, in both eras: the `mcp` 2.3 SDK `Client` and
our own CLI as hosts; server-everything (npm) and an `mcp` 2.3 SDK server behind the tap.
The host must get the same answers as without the tap, and the session file must hold
every frame the host and the server exchanged."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from inspector.recording.offline import load_offline
from inspector.recording.reader import read_session
from tests.helpers.peers import EVERYTHING_JS, PY, REPO, SERVERS
from tests.helpers.tap import tap_argv, tap_env

SDK_SERVER = [PY, str(SERVERS / "sdk" / "sdk_server.py")]
EVERYTHING = ["node", str(EVERYTHING_JS), "stdio"]
needs_everything = pytest.mark.skipif(
    not EVERYTHING_JS.exists(), reason="server-everything not installed (scripts/install-peers.sh)"
)


def cli(tmp_path: Path, *args: str, server: list[str]) -> tuple[int, Any, str]:
    command = [PY, "-m", "inspector", "cli", *args, "--", *server]
    proc = subprocess.run(
        command, capture_output=True, text=True, timeout=60, cwd=REPO,
        env=tap_env(tmp_path / "rt"), check=False,
    )  # fmt: skip
    out = json.loads(proc.stdout) if proc.stdout.strip() else None
    return proc.returncode, out, proc.stderr


def frames(path: Path) -> list[tuple[str, str | bytes]]:
    return [(e.direction, e.raw) for e in read_session(path).frames()]


@pytest.mark.parametrize(
    ("server", "era", "call"),
    [
        pytest.param(SDK_SERVER, "legacy", ("add", ["a=2", "b=40"]), id="sdk-legacy"),
        pytest.param(SDK_SERVER, "modern", ("add", ["a=2", "b=40"]), id="sdk-modern"),
        pytest.param(
            EVERYTHING, "legacy", ("get-sum", ["a=2", "b=40"]),
            id="everything-legacy", marks=needs_everything,
        ),
    ],
)  # fmt: skip
def test_our_cli_through_the_tap_gets_the_same_result_and_every_frame_is_recorded(
    tmp_path: Path, server: list[str], era: str, call: tuple[str, list[str]]
) -> None:
    name, args = call
    words = ["--method", "tools/call", "--tool-name", name, "--era", era]
    for arg in args:
        words += ["--tool-arg", arg]
    plain = cli(tmp_path, *words, server=server)
    tapped_file = tmp_path / "tap.jsonl"
    host_file = tmp_path / "host.jsonl"
    tapped = cli(tmp_path, *words, "--record", str(host_file), server=tap_argv(tapped_file, server))
    assert tapped[0] == plain[0] == 0, tapped[2]
    assert tapped[1] == plain[1]
    # The host's own recording and the tap's hold the same frames, in the same order in
    # each direction (how the two directions interleave depends on who looked first).
    # Our CLI closes stdin right after its result, and then may still answer a late server
    # request (server-everything's roots/list): its own file lists that answer as sent, but
    # it never reached the wire, so the tap rightly does not have it.
    ours_in = [f for f in frames(tapped_file) if f[0] == "in"]
    assert ours_in == [f for f in frames(host_file) if f[0] == "in"]
    ours_out = [f for f in frames(tapped_file) if f[0] == "out"]
    host_out = [f for f in frames(host_file) if f[0] == "out"]
    assert ours_out == host_out[: len(ours_out)]
    assert all('"result"' in str(f[1]) for f in host_out[len(ours_out) :])
    assert len(ours_out) >= 2  # the handshake (initialize or server/discover), the call
    recorded = read_session(tapped_file)
    assert recorded.ready is not None
    assert recorded.ready["era"] == era
    notes = [e.raw for e in recorded.events if e.type == "note"]
    assert notes[-1].startswith("server exited")  # type: ignore[union-attr]


def _sdk_client_run(tap_file: Path, server: list[str], mode: str, tool: str, args: Any) -> Any:
    anyio = pytest.importorskip("anyio")
    from mcp import StdioServerParameters
    from mcp.client.client import Client
    from mcp.client.stdio import stdio_client

    argv = tap_argv(tap_file, server) if tap_file.name else server
    params = StdioServerParameters(
        command=argv[0], args=argv[1:], cwd=str(REPO), env=tap_env(tap_file.parent / "rt")
    )

    async def run() -> Any:
        with anyio.fail_after(40):
            async with Client(stdio_client(params), mode=mode) as client:
                tools = await client.list_tools()
                result = await client.call_tool(tool, args)
                return sorted(t.name for t in tools.tools), result.model_dump(mode="json")

    return anyio.run(run)


@pytest.mark.parametrize(
    ("server", "mode", "tool"),
    [
        pytest.param(SDK_SERVER, "legacy", "add", id="sdk-legacy"),
        pytest.param(SDK_SERVER, "auto", "add", id="sdk-auto"),
        pytest.param(EVERYTHING, "legacy", "get-sum", id="everything", marks=needs_everything),
    ],
)
def test_the_sdk_client_through_the_tap(
    tmp_path: Path, server: list[str], mode: str, tool: str
) -> None:
    pytest.importorskip("mcp.client.client")
    tap_file = tmp_path / "tap.jsonl"
    plain = _sdk_client_run(Path(""), server, mode, tool, {"a": 2, "b": 40})
    tapped = _sdk_client_run(tap_file, server, mode, tool, {"a": 2, "b": 40})
    assert tapped[0] == plain[0]
    assert tapped[1]["content"] == plain[1]["content"]
    offline = load_offline(read_session(tap_file))
    methods = [r.method for r in offline.traffic if r.direction == "out"]
    assert "tools/list" in methods and "tools/call" in methods
    assert offline.ready is not None
    # The explorer built from what the host listed.
    assert {t.key for t in offline.catalog["tools"].items} >= set(plain[0])
    pairs = [r for r in offline.traffic if r.method == "tools/call" and r.direction == "out"]
    assert pairs, "the call is in the log"
    assert not [r for r in offline.traffic if r.kind == "invalid"]


def test_environment_reaches_the_server_unchanged(tmp_path: Path) -> None:
    show = [PY, "-c", "import os,sys; sys.stdout.write(os.environ.get('SOME_SETTING','?'))"]
    done = subprocess.run(
        tap_argv(tmp_path / "s.jsonl", show), capture_output=True, timeout=30, check=False,
        env=tap_env(tmp_path / "rt", SOME_SETTING="from the host"),
    )  # fmt: skip
    assert done.stdout == b"from the host"
    assert os.environ.get("SOME_SETTING") is None
