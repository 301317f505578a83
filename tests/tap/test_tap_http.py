"""The opt-in HTTP tap: a loopback reverse proxy in front of a real streamable-HTTP server
(the `mcp` 2.3 SDK server, both eras; server-everything's SSE answers streamed through):
the host gets the same answers, the session file holds the exchanges and their frames,
and requests that do not come from this machine are refused."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from inspector.recording.reader import read_session
from inspector.tap.http_checks import host_allowed, origin_allowed, parse_listen
from tests.helpers.http_servers import Served, free_port, serving
from tests.helpers.peers import EVERYTHING_JS, PY, REPO
from tests.helpers.tap import tap_env


def start_tap(tmp_path: Path, upstream: str, *extra: str) -> tuple[Served, Path]:
    port = free_port()
    session = tmp_path / "http-tap.jsonl"
    argv = [PY, "-m", "inspector", "tap", "--listen", f"127.0.0.1:{port}", "--upstream",
            upstream, "--session-file", str(session), "--name", "remote", *extra]  # fmt: skip
    proc = subprocess.Popen(argv, env=tap_env(tmp_path / "rt"), stderr=subprocess.PIPE)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=0.3)
            break
        except httpx.HTTPError:
            time.sleep(0.05)
    return Served(proc, port, "/dev/null"), session


def stop(served: Served) -> str:
    served.process.terminate()
    served.process.wait(15)
    assert served.process.stderr is not None
    return served.process.stderr.read().decode()


def cli(tmp_path: Path, url: str, *args: str) -> tuple[int, Any, str]:
    proc = subprocess.run(
        [PY, "-m", "inspector", "cli", "--url", url, *args], capture_output=True, text=True,
        timeout=60, cwd=REPO, env=tap_env(tmp_path / "rt"), check=False,
    )  # fmt: skip
    return proc.returncode, json.loads(proc.stdout) if proc.stdout.strip() else None, proc.stderr


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_our_cli_through_the_http_tap(tmp_path: Path, sdk_http: Served, era: str) -> None:
    upstream = f"{sdk_http.base}/mcp"
    words = ["--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=2",
             "--tool-arg", "b=40", "--era", era,
             "--header", "Authorization: Bearer s3cr3t-t0ken-xyz"]  # fmt: skip
    plain = cli(tmp_path, upstream, *words)
    tap, session = start_tap(tmp_path, upstream)
    try:
        tapped = cli(tmp_path, f"http://127.0.0.1:{tap.port}/mcp", *words)
    finally:
        stderr = stop(tap)
    assert tapped[0] == plain[0] == 0, tapped[2] + stderr
    assert tapped[1] == plain[1]
    recorded = read_session(session)
    assert recorded.connection["transport"] == "http"
    kinds = [e.type for e in recorded.events]
    assert "http" in kinds
    out = [e for e in recorded.frames() if e.direction == "out"]
    inn = [e for e in recorded.frames() if e.direction == "in"]
    assert any('"tools/call"' in str(e.raw) for e in out)
    assert any("42" in str(e.raw) for e in inn)
    text = session.read_text()
    assert "s3cr3t-t0ken-xyz" not in text
    assert "listening on http://127.0.0.1" in stderr


def test_host_and_origin_are_checked(tmp_path: Path, sdk_http: Served) -> None:
    tap, session = start_tap(tmp_path, f"{sdk_http.base}/mcp")
    try:
        url = f"http://127.0.0.1:{tap.port}/mcp"
        body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        evil_host = httpx.post(url, json=body, headers={"Host": "evil.example:80"})
        assert evil_host.status_code == 421
        evil_origin = httpx.post(url, json=body, headers={"Origin": "http://evil.example"})
        assert evil_origin.status_code == 403
        assert "not this machine" in evil_origin.text
        headers = {
            "Origin": f"http://localhost:{tap.port}",
            "Accept": "application/json, text/event-stream",
        }
        ok = httpx.post(url, json=body, headers=headers)
        assert ok.status_code != 403
    finally:
        stop(tap)
    notes = [str(e.raw) for e in read_session(session).events if e.type == "note"]
    assert any("Host 'evil.example:80' is not this machine" in n for n in notes)
    assert any("Origin 'http://evil.example'" in n for n in notes)


def test_listen_refuses_anything_but_loopback(tmp_path: Path) -> None:
    for bad in ("0.0.0.0:8765", "192.168.1.5:80", "example.com:80", "127.0.0.1"):
        done = subprocess.run(
            [PY, "-m", "inspector", "tap", "--listen", bad, "--upstream", "http://x/mcp"],
            capture_output=True, text=True, env=tap_env(tmp_path), timeout=30, check=False,
        )  # fmt: skip
        assert done.returncode == 2, bad
    assert parse_listen("[::1]:9000") == ("::1", 9000)
    assert parse_listen("localhost:9000") == ("localhost", 9000)


def test_checks() -> None:
    assert host_allowed("127.0.0.1:5000", 5000)
    assert host_allowed("localhost", 5000)
    assert not host_allowed("127.0.0.1:5001", 5000)
    assert not host_allowed("attacker.example", 5000)
    assert not host_allowed(None, 5000)
    assert origin_allowed(None)
    assert origin_allowed("http://localhost:3000")
    assert not origin_allowed("https://attacker.example")
    assert not origin_allowed("null")


@pytest.mark.skipif(not EVERYTHING_JS.exists(), reason="server-everything not installed")
def test_sse_streams_through_unchanged(tmp_path: Path) -> None:
    port = free_port()
    argv = ["node", str(EVERYTHING_JS), "streamableHttp"]
    with serving([(argv, {"PORT": str(port)}, port)]) as (served,):
        upstream = f"{served.base}/mcp"
        words = ["--method", "tools/call", "--tool-name", "get-sum", "--tool-arg", "a=1",
                 "--tool-arg", "b=2"]  # fmt: skip
        plain = cli(tmp_path, upstream, *words)
        tap, session = start_tap(tmp_path, upstream)
        try:
            tapped = cli(tmp_path, f"http://127.0.0.1:{tap.port}/mcp", *words)
        finally:
            stop(tap)
    assert tapped[0] == plain[0] == 0, tapped[2]
    assert tapped[1] == plain[1]
    recorded = read_session(session)
    sse = [e for e in recorded.frames() if e.direction == "in" and "sse_id" in e.data]
    exchanges = [e for e in recorded.events if e.type == "http"]
    assert any("event-stream" in str(e.data["exchange"].get("content_type")) for e in exchanges)
    assert sse or any(e.direction == "in" for e in recorded.frames())
