"""`mcp-inspector-qt test` end to end against real peers: a collection saved from a server
passes against it (exit 0); after the server's echo changes it fails (exit 1), naming the
call and the assertion, and the JUnit file lists both; the other exit codes (2, 3, 5),
--json, --update-snapshots and --from-session --write."""

from __future__ import annotations

import json
import os
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.collections.recorded import ECHO_CALLS, ECHO_SERVER, record, stdio_of
from tests.helpers.http_servers import Served, free_port, serving
from tests.helpers.peers import EVERYTHING_JS, PY, REPO, demo_command

pytestmark = pytest.mark.timeout(180)

# A stdio server gets only the env it is given (like the app): --env changes the echo.
CHANGED = ("--env", "ECHO_PREFIX=changed: ")


def inspector(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "-m", "inspector", *args],
        capture_output=True,
        text=True,
        timeout=170,
        env=dict(os.environ, PYTHONPATH=str(REPO), **(env or {})),
        cwd=REPO,
    )


def save_from_session(tmp_path: Path, era: str) -> Path:
    session_file = record(tmp_path / "s.jsonl", stdio_of(ECHO_SERVER), ECHO_CALLS, era=era)
    collection = tmp_path / "echo.collection.json"
    proc = inspector("test", "--from-session", str(session_file), "--write", str(collection))
    assert proc.returncode == 0, proc.stderr
    assert f"wrote {collection}" in proc.stdout and f"({era} era)" in proc.stdout
    return collection


def junit_cases(path: Path) -> dict[str, ET.Element]:
    suite = ET.parse(path).getroot()
    assert suite.tag == "testsuite"
    return {case.get("name", ""): case for case in suite.iter("testcase")}


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_passes_against_its_server_then_fails_when_the_echo_changes(
    era: str, tmp_path: Path
) -> None:
    collection = save_from_session(tmp_path, era)
    junit = tmp_path / "out.xml"
    ok = inspector("test", str(collection), "--junit", str(junit), "--", *ECHO_SERVER)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    lines = ok.stdout.splitlines()
    assert any(line.startswith("PASS  echo  ok  ") and line.endswith(" ms") for line in lines)
    assert "0 failed" in lines[-1]
    cases = junit_cases(junit)
    assert "echo" in cases and cases["echo"].find("failure") is None

    bad = inspector("test", str(collection), "--junit", str(junit), *CHANGED, "--", *ECHO_SERVER)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    out = bad.stdout
    assert "FAIL  echo  ok" in out
    assert "result matches the snapshot: 2 change(s) from the snapshot" in out
    assert '~ /content/0/text: "hello" → "changed: hello"' in out
    assert "PASS  add  ok" in out  # what did not change still passes
    cases = junit_cases(junit)
    failure = cases["echo"].find("failure")
    assert failure is not None and "result matches the snapshot" in (failure.text or "")
    assert cases["add"].find("failure") is None
    suite = ET.parse(junit).getroot()
    assert int(suite.get("failures", "0")) == 2  # echo and the greeting resource
    assert cases["read info://greeting"].find("failure") is not None


@pytest.fixture(scope="module")
def echo_http() -> Iterator[Served]:
    port = free_port()
    with serving([([*ECHO_SERVER, "streamable-http", "--port", str(port)], {}, port)]) as [s]:
        yield s


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_over_http_in_both_eras(echo_http: Served, era: str, tmp_path: Path) -> None:
    collection = save_from_session(tmp_path, era)  # saved over stdio, run over HTTP
    proc = inspector("test", str(collection), "--era", era, "--url", f"{echo_http.base}/mcp")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_update_snapshots_rewrites_the_file_and_then_passes(tmp_path: Path) -> None:
    collection = save_from_session(tmp_path, "legacy")
    before = collection.read_text()
    updated = inspector("test", str(collection), "--update-snapshots", *CHANGED, "--", *ECHO_SERVER)
    assert updated.returncode == 0, updated.stdout + updated.stderr
    assert "--update-snapshots: updated 2 call(s): echo, read info://greeting" in updated.stderr
    after = collection.read_text()
    assert after != before and '"text": "changed: hello"' in after
    again = inspector("test", str(collection), *CHANGED, "--", *ECHO_SERVER)
    assert again.returncode == 0, again.stdout
    back = inspector("test", str(collection), "--", *ECHO_SERVER)
    assert back.returncode == 1


