"""File ▸ Export Slice… and the log's "Export Shown Rows as Session…": the rows a tab's
traffic log shows (its current filter) written as a new session file.

The rows come from the tab's recording: an opened file's own lines (the offline view makes
one row per traffic line, in order), or the live session's traffic log written as a
session first (what Save Session As writes when nothing was recorded). The slice keeps the
header, the `ready` line, each request with its answer and the lint findings on the rows
(inspector/recording/slicing/session_slice.py); it opens in the offline view like any
session file.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any, Final, Protocol

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QMessageBox, QStatusBar, QWidget

from inspector.core.recording import ConnectionRecording
from inspector.recording.reader import SessionFileError, read_session
from inspector.recording.slicing.session_slice import SliceResult, SliceSpec, write_slice
from inspector.traffic.log import TrafficEntry
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.recording.offline_view import OfflineView
from inspector.ui.traffic.log_panel import TrafficLogPanel

__all__ = ["SliceExport"]

_FILTER: Final = "MCP Inspector sessions (*.jsonl);;Compressed (*.jsonl.gz *.jsonl.zst)"
MENU_TEXT: Final = "Export Shown Rows as Session…"


class _Files(Protocol):
    """What the export needs of the tab's SessionFiles (which owns it)."""

    view: OfflineView | None
    recording: ConnectionRecording
    controller: ConnectionController
    status_bar: QStatusBar
    parent_widget: QWidget

    def show_error(self, title: str, text: str) -> QMessageBox: ...


class SliceExport(QObject):
    def __init__(self, files: _Files, parent: QObject) -> None:
        super().__init__(parent)
        self.files = files
        self.live_log: TrafficLogPanel | None = None
        self.task: asyncio.Task[Any] | None = None  # the last export (tests wait on it)

    def offer_in(self, panel: TrafficLogPanel) -> None:
        """Offer the export in `panel`'s row context menu."""
        panel.add_row_action(MENU_TEXT, _always, lambda _entry: self.choose_and_export())

    def shown_log(self) -> TrafficLogPanel | None:
        view = self.files.view
        return view.log_panel if view is not None else self.live_log

    def choose_and_export(self) -> None:
        panel = self.shown_log()
        files = self.files
        if panel is not None:
            panel.model.complete()  # a big log's filter may still be going through it
        if panel is None or panel.model.rowCount() == 0:
            files.show_error("Cannot export a slice", "The traffic log shows no rows to export.")
            return
        rows = [panel.model.source_index(r) for r in range(panel.model.rowCount())]
        suggested = Path.home() / f"{self._name()}-slice.jsonl"
        name, _ = QFileDialog.getSaveFileName(
            files.parent_widget, "Export slice", str(suggested), _FILTER
        )
        if not name:
            return
        self.task = files.controller.model.start(
            self._export(rows, Path(name)), f"export a slice to {Path(name).name}"
        )

    def _name(self) -> str:
        """What the file dialog suggests the slice is named after: the opened file, else
        the live session's profile."""
        view = self.files.view
        if view is not None:
            return view.path.name.split(".")[0] or "session"
        profile = self.files.recording.live_profile
        name = (
            "".join(c if c.isalnum() or c in "-_" else "-" for c in profile.name) if profile else ""
        )
        return name.strip("-") or "session"

    async def _export(self, rows: list[int], target: Path) -> SliceResult | None:
        files = self.files
        bar = files.status_bar
        bar.showMessage(f"Writing {len(rows):,} row(s) to {target}…")
        try:
            result = await asyncio.to_thread(self._write, rows, target)
        except (SessionFileError, OSError, ValueError) as exc:
            bar.clearMessage()
            text = f"{exc.strerror or exc}" if isinstance(exc, OSError) else str(exc)
            files.show_error("Cannot export a slice", f"{target}: {text}")
            return None
        bar.showMessage(f"Exported a slice to {target}: {result.summary()}", 15000)
        return result

    def _write(self, rows: list[int], target: Path) -> SliceResult:
        """In a worker thread: the rows' lines into `target`."""
        view = self.files.view
        if view is not None:
            recorded = view.offline.recorded
            if getattr(recorded, "lazy", False):  # opened through an index: read every line
                recorded = read_session(recorded.path)
            return write_slice(recorded, SliceSpec(rows=frozenset(rows)), target)
        recording = self.files.recording
        start = recording.live_start if recording.live_start <= len(recording.traffic) else 0
        with tempfile.TemporaryDirectory(prefix="mcp-inspector-slice-") as temp:
            whole = Path(temp) / "session.jsonl"
            recording.write_live(whole)
            recorded = read_session(whole)
            profile = recording.live_profile
            recorded.path = Path(f"{profile.name if profile else 'the'} live session")
            chosen = frozenset(r - start for r in rows if r >= start)
            return write_slice(recorded, SliceSpec(rows=chosen), target)


def _always(_entry: TrafficEntry) -> bool:
    return True
