"""Recording over HTTP (the mcp 2.x SDK peer on streamable HTTP, a free local port):
secrets never reach the file, the session replays over HTTP, and it exports as HAR 1.2."""

from __future__ import annotations

import datetime as dt
import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inspector.recording.format import REDACTED
from inspector.recording.har import export_har
from inspector.recording.reader import read_session
from tests.helpers.peers import PY, REPO

pytestmark = pytest.mark.timeout(60)

SDK_PEER = str(REPO / "tests" / "servers" / "sdk" / "sdk_server.py")
TOKEN = "s3cr3t-T0KEN-value"
QUERY_SECRET = "qs-s3cr3t-in-the-url"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def sdk_url() -> Iterator[str]:
    pytest.importorskip("mcp", reason="the mcp SDK is a test dependency")
    port = _free_port()
    proc = subprocess.Popen(
        [PY, SDK_PEER, "streamable-http", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=REPO,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("the SDK peer did not start serving HTTP")
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def inspector(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [PY, "-m", "inspector", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=REPO,
    )


@pytest.fixture(scope="module")
def http_session(sdk_url: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One recorded tools/call over HTTP, with a bearer token and a secret in the URL."""
    path = tmp_path_factory.mktemp("http") / "s.jsonl"
    proc = inspector(
        "cli", "--record", str(path), "--compact",
        "--url", f"{sdk_url}?api_key={QUERY_SECRET}",
        "--header", f"Authorization: Bearer {TOKEN}",
        "--method", "tools/call", "--tool-name", "echo", "--tool-arg", f"text=hi {TOKEN}",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    # The server echoes the token back, so it is in the traffic too: redacted there as well.
    assert TOKEN in proc.stdout
    return path


def test_a_secret_header_never_appears_in_the_file(http_session: Path) -> None:
    data = http_session.read_bytes()
    assert TOKEN.encode() not in data
    assert QUERY_SECRET.encode() not in data
    assert REDACTED.encode() in data
    session = read_session(http_session)
    assert session.connection["header_names"] == ["Authorization"]
    assert REDACTED in session.connection["url"]
    exchanges = [e.data["exchange"] for e in session.events if e.type == "http"]
    assert exchanges, "the HTTP exchanges are recorded"
    auth = {x["request_headers"].get("authorization") for x in exchanges}
    assert auth == {REDACTED}
    echoed = [e.raw for e in session.frames() if isinstance(e.raw, str) and "hi " in e.raw]
    assert echoed and all(REDACTED in raw for raw in echoed)


def test_an_http_session_replays_over_http(http_session: Path, sdk_url: str) -> None:
    # The recorded URL held a secret that was not kept: the user gives the URL.
    refused = inspector("replay", str(http_session), "--use-recorded-command")
    assert refused.returncode == 2
    assert "give it with --url" in refused.stderr
    proc = inspector("replay", str(http_session), "--url", sdk_url, "--ignore", "/**/text",
                     "--ignore", "/structuredContent")  # fmt: skip
    # The echoed text held the redacted token: it drifts unless ignored.
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # The tools/list cli sent to know the tool's outputSchema, and the call.
    assert "2 same" in proc.stdout


# ------------------------------------------------------------------------ HAR


HAR_ENTRY_FIELDS = frozenset(
    {"startedDateTime", "time", "request", "response", "cache", "timings", "comment",
     "serverIPAddress", "connection", "pageref"}
)  # fmt: skip


def _check_har(har: dict[str, Any]) -> None:
    """The fields HAR 1.2 requires, with their types."""
    log = har["log"]
    assert log["version"] == "1.2"
    assert isinstance(log["creator"]["name"], str) and isinstance(log["creator"]["version"], str)
    assert isinstance(log["entries"], list)
    for entry in log["entries"]:
        dt.datetime.fromisoformat(entry["startedDateTime"])
        assert entry["startedDateTime"][10] == "T"
        assert isinstance(entry["time"], int | float) and entry["time"] >= 0
        request, response = entry["request"], entry["response"]
        for key in ("method", "url", "httpVersion"):
            assert isinstance(request[key], str)
        for part in (request, response):
            assert isinstance(part["cookies"], list)
            assert all(set(h) >= {"name", "value"} for h in part["headers"])
            assert isinstance(part["headersSize"], int)
            assert isinstance(part["bodySize"], int)
        assert isinstance(request["queryString"], list)
        if "postData" in request:
            assert isinstance(request["postData"]["mimeType"], str)
            assert isinstance(request["postData"]["text"], str)
        assert isinstance(response["status"], int)
        assert isinstance(response["statusText"], str)
        assert isinstance(response["httpVersion"], str)
        assert isinstance(response["redirectURL"], str)
        content = response["content"]
        assert isinstance(content["size"], int) and isinstance(content["mimeType"], str)
        assert isinstance(entry["cache"], dict)
        timings = entry["timings"]
        for key in ("send", "wait", "receive"):
            assert isinstance(timings[key], int | float) and timings[key] >= 0
        total = sum(v for v in timings.values() if v > 0)
        assert abs(total - entry["time"]) < 0.01
        for key in entry:  # custom fields start with "_"
            assert key in HAR_ENTRY_FIELDS or key.startswith("_"), key


def test_export_har_of_an_http_session(http_session: Path, tmp_path: Path) -> None:
    out = tmp_path / "s.har"
    proc = inspector("export-har", str(http_session), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "HTTP exchange(s)" in proc.stderr
    text = out.read_text()
    assert TOKEN not in text and QUERY_SECRET not in text
    har = json.loads(text)
    _check_har(har)
    assert har == export_har(read_session(http_session))

    entries = har["log"]["entries"]
    methods = [e["request"]["method"] for e in entries]
    assert methods[0] == "POST" and "DELETE" in methods
    initialize = entries[0]
    assert json.loads(initialize["request"]["postData"]["text"])["method"] == "initialize"
    assert initialize["response"]["status"] == 200
    assert initialize["response"]["statusText"] == "OK"
    assert {"name": "authorization", "value": REDACTED} in initialize["request"]["headers"]
    assert {"name": "api_key", "value": REDACTED} in initialize["request"]["queryString"]

    # The tools/call POST: its body is our request, its content the SSE event with the answer.
    (call,) = [
        e
        for e in entries
        if "postData" in e["request"] and '"tools/call"' in e["request"]["postData"]["text"]
    ]
    assert call["response"]["content"]["mimeType"] == "text/event-stream"
    data_lines = [
        line[len("data: ") :]
        for line in call["response"]["content"]["text"].splitlines()
        if line.startswith("data: ")
    ]
    answer = json.loads(data_lines[-1])
    sent = json.loads(call["request"]["postData"]["text"])
    assert answer["id"] == sent["id"]
    assert answer["result"]["content"][0]["text"] == f"hi {REDACTED}"
    assert call["request"]["bodySize"] == len(call["request"]["postData"]["text"].encode())
    # Notifications get 202 Accepted with no body, and still carry what was posted.
    accepted = [e for e in entries if e["response"]["status"] == 202]
    assert accepted
    assert all("notifications/" in e["request"]["postData"]["text"] for e in accepted)


def test_export_har_of_a_stdio_session_is_empty_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "stdio.jsonl"
    proc = inspector(
        "cli", "--record", str(path), "--method", "ping", "--", PY, "-m", "inspector.demo"
    )
    assert proc.returncode == 0, proc.stderr
    proc = inspector("export-har", str(path))
    assert proc.returncode == 0
    assert "no HTTP exchanges" in proc.stderr
    har = json.loads(proc.stdout)
    _check_har(har)
    assert har["log"]["entries"] == []


def test_export_har_of_a_bad_file_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "garbage.jsonl"
    path.write_text("not a session\n")
    proc = inspector("export-har", str(path), "-o", str(tmp_path / "x.har"))
    assert proc.returncode == 2
    assert "not an MCP Inspector session file" in proc.stderr
    assert not (tmp_path / "x.har").exists()
