"""`mcp-inspector-qt check` end to end: the demo server passes every check in both eras;
real peers (an `mcp` 2.x server over stdio and HTTP, server-everything); our misbehaving
servers fail exactly the check they break, with the evidence; exit codes 0/1/2/3."""

from __future__ import annotations

import json
import os
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.http_servers import Served
from tests.helpers.peers import EVERYTHING_JS, PY, REPO, SERVERS, demo_command

pytestmark = pytest.mark.timeout(180)

LINT_SERVER = [PY, str(SERVERS / "misbehaving" / "lint_server.py")]
SDK_SERVER = [PY, str(SERVERS / "sdk" / "sdk_server.py")]


def check(
    *args: str, server: list[str] | None = None, cwd: Path = REPO
) -> tuple[int, dict[str, Any] | None, str]:
    command = [PY, "-m", "inspector", "check", "--json", *args]
    if server is not None:
        command += ["--", *server]
    proc = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=170,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        cwd=cwd,
    )
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        report = None
    return proc.returncode, report, proc.stderr


def statuses(report: dict[str, Any]) -> dict[str, str]:
    return {c["id"]: c["status"] for c in report["checks"]}


def failed(report: dict[str, Any]) -> dict[str, str]:
    return {c["id"]: c["evidence"] for c in report["checks"] if c["status"] == "failed"}


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_demo_server_passes_every_check(era: str, tmp_path: Path) -> None:
    junit = tmp_path / "out.xml"
    code, report, err = check(
        "--era", era, "--call-read-only", "--junit", str(junit), server=demo_command()
    )
    assert code == 0, err
    assert report is not None and failed(report) == {}
    seen = statuses(report)
    assert seen["stdio.eof"] == seen["stdio.stdout"] == seen["lint.messages"] == "passed"
    assert seen["tools.read-only"] == "passed"
    assert seen["handshake.discover"] == ("passed" if era == "modern" else "skipped")
    assert seen["errors.ping"] == ("passed" if era == "legacy" else "skipped")
    assert report["protocol_version"] == ("2026-07-28" if era == "modern" else "2025-11-25")
    suite = ET.parse(junit).getroot()
    assert suite.tag == "testsuite" and suite.get("failures") == "0"
    assert len(suite.findall("testcase")) == len(report["checks"])


def test_the_table_names_failures_and_their_rule() -> None:
    proc = subprocess.run(
        [PY, "-m", "inspector", "check", "--", *LINT_SERVER, "--break", "no-ping"],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        cwd=REPO,
    )
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    [row] = [i for i, line in enumerate(lines) if line.startswith("FAIL  errors.ping")]
    assert "-32601" in lines[row + 1] and "rule: basic/utilities/ping" in lines[row + 2]
    assert lines[-1].endswith("1 failed, 8 skipped") or " 1 failed" in lines[-1]


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_sdk_server_over_stdio(era: str) -> None:
    code, report, err = check("--era", era, server=SDK_SERVER)
    assert code == 0, (err, report and failed(report))


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_sdk_server_over_http(sdk_http: Served, era: str) -> None:
    code, report, err = check("--era", era, "--url", f"{sdk_http.base}/mcp")
    assert code == 0, (err, report and failed(report))
    assert report is not None
    seen = statuses(report)
    assert seen["http.origin"] == "passed"
    if era == "legacy":
        assert seen["http.notification"] == seen["http.session-id"] == "passed"
        assert seen["http.get"] == seen["http.delete"] == "passed"
    else:
        assert seen["http.mcp-method"] == "passed"


@pytest.mark.peers
def test_server_everything_passes() -> None:
    """server-everything passes all but errors.invalid-params (a real fault of its SDK).
    Its templates and resource-prompt take only a positive integer id: the check gets one
    from its completion (never "example"), so nothing fails wrongly; and it is checked
    from a working directory other than the server's."""
    if not EVERYTHING_JS.exists():
        pytest.skip("server-everything is not installed (scripts/install-peers.sh)")
    code, report, err = check(
        "--call-read-only", server=["node", str(EVERYTHING_JS), "stdio"], cwd=Path("/")
    )
    assert report is not None, err
    fails = failed(report)
    # The TypeScript SDK answers invalid params with -32603 (tests/corpus/behaviour.json).
    assert list(fails) == ["errors.invalid-params"], fails
    assert "got -32603, expected -32602" in fails["errors.invalid-params"]
    assert code == 1
    seen = statuses(report)
    assert seen["resources.templates"] == seen["prompts.get"] == "passed"
    for passed in (
        "lists.tools",
        "lists.prompts",
        "errors.unknown-method",
        "lint.messages",
        "tools.read-only",
        "stdio.eof",
        "notifications.no-reply",
        "lifecycle.initialized",
        "lists.stable",
    ):
        assert seen[passed] == "passed", passed


