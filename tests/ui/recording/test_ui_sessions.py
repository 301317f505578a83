"""Session files in the GUI, against real servers: always-on recording, the
read-only offline view, Save As / HAR, bad files, a secret header that never reaches the
file, and the recording settings."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication

from inspector.recording.format import REDACTED
from inspector.recording.reader import read_session
from inspector.recording.retention import RecordingSettings, list_sessions
from inspector.session import RequestError
from inspector.settings.profiles import (
    HeaderEntry,
    HttpSettings,
    Profile,
    ProfileStore,
    StdioSettings,
)
from inspector.storage.secrets import SecretStore
from inspector.ui.asks.sampling_dialog import SamplingDialog
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.recording.offline_view import OfflineView
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.asks import call_tool, connect, dialog_of, result_of
from tests.helpers.gui import (
    close_window,
    python_profile,
    run,
    until,
    window_for,
)
from tests.helpers.http_servers import Served, free_port, serving
from tests.helpers.memory_keyring import MemoryKeyring
from tests.helpers.peers import PY, REPO
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(90)

HTTP_SERVER = str(REPO / "tests" / "servers" / "misbehaving" / "http_server.py")
SECRET = "Bearer gui-recorded-secret-9911"


@pytest.fixture
def sessions_dir(data_dir: Path) -> Path:
    """Where the recordings of the test go: in the data folder of tests/ui/conftest.py."""
    return data_dir / "sessions"


def open_file(loop: asyncio.AbstractEventLoop, win: MainWindow, path: Path) -> None:
    async def opening() -> None:
        await current_tab(win).session_files.open_session(path)

    run(loop, opening())


def demo() -> Profile:
    return python_profile("Demo server", "-m", "inspector.demo")


async def record_demo_session(win: MainWindow) -> Path:
    """Connect to the demo, list, call, cancel a slow call, disconnect: one recording."""
    win.connect_profile(demo())
    c = current_tab(win).controller.model
    await until(lambda: c.state is ConnState.CONNECTED and c.tools is not None, "the demo")
    await until(
        lambda: current_tab(win).session_files.rec_label.text() == "● REC", "the REC indicator"
    )
    session = c.session
    assert session is not None
    await session.request("tools/call", {"name": "echo", "arguments": {"message": "hi"}})
    slow = session.start_request(
        "tools/call", {"name": "slow_count", "arguments": {"steps": 20, "delay_ms": 100}}
    )
    await until(
        lambda: any(e.direction == "out" and "slow_count" in e.raw for e in c.traffic.entries),
        "the slow call to go out",
    )
    slow.cancel()
    with contextlib.suppress(RequestError):
        await slow.result()
    await c.shutdown()
    await until(
        lambda: not current_tab(win).session_files.recorder.recording, "the recording to end"
    )
    path = current_tab(win).session_files.recorder.last_path
    assert path is not None
    return path


def test_every_connection_is_recorded_and_opens_offline(
    recording_window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    sessions_dir: Path,
    tmp_path: Path,
) -> None:
    files = current_tab(recording_window).session_files

    async def scenario() -> Path:
        try:
            return await record_demo_session(recording_window)
        finally:
            await current_tab(recording_window).controller.model.shutdown()

    path = run(loop, scenario())
    assert path.parent == sessions_dir and path.name.startswith("demo-server_")
    recorded = read_session(path)
    assert recorded.problems == [] and recorded.ready is not None
    actions = [e.data["text"] for e in recorded.events if e.type == "action"]
    assert any(a.startswith("cancelled request") and "tools/call" in a for a in actions)
    assert current_tab(recording_window).session_files.rec_label.text() == ""

    # File ▸ Open Session: the same log, read-only, with its pairs, lists, stderr, timeline,
    # in a tab of its own (the live tab, which has connected, stays as it was).
    live_tab = recording_window.current_tab
    open_file(loop, recording_window, path)
    assert (
        len(recording_window.connection_tabs()) == 2
        and recording_window.current_tab is not live_tab
    )
    assert live_tab.session_files.view is None
    files = current_tab(recording_window).session_files
    view = files.view
    assert isinstance(view, OfflineView) and files.stack.currentWidget() is view
    assert "read-only" in recording_window.windowTitle() and view.banner.isVisible()
    assert recording_window.current_tab.tab_state() == "offline session"
    assert not recording_window.connect_action.isEnabled()
    toolbar = current_tab(recording_window).toolbar
    assert toolbar is not None and not toolbar.isEnabled()
    assert view.rows() == sum(1 for e in recorded.events if e.type != "ready")
    traffic = view.offline.traffic
    request = next(e for e in traffic if e.method == "tools/list" and e.kind == "request")
    assert view.log_panel.select_entry(request.index)
    assert view.log_panel.detail.pair_button.isEnabled()
    view.log_panel.detail.pair_button.click()
    answer = view.log_panel.selected_entry()
    assert answer is not None and answer.kind == "response" and answer.latency is not None
    view.log_panel.select_entry(request.index)
    view.log_panel.detail.copy_cli()
    cli = QGuiApplication.clipboard().text()
    assert cli.startswith("mcp-inspector-qt cli --method tools/list") and "inspector.demo" in cli
    # Filters work on the recorded rows.
    view.log_panel.method_edit.setText("tools/call")
    view.log_panel.apply_filters()
    assert 0 < view.rows() < len(traffic)
    assert {"echo", "slow_count"} <= set(view.panes["tools"].tool_names())
    assert "demo" in view.console.text().lower()
    assert view.server_panel.title.text() != "Not connected"
    row = view.timeline_panel.row_for("tools/call")
    assert row is not None and row[1] == "2" and row[3].endswith("ms")
    assert view.timeline.duration > 0

    # Save As copies the recording; Export HAR of a stdio session is empty, and says so.
    copy = tmp_path / "copy.jsonl"
    assert "Saved" in files.save_session_as(copy)
    assert read_session(copy).events
    message = files.export_har(view.offline.recorded, tmp_path / "s.har")
    assert "no HTTP exchanges" in message
    assert json.loads((tmp_path / "s.har").read_text())["log"]["entries"] == []

    # Closing the recording closes the tab opened for it: the live tab is back.
    view.banner.close_button.click()
    assert files.view is None and files.stack.currentWidget() is files.live
    assert (
        recording_window.connection_tabs() == [live_tab]
        and recording_window.current_tab is live_tab
    )
    toolbar = current_tab(recording_window).toolbar
    assert recording_window.connect_action.isEnabled() and toolbar.isEnabled()
    assert "read-only" not in recording_window.windowTitle()


def test_bad_files_give_a_clear_message_and_the_app_keeps_running(
    recording_window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    files = current_tab(recording_window).session_files
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(b"\x00\xffnot json at all\n")
    newer = tmp_path / "newer.jsonl"
    newer.write_text(
        json.dumps({"type": "header", "format": "mcp-inspector-session", "version": 99}) + "\n"
    )
    truncated = tmp_path / "truncated.jsonl"
    header = {
        "type": "header",
        "format": "mcp-inspector-session",
        "version": 1,
        "connection": {"transport": "stdio", "command": "x", "args": []},
        "era": "legacy",
    }
    frame = {
        "type": "frame",
        "t": 0.1,
        "wall": time.time(),
        "transport": "stdio",
        "dir": "out",
        "kind": "request",
        "text": '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    }
    truncated.write_text(json.dumps(header) + "\n" + json.dumps(frame) + '\n{"type":"fr')

    for path, expected in (
        (garbage, "is not an MCP Inspector session file"),
        (newer, "newer MCP Inspector"),
        (tmp_path / "missing.jsonl", "cannot read"),
    ):
        open_file(loop, recording_window, path)
        box = files.message_box
        assert box is not None and box.isVisible(), path
        assert expected in box.text() and str(path) in box.text()
        box.close()
        assert files.view is None and recording_window.isVisible()

    open_file(loop, recording_window, truncated)
    view = files.view
    assert view is not None and view.rows() == 1
    assert view.banner.problems.isVisible()
    assert "incomplete" in view.banner.problems.text()
    assert "incomplete" in recording_window.statusBar().currentMessage()
    files.close_offline()


@pytest.fixture(scope="module")
def http_server() -> Iterator[Served]:
    port = free_port()
    with serving([([PY, HTTP_SERVER, "--port", str(port)], {}, port)]) as (served,):
        yield served


def test_a_secret_header_never_reaches_the_recording(
    http_server: Served,
    memory_keyring: MemoryKeyring,
    loop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    sessions_dir: Path,
) -> None:
    store = ProfileStore(tmp_path / "profiles.json", SecretStore())
    profile = store.put(
        Profile(
            name="http secret",
            transport="http",
            http=HttpSettings(
                url=f"{http_server.base}/ok/mcp",
                transport="streamable-http",
                headers=[HeaderEntry(name="X-Team-Key", value=SECRET, secret=True)],
            ),
        )
    )
    assert SECRET in memory_keyring.store.values()
    window = window_for(store, tmp_path, "w.ini")
    window.show()

    async def scenario() -> None:
        c = current_tab(window).controller.model
        try:
            window.connect_profile(profile)
            await until(
                lambda: c.state is ConnState.CONNECTED and c.tools is not None,
                f"the HTTP connection ({c.state}: {c.detail})",
            )
            session = c.session
            assert session is not None
            # The server echoes what it is sent: the secret travels in a frame too.
            await session.request("tools/call", {"name": "echo", "arguments": {"text": SECRET}})
        finally:
            await c.shutdown()

    try:
        run(loop, scenario())
        (path,) = [f.path for f in list_sessions(sessions_dir)]
        text = path.read_text(encoding="utf-8")
        assert SECRET not in text and "gui-recorded-secret-9911" not in text
        assert REDACTED in text
        recorded = read_session(path)
        assert recorded.connection["header_names"] == ["X-Team-Key"]
        assert any(e.type == "http" for e in recorded.events)
        har = tmp_path / "s.har"
        assert "HTTP exchange" in current_tab(window).session_files.export_har(recorded, har)
        assert SECRET not in har.read_text()
    finally:
        run(loop, close_window(window))


def test_recording_off_and_save_as_from_the_traffic_log(
    recording_window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    sessions_dir: Path,
    tmp_path: Path,
) -> None:
    files = current_tab(recording_window).session_files
    files.recording_action.trigger()  # File ▸ Record Sessions: off
    assert not files.recorder.settings.enabled
    assert files.rec_label.text() == "REC off"
    assert recording_window.settings.value("recording/enabled") in (False, "false")

    async def scenario() -> None:
        c = current_tab(recording_window).controller.model
        try:
            recording_window.connect_profile(demo())
            await until(lambda: c.state is ConnState.CONNECTED and c.tools is not None, "demo")
        finally:
            await c.shutdown()

    run(loop, scenario())
    assert list_sessions(sessions_dir) == []
    saved = tmp_path / "saved.jsonl"
    assert "traffic log" in files.save_session_as(saved)
    recorded = read_session(saved)
    assert recorded.ready is not None and recorded.connection["name"] == "Demo server"
    assert any(e.type == "stderr" for e in recorded.events)


def test_the_recording_settings_clean_up_old_sessions(
    recording_window: MainWindow, loop: asyncio.AbstractEventLoop, sessions_dir: Path
) -> None:
    sessions_dir.mkdir(parents=True)
    old = sessions_dir / "demo-server_20200101-000000.jsonl"
    old.write_text("{}\n")
    week_ago = time.time() - 10 * 86400
    os.utime(old, (week_ago, week_ago))
    dialog = current_tab(recording_window).session_files.open_settings()
    assert "1 recording(s)" in dialog.usage.text()
    dialog.max_days.setValue(7)
    dialog._clean_now()
    assert not old.exists() and "1 deleted" in dialog.usage.text()
    dialog.max_mb.setValue(5)
    dialog.accept()
    settings = current_tab(recording_window).session_files.recorder.settings
    assert settings == RecordingSettings(enabled=True, max_total_mb=5, max_age_days=7)
    assert recording_window.settings.value("recording/maxAgeDays") in (7, "7")


def test_answers_given_by_hand_are_actions_in_the_recording(
    recording_window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        try:
            session = await connect(recording_window, demo())
            call = call_tool(session, "ask_llm", {"question": "Why?"})
            dialog = await dialog_of(recording_window, SamplingDialog)
            dialog.reply_text.setPlainText("Because.")
            dialog.approve_button.click()
            await result_of(call)
            call = call_tool(session, "ask_llm", {"question": "Again?"})
            dialog = await dialog_of(recording_window, SamplingDialog)
            dialog.reject_button.click()
            await result_of(call)  # the demo turns the rejection into a tool error
        finally:
            await current_tab(recording_window).controller.model.shutdown()

    run(loop, scenario())
    path = current_tab(recording_window).session_files.recorder.last_path
    assert path is not None
    actions = [e.data["text"] for e in read_session(path).events if e.type == "action"]
    answered = [a for a in actions if a.startswith("answered sampling (server request")]
    rejected = [a for a in actions if a.startswith("rejected sampling (server request")]
    assert answered and answered[0].endswith("by hand"), actions
    assert rejected and "by hand" in rejected[0], actions


@pytest.mark.parametrize("case", ["exits", "missing"])
def test_a_failed_connection_is_recorded_with_its_reason(
    recording_window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path, case: str
) -> None:
    if case == "exits":
        broken = python_profile("Broken", "-c", "import sys; sys.exit(7)")
        reason = "code 7"
    else:  # the process never starts: no transport ever closes
        broken = Profile(name="Broken", stdio=StdioSettings(command=str(tmp_path / "nothing")))
        reason = "command not found"

    async def scenario() -> None:
        c = current_tab(recording_window).controller.model
        try:
            recording_window.connect_profile(broken)
            await until(lambda: c.state is ConnState.FAILED, "the failure")
            await until(
                lambda: not current_tab(recording_window).session_files.recorder.recording,
                "the end",
            )
        finally:
            await c.shutdown()

    run(loop, scenario())
    path = current_tab(recording_window).session_files.recorder.last_path
    assert path is not None and path.name.startswith("broken_")
    notes = [e.data.get("text", "") for e in read_session(path).events if e.type == "note"]
    assert any(reason in n for n in notes), notes
    assert current_tab(recording_window).session_files.rec_label.text() == ""
