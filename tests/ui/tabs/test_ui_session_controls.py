"""The log level control and the Ping button, in both eras, against the demo server and
the mcp SDK peer."""

from __future__ import annotations

import asyncio
import json

import pytest

from inspector.protocol.wire.versions import EraSetting
from inspector.settings.profiles import Profile
from inspector.traffic.log_messages import LogMessageStore
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.tabs.session_controls import LogLevelControl, PingControl
from tests.helpers.gui import connected, python_profile, run, until
from tests.helpers.peers import REPO

pytestmark = pytest.mark.timeout(90)

SDK_PEER = str(REPO / "tests" / "servers" / "sdk" / "sdk_server.py")


def profile(era: EraSetting, *args: str) -> Profile:
    p = python_profile(f"p-{era}", *(args or ("-m", "inspector.demo")))
    p.era = era
    return p


async def connect(controller: ConnectionController, p: Profile) -> None:
    await connected(controller, p)


def sent(controller: ConnectionController, method: str) -> list[dict[str, object]]:
    return [
        json.loads(str(e.raw))
        for e in controller.model.traffic
        if e.direction == "out" and e.method == method
    ]


def test_legacy_level_and_ping(
    loop: asyncio.AbstractEventLoop, controller: ConnectionController, qtbot: object
) -> None:
    async def scenario() -> None:
        level = LogLevelControl(controller)
        ping = PingControl(controller)
        assert not level.combo.isEnabled() and not ping.button.isEnabled()
        await connect(controller, profile(EraSetting.LEGACY))
        assert level.combo.isEnabled() and ping.button.isEnabled()
        task = level.set_level("debug")
        assert task is not None
        await task
        assert sent(controller, "logging/setLevel")[-1]["params"] == {"level": "debug"}
        assert level.status.text() == "set to debug"
        task = ping.ping()
        assert task is not None
        await task
        assert ping.result.text().endswith("ms") and ping.last_rtt is not None
        # the choice is applied again after a reconnect
        controller.model.reconnect()
        await until(lambda: len(sent(controller, "logging/setLevel")) == 2, "re-applied level")
        await controller.model.shutdown()
        assert not ping.button.isEnabled()

    run(loop, scenario())


def test_modern_level_is_a_request_stamp_and_ping_explains(
    loop: asyncio.AbstractEventLoop, controller: ConnectionController, qtbot: object
) -> None:
    async def scenario() -> None:
        level = LogLevelControl(controller)
        ping = PingControl(controller)
        await connect(controller, profile(EraSetting.MODERN))
        assert not ping.button.isEnabled()
        assert "no ping method" in ping.button.toolTip()
        assert ping.ping() is None
        task = level.set_level("info")
        assert task is not None
        await task
        assert "each request asks for info+" in level.status.text()
        assert not sent(controller, "logging/setLevel")
        session = controller.model.session
        assert session is not None
        await session.client.list_resources()
        meta = sent(controller, "resources/list")[-1]["params"]["_meta"]  # type: ignore[index]
        assert meta["io.modelcontextprotocol/logLevel"] == "info"
        task = level.set_level(None)
        assert task is not None
        await task
        await session.client.list_resources()
        meta = sent(controller, "resources/list")[-1]["params"]["_meta"]  # type: ignore[index]
        assert "io.modelcontextprotocol/logLevel" not in meta
        await controller.model.shutdown()

    run(loop, scenario())


def test_sdk_peer_modern_logs_arrive_at_the_chosen_level(
    loop: asyncio.AbstractEventLoop, controller: ConnectionController, qtbot: object
) -> None:
    async def scenario() -> None:
        level = LogLevelControl(controller)
        await connect(controller, profile(EraSetting.MODERN, SDK_PEER))
        task = level.set_level("warning")
        assert task is not None
        await task
        session = controller.model.session
        assert session is not None
        await session.client.call_tool("slow_task", {"steps": 2, "delay": 0.01})
        await until(lambda: len(controller.model.messages) >= 1, "a log message")
        levels = [
            LogMessageStore.fields(controller.model.messages.entry(i))[0]
            for i in range(len(controller.model.messages))
        ]
        assert levels == ["warning"]  # debug and info were not asked for
        await controller.model.shutdown()

    run(loop, scenario())
