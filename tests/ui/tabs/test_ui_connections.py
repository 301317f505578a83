"""Connecting, disconnecting and reconnecting from the main window, against real servers:
server-everything, misbehaving servers (invalid frames, a crash, an early exit) and a
server whose every text is HTML. Plus screenshot mode, end to end in a subprocess."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from inspector.settings.profiles import Profile, StdioSettings
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.traffic.traffic_model import COL_KIND
from tests.helpers.gui import (
    MISBEHAVING,
    RICH_TEXT,
    connected,
    python_profile,
    run,
    then_shutdown,
    until,
)
from tests.helpers.peers import PY, REPO
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(90)


@pytest.mark.peers
def test_server_everything_connect_disconnect_reconnect(
    window: MainWindow, loop: asyncio.AbstractEventLoop, everything_command: list[str]
) -> None:
    profile = Profile(
        name="everything",
        stdio=StdioSettings(command=everything_command[0], args=everything_command[1:]),
    )

    async def scenario() -> None:
        await connected(window, profile, listed=("tools",))
        names = current_tab(window).explorer.tool_names()
        assert "echo" in names and "get-sum" in names
        assert current_tab(window).bar.state_label.text() == "Connected"
        # It asks for roots right after initialized; answered from the profile, quietly.
        await until(
            lambda: any(
                e.method == "roots/list" and e.direction == "out"
                for e in current_tab(window).traffic
            ),
            "the roots/list answer",
        )
        window.disconnect_server()
        await until(
            lambda: current_tab(window).controller.model.state is ConnState.DISCONNECTED,
            "disconnect",
        )
        assert current_tab(window).bar.state_label.text() == "Disconnected"
        assert current_tab(window).bar.connect_button.isEnabled()
        assert not current_tab(window).bar.send_raw_button.isEnabled()
        before = len(current_tab(window).traffic)
        window.reconnect()
        await until(
            lambda: (
                current_tab(window).controller.model.state is ConnState.CONNECTED
                and current_tab(window).controller.model.tools is not None
            ),
            "reconnect",
            timeout=30,
        )
        assert len(current_tab(window).traffic) > before  # one log across connections
        initializes = [
            e
            for e in current_tab(window).traffic
            if e.method == "initialize" and e.kind == "request"
        ]
        assert len(initializes) == 2

    run(loop, then_shutdown(window, scenario()), timeout=60)


def test_invalid_frames_show_flagged(window: MainWindow, loop: asyncio.AbstractEventLoop) -> None:
    profile = python_profile("garbage", MISBEHAVING, "--mode", "garbage")

    async def scenario() -> None:
        await connected(window, profile, listed=("tools",))
        session = current_tab(window).controller.model.session
        assert session is not None
        result = await session.client.call_tool("x")
        assert result["content"][0]["text"] == "answered after garbage"
        await until(lambda: len(flagged_rows()) >= 4, "the invalid frames in the log")

    def flagged_rows() -> list[int]:
        model.flush()
        return [
            r for r in range(model.rowCount()) if model.index(r, COL_KIND).data() == "⚠ invalid"
        ]

    model = current_tab(window).log_panel.model
    run(loop, then_shutdown(window, scenario()))
    invalid_rows = flagged_rows()
    assert len(invalid_rows) >= 4
    entry = model.entry_at(invalid_rows[0])
    assert entry is not None and "stdout pollution" in (entry.note or "")
    assert model.index(invalid_rows[0], 0).data(Qt.ItemDataRole.BackgroundRole) is not None
    current_tab(window).log_panel.select_entry(entry.index)
    details = current_tab(window).log_panel.detail.details.toPlainText()
    assert "parse error:" in details and "raw bytes:" in details
    assert (
        current_tab(window).log_panel.detail.tabs.currentWidget()
        is current_tab(window).log_panel.detail.details
    )
    assert any(item.category == "invalid frame" for item in current_tab(window).errors.items)
    kinds = current_tab(window).log_panel.kind_actions
    for kind, action in kinds.items():
        action.setChecked(kind == "invalid")
    current_tab(window).log_panel.apply_filters()
    assert model.rowCount() == len(invalid_rows)


def test_crash_shows_clear_state_app_stays_usable_and_reconnect_works(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    profile = python_profile("crashy", MISBEHAVING, "--mode", "crash")

    async def scenario() -> None:
        await connected(window, profile, listed=("tools",))
        session = current_tab(window).controller.model.session
        assert session is not None
        call = session.start_request("tools/call", {"name": "boom", "arguments": {}})
        await until(
            lambda: current_tab(window).controller.model.state is ConnState.LOST,
            "the crash to show",
        )
        assert call.done
        assert current_tab(window).bar.state_label.text() == "Server exited"
        assert "exit" in current_tab(window).bar.server_label.text()
        assert current_tab(window).bottom.currentWidget() is current_tab(window).errors_panel
        lost = [i for i in current_tab(window).errors.items if i.category == "connection"]
        assert lost and "simulated crash" in lost[-1].message  # the last stderr lines
        assert "RuntimeError: simulated crash in the tool" in current_tab(window).console.text()
        assert current_tab(window).bar.reconnect_button.isEnabled()
        # Still usable: filtering the log and opening the composer work.
        current_tab(window).log_panel.method_edit.setText("tools/call")
        current_tab(window).log_panel.apply_filters()
        assert current_tab(window).log_panel.model.rowCount() >= 1
        window.reconnect()
        await until(
            lambda: (
                current_tab(window).controller.model.state is ConnState.CONNECTED
                and current_tab(window).controller.model.tools is not None
            ),
            "the reconnect",
        )
        assert current_tab(window).bar.state_label.text() == "Connected"

    run(loop, then_shutdown(window, scenario()))


def test_a_server_that_exits_at_once_fails_with_its_reason(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    profile = python_profile("early", MISBEHAVING, "--mode", "exit-early")

    async def scenario() -> None:
        window.connect_profile(profile)
        await until(
            lambda: current_tab(window).controller.model.state is ConnState.FAILED, "the failure"
        )
        assert current_tab(window).bar.state_label.text() == "Could not connect"
        assert "API_KEY" in current_tab(window).controller.model.detail
        assert "API_KEY" in current_tab(window).bar.server_label.text()

    run(loop, then_shutdown(window, scenario()))
    assert "API_KEY" in current_tab(window).console.text()
    assert current_tab(window).server_panel.title.text() == "Could not connect"


def test_server_text_is_never_rendered_as_rich_text(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    profile = python_profile("html", RICH_TEXT)

    async def scenario() -> None:
        await connected(window, profile, listed=("tools",))
        assert current_tab(window).bar.server_label.text() == "<b>html-server</b>"
        await until(lambda: "<b>stderr markup</b>" in current_tab(window).console.text(), "stderr")

    run(loop, then_shutdown(window, scenario()))
    panel = current_tab(window).server_panel
    for label in [*panel.findChildren(QLabel), *current_tab(window).bar.findChildren(QLabel)]:
        if "<" in label.text():
            assert label.textFormat() == Qt.TextFormat.PlainText, label.text()
    assert panel.title.text() == "<b>html-server</b>"
    assert panel.version.text() == "<b>html-server</b> <i>1</i>"
    assert "<img src=x" in panel.instructions.toPlainText()
    assert current_tab(window).explorer.select("tools", "<b>markup</b>")
    page = current_tab(window).workspace.current
    assert page is not None and page.title.text() == "<b>markup</b>"
    page.details.fill()
    assert '<img src=x onerror="alert(1)">' in page.details.description.toPlainText()
    assert "<b>stderr markup</b>" in current_tab(window).console.text()
    # The detail pane is a plain-text document: the markup is there as characters.
    response = next(
        e for e in current_tab(window).traffic if e.kind == "response" and e.method == "tools/list"
    )
    current_tab(window).log_panel.select_entry(response.index)
    assert "<img src=x" in current_tab(window).log_panel.detail.pretty.toPlainText()
    assert current_tab(window).log_panel.detail.header.textFormat() == Qt.TextFormat.PlainText


def _gui(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        PYTHONPATH=str(REPO),
        QT_QPA_PLATFORM="offscreen",
        MCP_INSPECTOR_CONFIG_DIR=str(tmp_path / "config"),
    )
    return subprocess.run(
        [PY, "-m", "inspector", "gui", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=tmp_path,
    )


def test_screenshot_mode_exits_0_with_a_png(tmp_path: Path) -> None:
    out = tmp_path / "shots" / "demo.png"
    proc = _gui(tmp_path, "--profile", "demo", "--screenshot", str(out))
    assert proc.returncode == 0, proc.stderr
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 20_000
    from PySide6.QtGui import QImage

    image = QImage(str(out))
    assert image.width() >= 1000 and image.height() >= 600


def test_screenshot_mode_fails_with_the_reason(tmp_path: Path) -> None:
    bad = f"{PY} {MISBEHAVING} --mode exit-early"
    proc = _gui(tmp_path, "--stdio", bad, "--screenshot", str(tmp_path / "x.png"))
    assert proc.returncode == 3
    assert "could not connect" in proc.stderr and "API_KEY" in proc.stderr
    assert not (tmp_path / "x.png").exists()
    unknown = _gui(tmp_path, "--profile", "nope", "--screenshot", str(tmp_path / "y.png"))
    assert unknown.returncode == 2 and "no profile named 'nope'" in unknown.stderr


def test_screenshot_mode_opens_and_calls_an_item(tmp_path: Path) -> None:
    out = tmp_path / "tool.png"
    args = '{"a": 2, "b": 40}'
    proc = _gui(
        tmp_path, "--profile", "demo", "--screenshot", str(out), "--open", "tool:add",
        "--call-args", args,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes().startswith(b"\x89PNG")
    prompt = _gui(
        tmp_path, "--profile", "demo", "--screenshot", str(tmp_path / "p.png"), "--open",
        "prompt:greet", "--call-args", '{"name": "Ada"}',
    )  # fmt: skip
    assert prompt.returncode == 0, prompt.stderr


def test_screenshot_mode_open_usage_errors(tmp_path: Path) -> None:
    shot = ["--profile", "demo", "--screenshot", str(tmp_path / "x.png")]
    unknown = _gui(tmp_path, *shot, "--open", "tool:no-such-tool")
    assert unknown.returncode == 2 and "no tool 'no-such-tool'" in unknown.stderr
    assert "add" in unknown.stderr  # it lists what the server has
    bad_kind = _gui(tmp_path, *shot, "--open", "widget:x")
    assert bad_kind.returncode == 2 and "--open expects" in bad_kind.stderr
    bad_json = _gui(tmp_path, *shot, "--open", "tool:add", "--call-args", "{nope")
    assert bad_json.returncode == 2 and "not valid JSON" in bad_json.stderr
    alone = _gui(tmp_path, "--profile", "demo", "--open", "tool:add")
    assert alone.returncode == 2 and "go with --screenshot" in alone.stderr