def test_the_host_session_runs_alone_as_a_host_runs_its_server(tmp_path: Path) -> None:
    """A server that lingers after EOF only while it holds a lock (mcp-cron and its database)
    is judged by one instance at a time: the battery's own session does not hold the lock
    while the host session is measured (before: the host session's instance lost the lock,
    exited at once, and stdio.eof passed)."""
    lock = tmp_path / "server.lock"
    server = [*LINT_SERVER, "--break", "eof-if-locked", "--lock", str(lock)]
    code, report, err = check(server=server)
    assert code == 1, err
    assert report is not None
    fails = failed(report)
    assert "still running 2 s after its stdin closed" in fails.get("stdio.eof", ""), fails


@pytest.mark.parametrize(
    ("broken", "check_id", "evidence"),
    [
        ("bad-version", "handshake.version", "answered protocolVersion '1999-01-01'"),
        ("unknown-method", "errors.unknown-method", "expected -32601"),
        ("crash-unknown", "errors.unknown-method", "server exited (code 3)"),
        ("unknown-tool", "errors.unknown-tool", "an unknown tool was 'called' successfully"),
        ("no-ping", "errors.ping", "-32601"),
        ("missing-uri", "resources.missing", "a missing URI was read successfully"),
        ("stdout-noise", "stdio.stdout", "'debug: initialized!'"),
        ("ignore-eof", "stdio.eof", "still running 2 s after its stdin closed"),
        (
            "eof-after-work",
            "stdio.eof",
            "still running 2 s after its stdin closed, after initialize → "
            "notifications/initialized → tools/list",
        ),
        ("banner", "stdio.stdout", "4 before the first message"),
        ("late-banner", "stdio.stdout", "4 after stdin closed"),
        ("tool-name", "lists.tools", "tool-name-format at /result/tools/2/name"),
        ("cursor-loop", "lists.prompts", "cursor loop"),
        ("undeclared-log", "handshake.capabilities", "undeclared-capability"),
        ("bad-result", "tools.read-only", "schema.required at /result"),
        ("structured", "tools.read-only", "structured-content-schema"),
        ("output-schema", "lists.tools", "output-schema-invalid at /result/tools/1/outputSchema"),
        ("bad-read", "resources.read", "mem://a: resources/read failed: -32603"),
        (
            "bad-prompt",
            "prompts.get",
            "prompt hello is broken: with no arguments, prompts/get failed: -32603",
        ),
        (
            "typed-args,typed-broken",
            "prompts.get",
            "prompt pick is broken: with id='1' (values the server's own completion offered)",
        ),
        (
            "typed-args,typed-broken",
            "resources.templates",
            "template mem://item/{id} is broken: mem://item/1 with id='1'",
        ),
        ("bad-template", "resources.templates", "mem://{a"),
        (
            "no-name-603",
            "errors.invalid-params",
            "a tools/call without its required name got -32603, expected -32602",
        ),
        (
            "notify-error",
            "notifications.no-reply",
            "2 answer(s) that pair with no request",
        ),
        (
            "notify-reply",
            "notifications.no-reply",
            """'{"jsonrpc": "2.0", "id": null, "result": {}}'""",
        ),
        (
            "early-request",
            "lifecycle.initialized",
            "1 request(s) sent before notifications/initialized: 'roots/list'",
        ),
        (
            "unstable",
            "lists.stable",
            "two starts of the server listed different tools (tools/list):\ntool 'echo': "
            "description differs:\n    one start:   '",
        ),
    ],
)
def test_a_broken_rule_fails_its_check_with_evidence(
    broken: str, check_id: str, evidence: str
) -> None:
    code, report, err = check("--call-read-only", server=[*LINT_SERVER, "--break", broken])
    assert code == 1, err
    assert report is not None
    fails = failed(report)
    assert check_id in fails, fails
    assert evidence in fails[check_id]
    rule = next(c["rule"] for c in report["checks"] if c["id"] == check_id)
    assert rule


def test_notifications_before_initialized_are_told_not_failed() -> None:
    """The spec limits what a server sends before notifications/initialized to requests
    (other than ping and logging): a notification sent then (as mcp-cron's list_changed) is
    named in the evidence, and the check passes."""
    _, report, err = check(server=[*LINT_SERVER, "--break", "early-notify"])
    assert report is not None, err
    result = next(c for c in report["checks"] if c["id"] == "lifecycle.initialized")
    assert result["status"] == "passed"
    assert (
        "1 notification(s) came before it: 'notifications/tools/list_changed'"
        in (result["evidence"])
    )
    assert "limits requests before initialized, not notifications" in result["evidence"]


