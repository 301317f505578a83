"""The smaller pieces of inspector.auth: WWW-Authenticate parsing, the loopback listener,
URL rules, the store without a keyring, bearer tokens, and the CLI options."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import httpx
import pytest

from inspector.auth import AuthError, BearerAuth, find_bearer_token, store_bearer_token
from inspector.auth.failures import AuthCancelled, RedirectError
from inspector.auth.flow.browser import AuthorizationPrompt, check_openable, cli_opener
from inspector.auth.flow.challenge import challenge_info, parse_www_authenticate
from inspector.auth.flow.redirect import LoopbackRedirect, send_loopback_get
from inspector.auth.store import AuthStore
from inspector.auth.urls import as_metadata_urls, canonical_resource, prm_urls, resource_covers
from tests.helpers.memory_keyring import (
    MemoryKeyring,
    installed_failing_keyring,
)
from tests.helpers.peers import REPO
from tests.helpers.waiting import until

pytestmark = pytest.mark.timeout(30)


# ---------------------------------------------------------------- WWW-Authenticate
def test_parse_challenges() -> None:
    (c,) = parse_www_authenticate(
        'Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", '
        'scope="files:read files:write", error="insufficient_scope", '
        'error_description="needs \\"write\\", really"'
    )
    assert c.scheme == "Bearer"
    assert c.params["scope"] == "files:read files:write"
    assert c.params["error_description"] == 'needs "write", really'
    two = parse_www_authenticate(['Basic realm="a"', "DPoP algs=ES256, Bearer scope=x"])
    assert [c.scheme for c in two] == ["Basic", "DPoP", "Bearer"]
    assert two[2].params == {"scope": "x"}
    assert parse_www_authenticate("") == []
    assert parse_www_authenticate("Bearer")[0].params == {}
    # junk never raises
    parse_www_authenticate('=,,"unterminated Bearer scope="x')


def test_challenge_info_prefers_bearer_and_reads_dpop_nonce() -> None:
    response = httpx.Response(
        401,
        headers=[
            ("WWW-Authenticate", 'Basic realm="r", DPoP error="use_dpop_nonce"'),
            ("WWW-Authenticate", 'Bearer resource_metadata="https://m/prm"'),
            ("DPoP-Nonce", "abc"),
        ],
    )
    info = challenge_info(response)
    assert info.resource_metadata == "https://m/prm"
    assert info.wants_dpop_nonce and info.dpop_nonce == "abc"


# ---------------------------------------------------------------- URL rules
def test_url_rules() -> None:
    assert canonical_resource("HTTPS://MCP.Example.com/mcp/") == "https://mcp.example.com/mcp"
    assert canonical_resource("https://mcp.example.com/") == "https://mcp.example.com"
    assert canonical_resource("https://h/mcp#frag") == "https://h/mcp"
    assert prm_urls("https://h/public/mcp") == [
        "https://h/.well-known/oauth-protected-resource/public/mcp",
        "https://h/.well-known/oauth-protected-resource",
    ]
    assert prm_urls("https://h") == ["https://h/.well-known/oauth-protected-resource"]
    assert [u for _, u in as_metadata_urls("https://a/t1")] == [
        "https://a/.well-known/oauth-authorization-server/t1",
        "https://a/.well-known/openid-configuration/t1",
        "https://a/t1/.well-known/openid-configuration",
    ]
    assert resource_covers("https://h/mcp", "https://h/mcp")
    assert resource_covers("https://h", "https://h/mcp")
    assert not resource_covers("https://h/mc", "https://h/mcp")
    assert not resource_covers("https://evil/mcp", "https://h/mcp")
    assert not resource_covers("http://h/mcp", "https://h/mcp")


def test_only_http_urls_are_openable() -> None:
    check_openable("https://auth.example/authorize?x=1")
    for bad in ("javascript:alert(1)", "file:///etc/passwd", "ms-settings:", "data:text/html,x"):
        with pytest.raises(AuthError, match="only http and https"):
            check_openable(bad)


async def test_cli_opener_prints_and_refuses_other_schemes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import io

    out = io.StringIO()
    opener = cli_opener(stream=out, open_browser=False)
    await opener(AuthorizationPrompt("https://a.test/authorize?x=1", "http://127.0.0.1:1/callback"))
    assert "https://a.test/authorize?x=1" in out.getvalue()
    with pytest.raises(AuthError):
        await opener(AuthorizationPrompt("file:///x", "http://127.0.0.1:1/callback"))


# ---------------------------------------------------------------- loopback listener
async def _get(url: str, host: str | None = None) -> tuple[int, str]:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    writer.write(f"GET {target} HTTP/1.1\r\nHost: {host or parts.netloc}\r\n\r\n".encode())
    await writer.drain()
    data = await reader.read()
    writer.close()
    head, _, body = data.decode().partition("\r\n\r\n")
    return int(head.split()[1]), body


async def test_listener_answers_only_the_path_once_then_closes() -> None:
    listener = LoopbackRedirect()
    uri = await listener.start()
    assert uri.startswith("http://127.0.0.1:") and uri.endswith("/callback")
    listener.expect("s1")
    base = uri.rsplit("/", 1)[0]
    assert (await _get(base + "/other?code=x&state=s1"))[0] == 404
    assert (await _get(uri + "?code=x&state=s1", host="evil.test"))[0] == 404  # Host checked
    status, body = await _get(uri + "?code=abc&state=s1&iss=https%3A%2F%2Fas")
    assert status == 200 and "close this window" in body and "abc" not in body
    result = await listener.wait(1)
    assert result.code == "abc" and result.iss == "https://as"
    server = listener._server  # answered once: it stops listening
    await until(lambda: server is None or not server.is_serving(), "the listener to close")
    with pytest.raises(OSError):
        await _get(uri + "?code=again&state=s1")
    await listener.close()


async def test_listener_refuses_a_different_state() -> None:
    listener = LoopbackRedirect()
    uri = await listener.start()
    listener.expect("right")
    status, body = await _get(uri + "?code=abc&state=wrong")
    assert status == 400 and "different state" in body
    with pytest.raises(RedirectError, match="different state"):
        await listener.wait(1)
    await listener.close()


async def test_listener_refuses_duplicate_parameters_and_times_out() -> None:
    listener = LoopbackRedirect()
    uri = await listener.start()
    listener.expect("s")
    assert await send_loopback_get(uri + "?code=a&code=b&state=s") == 400
    with pytest.raises(RedirectError, match="twice"):
        await listener.wait(1)
    await listener.close()
    slow = LoopbackRedirect()
    await slow.start()
    with pytest.raises(RedirectError, match=r"within 0\.1 s"):
        await slow.wait(0.1)
    slow.cancel()
    await slow.close()


async def test_listener_cancel() -> None:
    listener = LoopbackRedirect()
    await listener.start()
    listener.cancel("closed by the user")
    with pytest.raises(AuthCancelled, match="closed by the user"):
        await listener.wait(1)
    await listener.close()


# ---------------------------------------------------------------- store and bearer
def test_store_without_keyring_uses_memory_only() -> None:
    for _ in installed_failing_keyring():
        store = AuthStore()
        assert store.save_tokens("iss", "res", {"access_token": "t"}) == "memory"
        assert store.load_tokens("iss", "res") == {"access_token": "t"}
        assert store.session_only
        assert "memory for this session only" in store.status_message
        assert "file" in store.status_message  # "Nothing is written to a file."
        store.save_server("https://s/mcp", "iss", "res")
        assert store.forget_server("https://s/mcp")
        assert store.load_tokens("iss", "res") is None


def test_bearer_token_sources(memory_keyring: MemoryKeyring) -> None:
    url = "https://mcp.test/mcp"
    assert find_bearer_token(url, environ={}) == (None, "")
    assert find_bearer_token(url, environ={"MCP_BEARER_TOKEN": "t1"})[0] == "t1"
    assert (
        find_bearer_token(url, env_name="MY", environ={"MY": "t2", "MCP_BEARER_TOKEN": "t1"})[0]
        == "t2"
    )
    assert find_bearer_token(url, env_name="MY", environ={})[0] is None
    store_bearer_token(url, "t3")
    assert find_bearer_token(url + "/", environ={}) == ("t3", "the keyring")


async def test_bearer_auth_header() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers["authorization"])
        return httpx.Response(200)

    async with httpx.AsyncClient(
        transport=httpx.MockTransport(handler), auth=BearerAuth("tok")
    ) as c:
        await c.get("https://x.test/")
    assert seen == ["Bearer tok"]


# ---------------------------------------------------------------- CLI
def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "inspector", *args],
        capture_output=True,
        text=True,
        timeout=30,
        env={
            **os.environ,
            "PYTHONPATH": str(REPO),
            "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
            **(env or {}),
        },
    )


def test_cli_auth_usage_errors() -> None:
    proc = _cli("cli", "--method", "tools/list", "--auth", "oauth", "--", "true")
    assert proc.returncode == 2 and "--auth oauth applies to --url servers only" in proc.stderr
    proc = _cli(
        "cli", "--method", "tools/list", "--url", "http://127.0.0.1:9/mcp", "--auth", "bearer"
    )
    assert proc.returncode == 2 and "no token" in proc.stderr
    proc = _cli(
        "cli",
        "--method",
        "tools/list",
        "--url",
        "http://127.0.0.1:9/mcp",
        "--auth",
        "oauth",
        "--grant",
        "client_credentials",
    )
    assert proc.returncode == 2 and "--client-id" in proc.stderr


def test_cli_logout_without_keyring_says_so() -> None:
    proc = _cli("logout", "--url", "https://mcp.test/mcp")
    assert proc.returncode == 0
    assert "nothing was stored" in proc.stderr
    assert "memory for this session only" in proc.stderr


# ---------------------------------------------------------------- GUI helpers, layering
async def test_step_gate_pauses_until_advanced_and_can_stop() -> None:
    from inspector.auth import AuthStep, AuthTimeline, StepGate
    from inspector.auth.flow.events import AuthEvent

    shown: list[str | None] = []
    gate = StepGate(enabled=True, on_waiting=lambda s: shown.append(s.name if s else None))
    task = asyncio.ensure_future(gate(AuthStep("token", "exchange the code")))
    await asyncio.sleep(0.01)
    assert not task.done() and gate.waiting is not None and gate.waiting.name == "token"
    gate.advance()
    await task
    assert shown == ["token", None]
    task = asyncio.ensure_future(gate(AuthStep("register", "DCR")))
    await asyncio.sleep(0.01)
    gate.stop()
    with pytest.raises(AuthCancelled):
        await task
    task = asyncio.ensure_future(gate(AuthStep("authorize", "open")))
    await asyncio.sleep(0.01)
    gate.set_enabled(False)  # releases the waiting step
    await task
    await StepGate()(AuthStep("x", "y"))  # disabled: no wait
    timeline = AuthTimeline(limit=2)
    seen: list[str] = []
    timeline.add_listener(lambda e: seen.append(e.step))
    for step in ("a", "b", "c"):
        timeline(AuthEvent(step, "m", "error" if step == "c" else "info"))
    assert [e.step for e in timeline.events] == ["b", "c"] and seen == ["a", "b", "c"]
    assert [e.step for e in timeline.errors()] == ["c"]


def test_auth_imports_no_higher_layer() -> None:
    import ast

    for path in sorted((REPO / "inspector" / "auth").glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith(
                    (
                        "inspector.transports",
                        "inspector.session",
                        "inspector.ui",
                        "inspector.cli",
                    )
                ), f"{path.name} imports {node.module}"
