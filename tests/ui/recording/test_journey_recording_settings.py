"""Journey (issue 27, files people keep): File ▸ Recording Settings…, pick "Compress
recordings: gzip" and a part size, OK; the next connection is recorded to a `.jsonl.gz`
file (the REC indicator's tooltip names it) that gzip reads, with every frame in it; the
choice is kept for the next start; a size that makes parts reaches the recorder; Save
Session As… a `.jsonl` writes it plain."""

from __future__ import annotations

import asyncio
import gzip
import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialogButtonBox, QPushButton

from inspector.recording.reader import read_session
from inspector.recording.retention import list_sessions
from inspector.recording.writer import Rotation
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.recording.recording_settings import (
    RecordingSettingsDialog,
    load_recording_settings,
)
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import python_profile, run, until
from tests.helpers.journeys import click, menu_action, type_into, type_keys, visible_window
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(90)


def test_choose_gzip_then_the_next_recording_is_compressed(
    recording_window: MainWindow, loop: asyncio.AbstractEventLoop, data_dir: Path, tmp_path: Path
) -> None:
    win = recording_window

    async def scenario() -> Path:
        menu_action(win, "File", "Recording Settings").trigger()
        await until(lambda: visible_window(RecordingSettingsDialog) is not None, "the dialog")
        dialog = visible_window(RecordingSettingsDialog)
        assert isinstance(dialog, RecordingSettingsDialog)
        assert dialog.compression.currentText() == "none"
        dialog.compression.setFocus()
        type_keys(dialog.compression, "g")  # keyboard search in the list: "gzip (.jsonl.gz)"
        assert dialog.compression.currentText() == "gzip (.jsonl.gz)"
        type_into(dialog.rotate_mb.lineEdit(), "64")
        buttons = dialog.findChild(QDialogButtonBox)
        assert isinstance(buttons, QDialogButtonBox)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert isinstance(ok, QPushButton)
        click(ok)
        await until(lambda: not dialog.isVisible(), "the dialog to close")

        win.connect_profile(python_profile("Demo server", "-m", "inspector.demo"))
        files = current_tab(win).session_files
        c = current_tab(win).controller.model
        await until(lambda: c.state is ConnState.CONNECTED and c.tools is not None, "the demo")
        await until(lambda: files.rec_label.text() == "● REC", "the REC indicator")
        tooltip = files.rec_label.toolTip()
        assert ".jsonl.gz" in tooltip, tooltip
        recorder = files.recorder.recorder
        assert recorder is not None and recorder.rotation == Rotation(size=64 << 20)
        await c.shutdown()
        await until(lambda: not files.recorder.recording, "the recording to end")
        path = files.recorder.last_path
        assert path is not None
        return path

    path = run(loop, scenario())
    assert path.name.endswith(".jsonl.gz") and path.parent == data_dir / "sessions"
    lines = [json.loads(x) for x in gzip.decompress(path.read_bytes()).splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["connection"]["name"] == "Demo server"
    sent = [json.loads(x["text"]) for x in lines if x["type"] == "frame" and x["dir"] == "out"]
    assert [m.get("method") for m in sent][:2] == ["initialize", "notifications/initialized"]
    assert any(x["type"] == "note" and x.get("note") == "transport closed" for x in lines)
    # The sessions folder counts it (and its cleanup may delete it when it is old).
    assert [f.path for f in list_sessions(data_dir / "sessions")] == [path]
    kept = load_recording_settings(win.settings)
    assert (kept.compression, kept.rotate_mb, kept.rotate_hours) == ("gzip", 64, 0)
    # File ▸ Save Session As… a .jsonl: the plain session (a .jsonl.gz: the same bytes).
    files = current_tab(win).session_files
    saved = tmp_path / "saved.jsonl"
    assert "Saved" in files.save_session_as(saved)
    assert read_session(saved).ready is not None
    assert saved.read_bytes() == gzip.decompress(path.read_bytes())
    files.save_session_as(tmp_path / "saved.jsonl.gz")
    assert (tmp_path / "saved.jsonl.gz").read_bytes() == path.read_bytes()