def test_the_new_conduct_checks_pass_a_server_that_breaks_nothing() -> None:
    code, report, err = check(server=LINT_SERVER)
    assert report is not None, err
    seen = statuses(report)
    for passed in (
        "errors.invalid-params",
        "notifications.no-reply",
        "lifecycle.initialized",
        "lists.stable",
    ):
        assert seen[passed] == "passed", (passed, report["checks"])
    assert code == 0, failed(report)


def test_stdout_noise_is_quoted_escaped_and_cut() -> None:
    """The banner's lines are quoted with their control characters escaped (no raw ESC
    reaches the terminal), and a SIGTERM ended the server that ignored EOF."""
    proc = subprocess.run(
        [PY, "-m", "inspector", "check", "--", *LINT_SERVER, "--break", "banner,eof-after-work"],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        cwd=REPO,
    )
    assert proc.returncode == 1, proc.stderr
    assert "\x1b" not in proc.stdout
    assert "before the first message: 'lint-breaker v1'" in proc.stdout
    assert "'\\x1b[32mready\\x1b[0m: listening on stdio'" in proc.stdout
    assert "SIGTERM ended it" in proc.stdout


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_values_come_from_the_servers_completion_never_made_up(era: str) -> None:
    """A prompt argument and a template variable that only a positive integer satisfies
    (as server-everything's): the value comes from the server's completion, so a server
    that breaks nothing passes."""
    code, report, err = check("--era", era, server=[*LINT_SERVER, "--break", "typed-args"])
    assert report is not None, err
    assert failed(report) == {}
    assert code == 0
    evidence = {c["id"]: c["evidence"] for c in report["checks"]}
    assert evidence["prompts.get"] == "2 prompt(s) got"
    assert evidence["resources.templates"] == "1 template(s) expanded and read"


def test_no_known_value_leaves_the_item_out_and_says_why() -> None:
    """Without completions no valid id can be known: the made-up one is refused, which
    judges nothing (no failure), and the evidence says so."""
    code, report, err = check(server=[*LINT_SERVER, "--break", "opaque-args"])
    assert report is not None, err
    assert failed(report) == {}
    assert code == 0
    seen = statuses(report)
    evidence = {c["id"]: c["evidence"] for c in report["checks"]}
    assert seen["prompts.get"] == "passed"
    assert evidence["prompts.get"].startswith(
        "1 prompt(s) got; pick: not judged: it refused a made-up id='example' "
        "(prompts/get failed: -32603 Invalid id: example. Must be a positive integer.); "
        "no valid value can be known (the server declares no completions"
    )
    assert evidence["prompts.get"].endswith("refusing a made-up value shows no broken prompt")
    assert seen["resources.templates"] == "skipped"
    assert evidence["resources.templates"].startswith(
        "mem://item/{id}: not judged: it refused a made-up id='example'"
    )
    assert "shows no broken template" in evidence["resources.templates"]


def test_read_only_tools_are_called_only_with_arguments_their_schema_accepts() -> None:
    """{} is the only arguments the check sends: a tool whose inputSchema rejects it (an id
    needed, though none is "required") is not called."""
    code, report, err = check("--call-read-only", server=[*LINT_SERVER, "--break", "strict-tool"])
    assert report is not None, err
    assert code == 0, failed(report)
    evidence = {c["id"]: c["evidence"] for c in report["checks"]}
    assert evidence["tools.read-only"].startswith("called echo, weather;")


def test_a_crash_does_not_stop_the_battery() -> None:
    code, report, _err = check(server=[*LINT_SERVER, "--break", "crash-unknown"])
    assert code == 1 and report is not None
    seen = statuses(report)
    # the checks after the crash ran on a fresh connection
    assert seen["errors.unknown-tool"] == seen["resources.read"] == "passed"
    assert seen["lint.messages"] == "passed"


def test_unreachable_exits_3() -> None:
    code, report, err = check(server=["/nonexistent/mcp-server"])
    assert code == 3
    assert report is not None and "command not found" in report["unreachable"]
    assert "could not reach the server" in err


