"""Tokens in a real Secret Service: gnome-keyring under `dbus-run-session` (see
shared TESTING.md). A login in one process is found by the next process, log out forgets
it, and no file holds the token in plain text.

Needs the Debian packages gnome-keyring, dbus and dbus-daemon (scripts/system-deps.sh
installs them as root); skipped with the reason when they are missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.peers import REPO

pytestmark = pytest.mark.timeout(60)

CHILD = r"""
import asyncio, sys
import httpx, keyring
from inspector.auth import AuthStore, OAuth, OAuthSettings, headless_opener
from inspector.auth.flow.events import fingerprint
from inspector.storage.secrets import keyring_status
from tests.helpers.auth_fakes import MCP_URL, FakeWorld

phase = sys.argv[1]
status = keyring_status()
print("backend", status.backend, status.available)
assert status.available, status.message
world = FakeWorld()
oauth = OAuth(MCP_URL, OAuthSettings(login_timeout=10), store=AuthStore(),
              opener=headless_opener(transport=world.transport), http_transport=world.transport)

async def login():
    async with httpx.AsyncClient(transport=world.transport, auth=oauth) as client:
        assert (await client.post(MCP_URL, content=b"{}")).status_code == 200

if phase == "login":
    asyncio.run(login())
    assert not oauth.store.session_only
    print("token", oauth.tokens.access_token)
elif phase == "reuse":
    assert oauth.logged_in, "the token stored by the previous process was not found"
    print("token", oauth.tokens.access_token)
    print("forgot", oauth.logout())
elif phase == "gone":
    assert not oauth.logged_in
    print("gone")
"""


def test_tokens_survive_in_a_real_secret_service(tmp_path: Path) -> None:
    if not shutil.which("dbus-run-session") or not shutil.which("gnome-keyring-daemon"):
        pytest.skip(
            "no Secret Service here: install gnome-keyring, dbus and dbus-daemon "
            "(apt-get install -y --no-install-recommends gnome-keyring dbus dbus-daemon)"
        )
    pytest.importorskip("secretstorage", reason="keyring's Secret Service backend needs it")
    home = tmp_path / "home"
    home.mkdir()
    child = tmp_path / "child.py"
    child.write_text(CHILD)
    py = sys.executable
    script = (
        "eval $(printf pw | gnome-keyring-daemon --unlock --components=secrets) && "
        f"{py} {child} login && {py} {child} reuse && {py} {child} gone"
    )
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "XDG_RUNTIME_DIR": str(tmp_path / "run"),
        "PYTHONPATH": str(REPO),
    }
    (tmp_path / "run").mkdir(mode=0o700)
    proc = subprocess.run(
        ["dbus-run-session", "--", "sh", "-c", script],
        capture_output=True,
        text=True,
        timeout=50,
        env=env,
    )
    if "SecretService" not in proc.stdout and proc.returncode != 0:
        pytest.skip(f"the Secret Service could not be started here: {proc.stderr[-500:]}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    tokens = [line.split()[1] for line in lines if line.startswith("token ")]
    assert len(tokens) == 2 and tokens[0] == tokens[1]  # the second process found the first's
    assert any(line.startswith("forgot [") and "tokens" in line for line in lines)
    assert "gone" in lines
    assert any("SecretService" in line for line in lines if line.startswith("backend"))
    # gnome-keyring keeps its own encrypted file; nothing holds the token in plain text.
    for path in tmp_path.rglob("*"):
        if path.is_file() and path.name != "child.py":
            assert tokens[0].encode() not in path.read_bytes(), path
