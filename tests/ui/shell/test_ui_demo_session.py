"""The main window against the bundled demo server (it starts in about a tenth of a second).

Each test has its own loop, window and server: with a loop shared across tests, pytest-qt's
event processing between tests would run qasync callbacks while no asyncio loop runs.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from PySide6.QtGui import QGuiApplication

from inspector.protocol.wire.versions import LATEST_LEGACY
from inspector.traffic.log import TrafficEntry
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.traffic.composer import RawComposerDialog
from inspector.ui.traffic.traffic_model import COL_KIND, COL_LATENCY, COL_METHOD
from tests.helpers.gui import until, with_demo
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(90)


def rows(win: MainWindow) -> list[tuple[str, str, str]]:
    model = current_tab(win).log_panel.model
    model.flush()
    return [
        (
            model.index(r, COL_KIND).data(),
            model.index(r, COL_METHOD).data(),
            model.index(r, COL_LATENCY).data(),
        )
        for r in range(model.rowCount())
    ]


def test_connected_state_server_info_and_tools(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def body() -> None:
        assert current_tab(window).controller.model.state is ConnState.CONNECTED
        bar = current_tab(window).bar
        assert bar.state_label.text() == "Connected"
        assert bar.version_label.text() == f"protocol {LATEST_LEGACY}"
        assert bar.era_label.text() == "legacy era"
        assert "demo" in bar.server_label.text()
        assert window.windowTitle() == "mcp-inspector-qt demo"  # Qt adds " — MCP Inspector"

    with_demo(loop, window, body)
    panel = current_tab(window).server_panel
    assert "demo" in panel.title.text()
    assert '"tools"' in panel.capabilities.toPlainText()
    assert panel.instructions.toPlainText()
    names = current_tab(window).explorer.tool_names()
    assert "echo" in names and "add" in names
    tabs = current_tab(window).explorer.tabs
    assert tabs.tabText(0) == f"Tools {len(names)}"
    assert current_tab(window).bar.state_label.text() == "Disconnected"


def test_log_pairs_requests_with_responses_and_shows_latency(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def body() -> None:
        pass

    with_demo(loop, window, body)
    table = rows(window)
    assert ("request", "initialize", "") in table
    responses = [r for r in table if r[0] == "response" and r[1] == "tools/list"]
    assert responses and responses[0][2].endswith(" ms")
    panel = current_tab(window).log_panel
    request = next(
        e
        for e in current_tab(window).traffic.entries
        if e.method == "tools/list" and e.kind == "request"
    )
    response = current_tab(window).traffic.pair_of(request)
    assert response is not None and response.latency is not None
    # Selecting the request highlights its response; jump to pair goes there and back.
    assert panel.select_entry(request.index)
    assert panel.model._highlight == {response.index}
    assert panel.detail.pair_button.isEnabled()
    panel.detail.pair_button.click()
    assert panel.selected_entry() == response
    assert panel.model._highlight == {request.index}
    assert "tools/list" in panel.detail.header.text() and "ms" in panel.detail.header.text()
    assert '"tools": [' in panel.detail.pretty.toPlainText()  # pretty-printed on view
    panel.detail.pair_button.click()
    assert panel.selected_entry() == request
    # Copy as CLI command reproduces the request against the same server.
    panel.detail.copy_cli()
    cli = QGuiApplication.clipboard().text()
    assert cli.startswith("mcp-inspector-qt cli --method tools/list ")
    assert " -- " in cli and "inspector.demo" in cli and "--env PYTHONPATH=" in cli
    panel.detail.copy_json()
    assert json.loads(QGuiApplication.clipboard().text())["method"] == "tools/list"


def test_stderr_lands_in_the_console(window: MainWindow, loop: asyncio.AbstractEventLoop) -> None:
    async def body() -> None:
        await until(lambda: "demo server ready" in current_tab(window).console.text(), "stderr")

    with_demo(loop, window, body)
    assert "connecting to Demo server" in current_tab(window).console.text()


def test_filters_and_search(window: MainWindow, loop: asyncio.AbstractEventLoop) -> None:
    async def body() -> None:
        pass

    with_demo(loop, window, body)
    panel = current_tab(window).log_panel
    model = panel.model
    model.flush()
    total = len(current_tab(window).traffic)

    def shown() -> list[TrafficEntry]:
        return [e for r in range(model.rowCount()) if (e := model.entry_at(r)) is not None]

    panel.method_edit.setText("tools/list")
    panel.apply_filters()
    assert {e.method for e in shown()} == {"tools/list"}
    assert panel.count_label.text() == f"{model.rowCount()} of {total} messages"
    panel.method_edit.setText("")
    panel.direction_combo.setCurrentIndex(1)  # → sent
    panel.apply_filters()
    assert {e.direction for e in shown()} == {"out"}
    panel.direction_combo.setCurrentIndex(0)
    for kind, action in panel.kind_actions.items():
        action.setChecked(kind == "stderr")
    panel.apply_filters()
    assert model.rowCount() >= 1
    assert {e.kind for e in shown()} == {"stderr"}
    for action in panel.kind_actions.values():
        action.setChecked(True)
    panel.text_edit.setText("serverinfo")  # lower case: ignores case
    panel.apply_filters()
    assert [e.method for e in shown()] == ["initialize"]
    panel.text_edit.setText("")
    panel.hide_noise.setChecked(True)
    panel.apply_filters()
    assert all(e.method not in ("ping", "notifications/progress") for e in shown())
    panel.hide_noise.setChecked(False)
    panel.apply_filters()
    assert model.rowCount() == len(current_tab(window).traffic) and not model.filtered
    # Search: next and previous wrap around the rows.
    panel.show_search()
    panel.search_edit.setText('"method":"notifications/initialized"')
    assert panel.find_next()
    found = panel.selected_entry()
    assert found is not None and found.method == "notifications/initialized"
    assert panel.find_previous()
    panel.search_edit.setText("no such text anywhere 12345")
    assert not panel.find_next()
    assert panel.search_status.text() == "not found"


def test_raw_composer_sends_pairs_and_warns(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def body() -> None:
        window.open_composer()
        composer = current_tab(window).composer
        assert isinstance(composer, RawComposerDialog)
        methods = [composer.method_combo.itemText(i) for i in range(composer.method_combo.count())]
        assert "tools/call" in methods and "logging/setLevel" in methods
        assert "notifications/cancelled" in methods and "server/discover" not in methods
        composer.method_combo.setCurrentText("tools/call")
        composer.load_template()
        template = json.loads(composer.editor.toPlainText())
        assert template["method"] == "tools/call" and isinstance(template["id"], int)
        call = {
            "jsonrpc": "2.0",
            "id": 4242,
            "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": 2, "b": 40}},
        }
        composer.editor.setPlainText(json.dumps(call))
        assert composer.update_warnings() == []
        task = composer.send()
        assert task is not None
        await task
        await until(lambda: composer.last_result is not None, "the answer")
        assert composer.last_result is not None and "42" in composer.last_result
        sent = [e for e in current_tab(window).traffic.entries if e.msg_id == 4242]
        assert [e.kind for e in sent] == ["request", "response"]
        assert sent[1].pair == sent[0].index and sent[1].latency is not None
        # Invalid JSON-RPC: warned, and still sent when the user insists.
        composer.editor.setPlainText('{"jsonrpc": "1.0", "id": 4343, "method": "nope/never"}')
        warnings = composer.update_warnings()
        assert any('"jsonrpc" must be "2.0"' in w for w in warnings)
        assert any("nope/never is not a client request" in w for w in warnings)
        asked: list[list[str]] = []
        composer.confirm = lambda w: asked.append(w) is None and False
        assert composer.send() is None and asked  # declined: nothing sent
        composer.confirm = lambda w: True
        task = composer.send()
        assert task is not None
        await task
        await until(
            lambda: any(
                e.msg_id == 4343 and e.direction == "in" for e in current_tab(window).traffic
            ),
            "the server's answer",
        )
        answer = next(
            e for e in current_tab(window).traffic if e.msg_id == 4343 and e.direction == "in"
        )
        assert answer.kind == "error"
        composer.close()

    with_demo(loop, window, body)


def test_statistics_panel_updates(window: MainWindow, loop: asyncio.AbstractEventLoop) -> None:
    async def body() -> None:
        current_tab(window).bottom.setCurrentWidget(current_tab(window).stats_panel)
        current_tab(window).stats_panel.refresh_if_changed()
        row = current_tab(window).stats_panel.row_for("tools/list")
        assert row is not None
        _method, count, errors, p50, p95, worst, requests = row
        assert int(count) >= 1 and errors == "0" and requests == count
        assert p50.endswith(" ms") and p95.endswith(" ms") and worst.endswith(" ms")
        session = current_tab(window).controller.model.session
        assert session is not None
        await session.client.call_tool("add", {"a": 1, "b": 2})
        await session.client.call_tool("add", {"a": 1, "b": 3})
        current_tab(window).stats_panel.refresh_if_changed()  # live: the new calls show up
        call_row = current_tab(window).stats_panel.row_for("tools/call")
        assert call_row is not None and call_row[1] == "2"

    with_demo(loop, window, body)


def test_settings_are_kept(window: MainWindow, loop: asyncio.AbstractEventLoop) -> None:
    async def body() -> None:
        pass

    with_demo(loop, window, body)
    window.save_state()
    assert window.settings.value("geometry") is not None
    assert window.settings.value("recentProfiles") in (["demo"], "demo")
