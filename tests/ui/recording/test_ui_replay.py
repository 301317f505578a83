"""The replay window against real servers: a GUI recording of the mcp 2.x SDK peer replayed
against the same server (no drift) and a drifted one (drift shown side by side), and the
confirmation before a recorded command runs (declined: nothing runs)."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import subprocess
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from inspector.recording.format import connection_summary, header_line
from inspector.recording.reader import read_session
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.recording.replay_window import ReplayWindow
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import python_profile, run, until
from tests.helpers.peers import PY, REPO
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(120)

SDK_PEER = str(REPO / "tests" / "servers" / "sdk" / "sdk_server.py")
SDK_DRIFTED = str(REPO / "tests" / "servers" / "sdk" / "sdk_server_drifted.py")


async def finish(replay: ReplayWindow) -> None:
    await until(lambda: replay.task is not None, "the replay to start")
    assert replay.task is not None
    await asyncio.wait_for(asyncio.shield(replay.task), 60)


def test_a_gui_recording_replays_clean_then_shows_drift(
    recording_window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    files = current_tab(recording_window).session_files

    async def record() -> Path:
        c = current_tab(recording_window).controller.model
        try:
            recording_window.connect_profile(python_profile("SDK peer", SDK_PEER))
            await until(
                lambda: c.state is ConnState.CONNECTED and c.catalog.tools.loaded,
                "the SDK peer's tools",
                30,
            )
            session = c.session
            assert session is not None
            await session.request("tools/call", {"name": "echo", "arguments": {"text": "hi"}})
        finally:
            await c.shutdown()
        path = files.recorder.last_path
        assert path is not None
        return path

    path = run(loop, record(), 60)
    recorded = read_session(path)
    replay = files.open_replay(recorded)
    assert replay.isVisible() and replay.total >= 2
    assert replay.use_typed.isChecked(), "the recorded command is never the default"
    assert not replay.use_recorded.isChecked()

    async def against(script: str) -> None:
        replay.use_typed.setChecked(True)
        replay.typed.setText(shlex.join([PY, script]))
        replay.start_button.click()
        await finish(replay)

    run(loop, against(SDK_PEER), 60)
    report = replay.report
    assert report is not None
    assert not report.drifted, report.summary()
    assert "no drift" in replay.status.text()
    assert replay.progress.value() == replay.progress.maximum() == replay.total
    assert replay.results.count() == replay.total + 1  # the handshake first

    run(loop, against(SDK_DRIFTED), 60)
    report = replay.report
    assert report is not None and report.drifted
    assert "DRIFT" in replay.status.text()
    labels = [replay.results.item(i).text() for i in range(replay.results.count())]
    echo_row = next(i for i, t in enumerate(labels) if "tools/call echo" in t)
    assert "DRIFT" in labels[echo_row]
    replay.results.setCurrentRow(echo_row)
    assert "/content/0/text" in replay.diff.paths.toPlainText()
    assert any('"text": "echo: hi"' in line for line in replay.diff.marked("right"))
    assert any('"text": "hi"' in line for line in replay.diff.marked("left"))
    list_row = next(i for i, t in enumerate(labels) if "tools/list" in t)
    replay.results.setCurrentRow(list_row)
    assert "- /tools/name=fail" in replay.diff.paths.toPlainText()
    saved = tmp_path / "report.json"
    replay.save_report(saved)
    data = json.loads(saved.read_text())
    assert data["drifted"] is True and SDK_DRIFTED in data["target"]
    replay.close()


def crafted_session(tmp_path: Path, marker: Path) -> Path:
    """A file from someone else whose recorded command would create a marker file."""
    code = f"import pathlib; pathlib.Path({str(marker)!r}).touch()"
    connection = connection_summary(
        transport="stdio", command=PY, args=["-c", code], cwd=str(tmp_path)
    )
    header = header_line(connection, era="legacy", client_info={}, client_capabilities={})
    frame = {
        "type": "frame",
        "t": 0.1,
        "wall": time.time(),
        "transport": "stdio",
        "dir": "out",
        "kind": "request",
        "text": '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    }
    path = tmp_path / "from-someone-else.jsonl"
    path.write_text(json.dumps(header) + "\n" + json.dumps(frame) + "\n")
    return path


def test_the_recorded_command_runs_only_after_confirmation(
    recording_window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    marker = tmp_path / "marker"
    recorded = read_session(crafted_session(tmp_path, marker))
    replay = current_tab(recording_window).session_files.open_replay(recorded)
    assert str(marker) in replay.recorded_label.text()
    replay.use_recorded.setChecked(True)

    async def declined() -> None:
        replay.start_button.click()
        box = replay.confirm_box
        assert isinstance(box, QMessageBox) and box.isVisible()
        assert PY in box.text() and str(marker) in box.text()
        assert f"in the folder: {tmp_path}" in box.text()
        cancel = box.button(QMessageBox.StandardButton.Cancel)
        assert cancel is not None and box.defaultButton() is cancel
        cancel.click()
        await asyncio.sleep(1.0)  # not a wait: long enough for a process to have started

    run(loop, declined())
    assert not marker.exists(), "the recorded command ran without confirmation"
    assert replay.task is None and "not run" in replay.status.text()

    async def accepted() -> None:
        replay.start_button.click()
        box = replay.confirm_box
        assert box is not None
        run_button = next(b for b in box.buttons() if b.text() == "Run it")
        run_button.click()
        await finish(replay)

    run(loop, accepted(), 60)
    assert marker.exists(), "confirmed: the command ran"
    assert "Could not connect" in replay.status.text()
    replay.close()


def test_a_result_that_breaks_its_tools_output_schema_is_shown(
    loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    """A recorded tools/call whose structuredContent breaks the tool's outputSchema: the
    row says so, the status line says it is no drift but a broken schema."""
    server = str(REPO / "tests" / "servers" / "misbehaving" / "output_schema_server.py")
    path = tmp_path / "weather.jsonl"
    subprocess.run(
        [PY, "-m", "inspector", "cli", "--record", str(path), "--method", "tools/call",
         "--tool-name", "weather", "--", PY, server],
        capture_output=True, timeout=60, cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )  # fmt: skip
    replay = ReplayWindow(read_session(path), [], None)
    replay.show()

    async def against_the_server() -> None:
        replay.use_typed.setChecked(True)
        replay.typed.setText(shlex.join([PY, server]))
        replay.start_button.click()
        await finish(replay)

    run(loop, against_the_server(), 60)
    labels = [replay.results.item(i).text() for i in range(replay.results.count())]
    assert "#3 tools/call weather — breaks its outputSchema" in labels, labels
    assert replay.status.text().endswith("no drift, but a result breaks its schema")
    replay.results.setCurrentRow(labels.index("#3 tools/call weather — breaks its outputSchema"))
    replay.close()
