"""OAuth end to end against an `mcp` 2.x server protected by the SDK's own authorization
server pieces (tests/servers/sdk/oauth_server.py) on 127.0.0.1: a full login, a token refresh,
a revoked token leading to a new login, and a recording plus every file written, searched
for the tokens and the client secret."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from inspector.auth import AuthEvent, AuthStore, OAuth, OAuthSettings, headless_opener
from inspector.protocol.machine.connection import ClientConfig
from inspector.session import PolicyResponder, Session
from inspector.transports.factory import http_transport
from tests.helpers.http_servers import oauth_peer
from tests.helpers.memory_keyring import MemoryKeyring
from tests.helpers.peers import REPO
from tests.helpers.waiting import until

pytestmark = pytest.mark.timeout(90)

TTL = 4  # seconds: short, so a refresh happens within the test


@pytest.fixture(scope="module")
def short_ttl_oauth_server() -> Iterator[str]:
    """The OAuth peer with tokens that expire within the test (a refresh happens)."""
    with oauth_peer(TTL) as base:
        yield base


def counts(base: str) -> dict[str, int]:
    return dict(httpx.get(f"{base}/test/counts").json())


async def open_session(base: str, oauth: OAuth) -> Session:
    transport = http_transport(f"{base}/mcp", kind="streamable-http", auth=oauth)
    session = Session(transport, ClientConfig(request_timeout=20), PolicyResponder({}, []))
    await session.connect(timeout=30)
    return session


def make_oauth(base: str, events: list[AuthEvent]) -> OAuth:
    settings = OAuthSettings(login_timeout=15, refresh_skew=2)
    return OAuth(
        f"{base}/mcp", settings, store=AuthStore(), opener=headless_opener(), listener=events.append
    )


async def test_login_refresh_and_relogin_after_revocation(
    short_ttl_oauth_server: str, memory_keyring: MemoryKeyring
) -> None:
    base = short_ttl_oauth_server
    before = counts(base)
    events: list[AuthEvent] = []
    oauth = make_oauth(base, events)
    session = await open_session(base, oauth)
    try:
        result = await session.client.call_tool("whoami", {})
        assert "authorized caller" in json.dumps(result)
        after_login = counts(base)
        assert after_login["authorize"] == before["authorize"] + 1
        assert after_login["code"] == before["code"] + 1
        assert oauth.tokens is not None and oauth.tokens.refresh_token
        assert oauth.tokens.scope == "mcp"  # the PRM's scopes_supported
        first = oauth.tokens.access_token

        # Refresh before expiry (TTL 4 s, skew 2 s): once the token is within the skew.
        tokens = oauth.tokens
        await until(lambda: (tokens.expires_in() or 0) <= 2, "the token to near its expiry", TTL)
        await session.client.call_tool("whoami", {})
        after_refresh = counts(base)
        assert after_refresh["refresh"] == after_login["refresh"] + 1
        assert after_refresh["authorize"] == after_login["authorize"]
        assert oauth.tokens.access_token != first
        assert any(e.step == "refresh" or "token refresh" in e.message for e in events)

        # Revoked: the refresh fails too, so a new login follows.
        httpx.post(f"{base}/test/revoke-all")
        result = await session.client.call_tool("whoami", {})
        assert "authorized caller" in json.dumps(result)
        after_revoke = counts(base)
        assert after_revoke["authorize"] == after_refresh["authorize"] + 1
    finally:
        await session.close()

    # The token is in the (memory) keyring: a new run reconnects without logging in.
    again = make_oauth(base, [])
    assert again.logged_in
    session = await open_session(base, again)
    try:
        await session.client.call_tool("whoami", {})
    finally:
        await session.close()
    assert counts(base)["authorize"] == after_revoke["authorize"]
    assert again.logout()
    assert not make_oauth(base, []).logged_in


def test_cli_recording_and_files_hold_no_token_or_secret(
    short_ttl_oauth_server: str, tmp_path: Path
) -> None:
    """The CLI end to end (headless login, no keyring: memory only), recording the session.
    Nothing it writes, nor what it prints, holds a token or the client secret."""
    base = short_ttl_oauth_server
    home = tmp_path / "home"
    home.mkdir()
    record = tmp_path / "session.jsonl"
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
    }
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "inspector",
            "cli",
            "--method",
            "tools/call",
            "--tool-name",
            "whoami",
            "--url",
            f"{base}/mcp",
            "--transport",
            "streamable-http",
            "--auth",
            "oauth",
            "--login",
            "headless",
            "-v",
            "--record",
            str(record),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert "authorized caller" in proc.stdout
    assert "auth token: received an access token" in proc.stderr
    assert "memory for this session only" in proc.stderr
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert written == [record]
    issued = httpx.get(f"{base}/test/secrets").json()
    assert len(issued) >= 4  # the client secret, the code, the access and refresh tokens
    recording = record.read_text()
    assert '"Authorization"' in recording or '"authorization"' in recording  # it was there
    for text in (recording, proc.stdout, proc.stderr):
        for value in issued:
            assert value not in text
        assert "sdk-at-" not in text and "sdk-rt-" not in text  # the peer's token prefixes