def test_unreachable_says_what_the_server_wrote_on_stdout(tmp_path: Path) -> None:
    """Like mcp-cron run without `--transport stdio`: log lines on stdout and never a JSON-RPC
    answer. 'No answer' alone is not the whole truth: the server did write, not JSON-RPC."""
    server = tmp_path / "banner_server.py"
    server.write_text(
        "import sys\n"
        "print('[INFO] Using Streamable HTTP transport on localhost:8080', flush=True)\n"
        "print('[INFO] MCP server started', flush=True)\n"
        "sys.stdin.read()\n"
    )
    code, report, err = check("--timeout", "2", server=[PY, str(server)])
    assert code == 3
    assert report is not None and report["unreachable"] is not None
    assert "2 invalid line(s) to stdout" in report["unreachable"], report["unreachable"]
    assert "Using Streamable HTTP transport" in report["unreachable"]
    assert "2 invalid line(s) to stdout" in err


def test_usage_errors_exit_2() -> None:
    code, _report, err = check()
    assert code == 2 and "error" in err
    code, _report, err = check("--profile", "no such profile at all")
    assert code == 2 and "no profile named" in err


def test_http_server_without_origin_validation_fails_the_origin_check(
    misbehaving_http: Served,
) -> None:
    code, report, err = check("--url", f"{misbehaving_http.base}/ok/mcp")
    assert report is not None, err
    fails = failed(report)
    assert "http.origin" in fails and "DNS rebinding" in fails["http.origin"]
    assert code == 1


def test_sloppy_http_fails_each_http_check(misbehaving_http: Served) -> None:
    code, report, err = check("--url", f"{misbehaving_http.base}/sloppyhttp/mcp")
    assert report is not None, err
    fails = failed(report)
    assert "expected 202" in fails["http.notification"]
    assert "expected an event stream or 405" in fails["http.get"]
    assert "expected 2xx or 405" in fails["http.delete"]
    assert "DNS rebinding" in fails["http.origin"]
    assert code == 1


def test_a_session_id_outside_visible_ascii_fails_its_check(misbehaving_http: Served) -> None:
    """The client refuses such an id (issue 19), so there is no session: the session-id
    check fails with the evidence (exit 1, not 'unreachable')."""
    code, report, err = check("--url", f"{misbehaving_http.base}/sloppy/mcp")
    assert report is not None, err
    fails = failed(report)
    assert "outside visible ASCII" in fails["http.session-id"]
    assert "'sess " in fails["http.session-id"]
    assert code == 1


@pytest.mark.parametrize(
    ("broken", "check_id", "evidence"),
    [
        ("bad-version", "handshake.version", "expected -32022 with data.supported"),
        ("meta-strict", "handshake.meta", "unknown _meta key was refused"),
        ("bad-discover", "handshake.discover", "schema.type at /result/ttlMs"),
        ("no-discover", "handshake.discover", "-32601"),
    ],
)
def test_modern_era_checks_fail_with_evidence(broken: str, check_id: str, evidence: str) -> None:
    code, report, err = check("--era", "modern", server=[*LINT_SERVER, "--break", broken])
    assert code == 1, err
    assert report is not None and report["protocol_version"] == "2026-07-28"
    fails = failed(report)
    assert set(fails) - {"lint.messages"} == {check_id}
    assert evidence in fails[check_id]


def test_our_modern_server_passes_when_it_breaks_nothing() -> None:
    code, report, err = check("--era", "modern", server=LINT_SERVER)
    assert code == 0, (err, report and failed(report))


@pytest.fixture(scope="module")
def demo_http() -> Iterator[str]:
    from tests.helpers.demo_http import demo_http_server

    with demo_http_server() as url:
        yield url


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_demo_server_over_http_passes_every_check(demo_http: str, era: str) -> None:
    code, report, err = check("--era", era, "--call-read-only", "--url", demo_http)
    assert code == 0, (err, report and failed(report))
    assert report is not None and failed(report) == {}
    seen = statuses(report)
    assert seen["http.origin"] == seen["lint.messages"] == seen["tools.read-only"] == "passed"
    assert seen["handshake.version"] == "passed"
    if era == "legacy":
        for check_id in ("http.notification", "http.session-id", "http.get", "http.delete"):
            assert seen[check_id] == "passed", check_id
        assert seen["errors.ping"] == "passed"
    else:
        assert seen["http.mcp-method"] == seen["handshake.discover"] == "passed"
    assert report["protocol_version"] == ("2026-07-28" if era == "modern" else "2025-11-25")


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_cli_lists_the_demo_tools_over_http(demo_http: str, era: str) -> None:
    proc = subprocess.run(
        [PY, "-m", "inspector", "cli", "--era", era, "--url", demo_http, "--method", "tools/list"],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr
    names = [tool["name"] for tool in json.loads(proc.stdout)["tools"]]
    assert {"echo", "add", "slow_count", "ask_llm", "ask_user"} <= set(names)