def test_json_output(tmp_path: Path) -> None:
    collection = tmp_path / "c.json"
    collection.write_text(
        json.dumps(
            {
                "version": 1,
                "name": "demo",
                "calls": [
                    {
                        "name": "echo",
                        "kind": "tool",
                        "tool": "echo",
                        "arguments": {"message": "hi"},
                        "assert": [{"pointer": "/content/0/text", "equals": "hi"}],
                    },
                    {
                        "name": "add",
                        "kind": "tool",
                        "tool": "add",
                        "arguments": {"a": 1, "b": 2},
                        "assert": [
                            {"outputSchema": "valid"},
                            {"pointer": "/structuredContent/sum", "equals": 4},
                        ],
                    },
                ],
            }
        )
    )
    proc = inspector("test", str(collection), "--json", "--", *demo_command())
    assert proc.returncode == 1
    report: dict[str, Any] = json.loads(proc.stdout)
    assert (report["passed"], report["failed"], report["exit_code"]) == (1, 1, 1)
    add = report["calls"][1]
    assert add["name"] == "add" and not add["passed"] and isinstance(add["ms"], float)
    verdicts = {a["message"]: a["passed"] for a in add["assertions"]}
    assert verdicts == {
        "outcome ok": True,
        "structuredContent matches the outputSchema": True,
        "/structuredContent/sum is 3, expected 4": False,
    }


def test_server_everything(tmp_path: Path) -> None:
    if not EVERYTHING_JS.exists():
        pytest.skip("server-everything is not installed (scripts/install-peers.sh)")
    server = ["node", str(EVERYTHING_JS), "stdio"]
    calls = [
        ("tools/list", {}),
        ("tools/call", {"name": "echo", "arguments": {"message": "hi"}}),
        ("tools/call", {"name": "get-sum", "arguments": {"a": 2, "b": 40}}),
        ("tools/call", {"name": "get-structured-content", "arguments": {"location": "New York"}}),
        ("prompts/get", {"name": "simple-prompt"}),
        ("tools/call", {"name": "trigger-sampling-request", "arguments": {"prompt": "hi"}}),
        ("tools/list", {}),  # after the sampling tools were added (list_changed)
    ]
    session_file = record(tmp_path / "s.jsonl", stdio_of(server), calls)
    collection = tmp_path / "everything.json"
    made = inspector("test", "--from-session", str(session_file), "--write", str(collection))
    assert made.returncode == 0, made.stderr
    proc = inspector("test", str(collection), "--", *server)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PASS  get-sum  ok" in proc.stdout and "PASS  catalog: echo  ok" in proc.stdout
    # the sampling request was answered from the answer saved with the call
    assert "PASS  trigger-sampling-request  ok" in proc.stdout
    saved = json.loads(collection.read_text())
    [sampling] = [c for c in saved["calls"] if c["name"] == "trigger-sampling-request"]
    assert sampling["answers"][0]["method"] == "sampling/createMessage"
    assert "forty-two" in json.dumps(sampling["assert"])


