"""The app when a real HTTP server restarts under it (the demo server stopped and started
again on the same port, so it answers 404 for the old session): a read is answered in the
new session and the traffic log says it was sent again; a tool call is not sent twice, its
card says why and offers one click to run it again, which works."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from inspector.settings.profiles import HttpSettings, Profile
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.workspace.tool_view import ToolCallView
from tests.helpers.demo_http import RestartableDemo
from tests.helpers.gui import connected, run, until

pytestmark = [pytest.mark.timeout(120), pytest.mark.usefixtures("config_dir")]


@pytest.fixture
def restartable_demo() -> Iterator[RestartableDemo]:
    served = RestartableDemo()
    try:
        yield served
    finally:
        served.close()


def _profile(url: str) -> Profile:
    return Profile(name="demo over HTTP", transport="http", http=HttpSettings(url=url))


def _notes(controller: ConnectionController) -> list[str]:
    return [e.raw for e in controller.model.traffic.entries if e.kind == "note"]


def test_a_read_is_sent_again_and_a_tool_call_offers_a_rerun(
    loop: asyncio.AbstractEventLoop,
    qtbot: QtBot,
    controller: ConnectionController,
    restartable_demo: RestartableDemo,
) -> None:
    async def scenario() -> None:
        await connected(controller, _profile(restartable_demo.url), listed=("tools",))
        session = controller.model.session
        assert session is not None
        await asyncio.to_thread(restartable_demo.restart)
        read = await session.client.read_resource("demo://readme")  # as the reader does
        assert read["contents"]
        await until(
            lambda: any("sent resources/read again" in n for n in _notes(controller)),
            "the log to say the read was sent again",
        )
        assert any("re-initializing once" in n for n in _notes(controller))

        item = controller.model.catalog.tools.find("echo")
        assert item is not None
        view = ToolCallView(item, controller)
        qtbot.addWidget(view)
        view.resize(900, 800)
        view.show()
        await asyncio.to_thread(restartable_demo.restart)  # again, now under the tool call
        view.form.set_values({"message": "hello"})
        first = view.send()
        assert first is not None
        await until(lambda: not first.running, "the first call to end")
        card = view.cards[0]
        await until(lambda: card.run_again_button is not None, "the card's repaint")
        assert first.status == "failed" and first.not_sent_again
        assert "not sent again" in first.error_message and "may have run" in first.error_message
        assert card.run_again_button is not None
        await until(lambda: session.is_ready, "the new session")
        qtbot.mouseClick(card.run_again_button, Qt.MouseButton.LeftButton)
        await until(lambda: len(view.cards) == 2, "a second card")
        second = view.cards[0].record
        await until(lambda: not second.running, "the re-run to end")
        assert second.status == "ok", second.error_message
        assert second.arguments == {"message": "hello"}
        sent = [
            e
            for e in controller.model.traffic.entries
            if e.direction == "out" and "tools/call" in e.raw
        ]
        assert len(sent) == 2  # the failed one once, the re-run once: never re-sent alone

    run(loop, scenario(), timeout=90)
