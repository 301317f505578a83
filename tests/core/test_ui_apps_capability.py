"""The MCP Apps extension (`io.modelcontextprotocol/ui`) in the client's capabilities: a
connection opened for the GUI (which renders apps in its App tab) declares it, in the legacy
`initialize` and in every modern request's `_meta`; a headless connection and the `cli`
never do; the profile can switch it off. The mcp 2.3 SDK server reads it back the way the
ext-apps `getUiCapability` does."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from inspector.core.connection_state import ConnState
from inspector.core.inspector_model import InspectorModel
from inspector.features.asks.canned_replies import CannedReplies
from inspector.features.forms.argument_memory import ArgumentMemory
from inspector.protocol.machine.config import META_CLIENT_CAPS, UI_APP_MIME, UI_EXTENSION
from inspector.settings.connect import client_config_for
from inspector.settings.profiles import (
    ClientCapabilitySwitches,
    EnvVar,
    Profile,
    ProfileStore,
    StdioSettings,
)
from inspector.storage.secrets import SecretStore
from inspector.traffic.log import TrafficLog
from tests.helpers.peers import PY, REPO, SERVERS

pytestmark = pytest.mark.timeout(90)

SDK = str(SERVERS / "sdk" / "sdk_server.py")
DECLARED = {"mimeTypes": [UI_APP_MIME]}


def sdk_profile(era: str, *, apps: bool = True) -> Profile:
    return Profile(
        name="sdk",
        stdio=StdioSettings(
            command=PY, args=[SDK, "stdio"], env=[EnvVar(name="PYTHONPATH", value=str(REPO))]
        ),
        era=era,  # type: ignore[arg-type]
        capabilities=ClientCapabilitySwitches(apps=apps),
    )


@pytest.fixture
async def app_model_without_pins(tmp_path: Path) -> AsyncIterator[InspectorModel]:
    model = InspectorModel(
        profiles=ProfileStore(tmp_path / "profiles.json", SecretStore()),
        canned=CannedReplies(tmp_path / "canned.json"),
        arguments=ArgumentMemory(tmp_path / "arguments.json"),
    )
    yield model
    await model.shutdown()


async def until(predicate: Callable[[], object], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        await asyncio.sleep(0.01)


def sent_capabilities(log: TrafficLog, method: str) -> list[Any]:
    """The client capabilities of every `method` request we sent: `initialize` params, or
    the modern `_meta` entry."""
    out: list[Any] = []
    for entry in log:
        if entry.direction != "out" or entry.method != method:
            continue
        params = json.loads(entry.text()).get("params", {})
        if method == "initialize":
            out.append(params.get("capabilities"))
        else:
            out.append(params.get("_meta", {}).get(META_CLIENT_CAPS))
    return out


def tool_text(result: dict[str, Any]) -> str:
    return " ".join(c.get("text", "") for c in result.get("content", []))


# ---------------------------------------------------------------- the configuration


def test_only_a_front_end_that_renders_apps_declares_the_extension() -> None:
    profile = sdk_profile("legacy")
    gui = client_config_for(profile, ui_apps=True).capabilities
    assert gui["extensions"] == {UI_EXTENSION: DECLARED}
    assert UI_EXTENSION == "io.modelcontextprotocol/ui"
    assert UI_APP_MIME == "text/html;profile=mcp-app"
    # The other capabilities are untouched by it.
    assert {"sampling", "elicitation", "roots"} <= set(gui)
    assert "extensions" not in client_config_for(profile).capabilities  # headless default
    off = sdk_profile("legacy", apps=False)
    assert "extensions" not in client_config_for(off, ui_apps=True).capabilities
    # Each config has its own dict: one session cannot change another's declaration.
    a = client_config_for(profile, ui_apps=True).capabilities
    a["extensions"][UI_EXTENSION]["mimeTypes"].append("x/y")
    assert client_config_for(profile, ui_apps=True).capabilities["extensions"] == {
        UI_EXTENSION: DECLARED
    }


def test_an_old_profile_file_without_the_switch_declares_it() -> None:
    loaded = Profile.model_validate(
        {"name": "old", "capabilities": {"sampling": True, "elicitation": True, "roots": True}}
    )
    assert loaded.capabilities.apps is True


# ---------------------------------------------------------------- on the wire, to a real server


@pytest.mark.parametrize(("era", "method"), [("legacy", "initialize"), ("modern", "tools/call")])
async def test_a_gui_connection_declares_it_and_the_server_sees_it(
    app_model_without_pins: InspectorModel, era: str, method: str
) -> None:
    connection = app_model_without_pins.open_connection(ui_apps=True)
    await connection.connect_profile(sdk_profile(era))
    assert connection.state is ConnState.CONNECTED, connection.detail
    session = connection.session
    assert session is not None
    result = await session.request("tools/call", {"name": "ui_support", "arguments": {}})
    assert json.loads(tool_text(result)) == DECLARED  # what getUiCapability would return
    sent = sent_capabilities(connection.traffic, method)
    assert sent and all(c["extensions"] == {UI_EXTENSION: DECLARED} for c in sent)
    if era == "modern":  # every request carries it, discovery included
        discover = sent_capabilities(connection.traffic, "server/discover")
        assert all(c["extensions"] == {UI_EXTENSION: DECLARED} for c in discover)


@pytest.mark.parametrize(("era", "method"), [("legacy", "initialize"), ("modern", "tools/call")])
async def test_a_headless_connection_does_not_claim_ui_support(
    app_model_without_pins: InspectorModel, era: str, method: str
) -> None:
    connection = app_model_without_pins.open_connection()
    await connection.connect_profile(sdk_profile(era))
    assert connection.state is ConnState.CONNECTED, connection.detail
    session = connection.session
    assert session is not None
    result = await session.request("tools/call", {"name": "ui_support", "arguments": {}})
    assert tool_text(result) == "none"
    sent = sent_capabilities(connection.traffic, method)
    assert sent and all("extensions" not in c for c in sent)


async def test_the_profile_switch_turns_it_off_in_the_gui(
    app_model_without_pins: InspectorModel,
) -> None:
    connection = app_model_without_pins.open_connection(ui_apps=True)
    await connection.connect_profile(sdk_profile("legacy", apps=False))
    session = connection.session
    assert session is not None and connection.state is ConnState.CONNECTED
    result = await session.request("tools/call", {"name": "ui_support", "arguments": {}})
    assert tool_text(result) == "none"


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_the_cli_does_not_claim_ui_support(era: str) -> None:
    command = [
        PY, "-m", "inspector", "cli", "--method", "tools/call", "--tool-name", "ui_support",
        "--era", era, "--", PY, SDK, "stdio",
    ]  # fmt: skip
    proc = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr
    assert tool_text(json.loads(proc.stdout)) == "none"