def test_exit_codes_2_3_5(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{\n  "version": 1,\n  "calls": [\n    {"name": "a", "kind": "tool",\n'
        '     "tool": "echo",'
        ' "assert": [{"pointer": "content", "equals": 1}]}\n  ]\n}\n'
    )
    proc = inspector("test", str(bad), "--", *demo_command())
    assert proc.returncode == 2
    assert (
        f"{bad}:5: calls[0] 'a' assert[0] pointer: 'content' is not a JSON Pointer" in proc.stderr
    )
    assert "Traceback" not in proc.stderr
    not_json = tmp_path / "broken.json"
    not_json.write_text('{"version": 1,\n "calls": [\n')
    proc = inspector("test", str(not_json), "--", *demo_command())
    assert proc.returncode == 2 and f"{not_json}:3: column 1: Expecting value" in proc.stderr

    good = tmp_path / "good.json"
    good.write_text(
        '{"version": 1, "calls": [{"name": "slow", "kind": "tool", "tool": "slow_count",'
        ' "arguments": {"steps": 1, "delay_ms": 5000}, "timeoutMs": 300},'
        ' {"name": "echo", "kind": "tool", "tool": "echo", "arguments": {"message": "x"}}]}'
    )
    proc = inspector("test", str(good))
    assert proc.returncode == 2 and "no server" in proc.stderr
    assert inspector("test", "--write", "x.json").returncode == 2
    proc = inspector("test", str(good), "--", str(tmp_path / "no-such-server"))
    assert proc.returncode == 3 and "could not reach the server" in proc.stderr
    proc = inspector("test", str(good), "--url", f"http://127.0.0.1:{free_port()}/mcp")
    assert proc.returncode == 3
    proc = inspector("test", str(good), "--", *demo_command())
    assert proc.returncode == 5, proc.stdout + proc.stderr
    assert "FAIL  slow  timeout" in proc.stdout and "PASS  echo  ok" in proc.stdout
    # a server that never answers the handshake: a timeout too
    proc = inspector("test", str(good), "--timeout", "1", "--", "sleep", "30")
    assert proc.returncode == 5, proc.stdout + proc.stderr
    assert "could not reach the server" in proc.stderr


def test_from_session_refuses_bad_input(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    not_session = tmp_path / "x.jsonl"
    not_session.write_text("hello\n")
    proc = inspector("test", "--from-session", str(not_session), "--write", str(target))
    assert proc.returncode == 2 and "not an MCP Inspector session file" in proc.stderr
    assert not target.exists()
    proc = inspector("test", "--from-session", str(not_session))
    assert proc.returncode == 2 and "needs --write" in proc.stderr
    target.write_text("keep me")
    session_file = record(tmp_path / "s.jsonl", stdio_of(demo_command()), [("ping", {})])
    proc = inspector("test", "--from-session", str(session_file), "--write", str(target))
    assert proc.returncode == 2 and "exists: give --force" in proc.stderr
    assert target.read_text() == "keep me"
    proc = inspector("test", "--from-session", str(session_file), "--write", str(target), "--force")
    assert proc.returncode == 0 and "1 ping request(s) are not saved calls" in proc.stderr


def test_a_saved_profile_names_the_server(tmp_path: Path) -> None:
    collection = tmp_path / "c.json"
    collection.write_text(
        '{"version": 1, "era": "modern", "calls": [{"name": "echo", "kind": "tool",'
        ' "tool": "echo", "arguments": {"message": "hi"},'
        ' "assert": [{"pointer": "/content/0/text", "equals": "hi"}]}]}'
    )
    env = {"MCP_INSPECTOR_CONFIG_DIR": str(tmp_path / "config")}
    proc = inspector("test", str(collection), "--profile", "Demo server", env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = inspector("test", str(collection), "--profile", "nobody", env=env)
    assert proc.returncode == 2 and "no profile named 'nobody'" in proc.stderr


MISBEHAVING = [PY, str(REPO / "tests" / "servers" / "misbehaving" / "server.py")]


def _two_ok_calls(tmp_path: Path, tool: str = "ok") -> Path:
    collection = tmp_path / "ok.json"
    collection.write_text(
        '{"version": 1, "calls": ['
        f'{{"name": "first", "kind": "tool", "tool": "{tool}"}},'
        '{"name": "second", "kind": "tool", "tool": "ok"}]}'
    )
    return collection


@pytest.mark.parametrize(
    ("mode", "tool", "code", "expect"),
    [
        ("garbage", "noisy", 0, "PASS  first  ok"),  # noise on stdout is not an answer
        ("crash", "boom", 3, "FAIL  second  failed: "),  # the server died: unreachable now
        ("exit-early", "ok", 3, ""),
        ("hostile", "deep", 1, "FAIL  first  "),  # a bad answer fails only its call
        ("hostile", "huge-progress", 0, "PASS  first  ok"),
    ],
)
def test_misbehaving_servers(tmp_path: Path, mode: str, tool: str, code: int, expect: str) -> None:
    collection = _two_ok_calls(tmp_path, tool)
    proc = inspector("test", str(collection), "--timeout", "5", "--", *MISBEHAVING, "--mode", mode)
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert expect in proc.stdout
    assert "Traceback" not in proc.stderr + proc.stdout


_BANNER_SERVER = """
import json, sys
print("Server v1.2 listening (debug banner on stdout)", flush=True)
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg or "method" not in msg:
        continue
    if msg["method"] == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"],
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "b", "version": "1"}}
    elif msg["method"] == "tools/list":
        result = {"tools": [{"name": "hi", "inputSchema": {"type": "object"}}]}
    else:
        print("DEBUG: calling hi", flush=True)
        result = {"content": [{"type": "text", "text": "hi"}]}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
"""


def test_a_run_does_not_hide_what_the_server_broke(tmp_path: Path) -> None:
    """Like `cli`, `test` reports non-JSON lines on stdout on stderr (it said nothing: the
    run passed with no sign of the banner and debug prints that break real hosts)."""
    server = tmp_path / "banner.py"
    server.write_text(_BANNER_SERVER)
    collection = tmp_path / "c.json"
    collection.write_text(
        json.dumps(
            {"version": 1, "calls": [{"name": "hi", "kind": "tool", "tool": "hi", "arguments": {}}]}
        )
    )
    proc = inspector("test", str(collection), "--", PY, str(server))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "warning: invalid frame from the server" in proc.stderr
    assert "Server v1.2 listening" in proc.stderr and "DEBUG: calling hi" in proc.stderr
