"""Session files in the main window: always-on recording, File ▸ Open Session (the
read-only offline view), Save Session As, Export HAR, Export to OpenTelemetry (the shown
recording, or the live tab's traffic so far), Replay, and the recording settings.

The connection model records its sessions (`ConnectionRecording`); this object shows that
(a REC indicator in the status bar it is given), offers the file actions (the window puts
`menu_groups` in its File menu), and keeps the live view and an opened recording in one
stack (`stack`, the window's central widget). While a recording is shown nothing may
connect: `offline_changed` tells the window, which disables what connects.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from PySide6.QtCore import QObject, QSettings, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMessageBox, QStackedWidget, QStatusBar, QWidget

from inspector.core.inspector_model import InspectorModel
from inspector.core.recording import ConnectionRecording
from inspector.recording.har import export_har
from inspector.recording.index.indexed_loader import FIRST_BYTES, IndexedLoader
from inspector.recording.live import AutoRecorder
from inspector.recording.offline import OfflineSession
from inspector.recording.reader import RecordedSession, SessionFileError, read_session
from inspector.recording.retention import RecordingSettings, cleanup
from inspector.recording.snapshot import copy_recording
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.recording.offline_view import OfflineView
from inspector.ui.recording.otlp_dialog import OtlpExportDialog
from inspector.ui.recording.recording_settings import (
    RecordingSettingsDialog,
    open_folder,
    save_recording_settings,
)
from inspector.ui.recording.replay_window import ReplayWindow
from inspector.ui.recording.slice_export import SliceExport
from inspector.ui.widgets.actions import Shortcut, make_action
from inspector.ui.widgets.message_box import open_warning
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.theme import colors

__all__ = ["SessionFiles"]

_FILTER: Final = (
    "MCP Inspector sessions (*.jsonl *.jsonl.gz *.jsonl.zst *.jsonl.zstd);;All files (*)"
)


def _start_index(path: Path) -> IndexedLoader:
    """Map the file and index its first slice (in a worker thread: a file on a slow disk
    takes a while to map); the view indexes the rest a slice at a time."""
    indexer = IndexedLoader.open(path)
    indexer.step(FIRST_BYTES)
    return indexer


def _whole(recorded: RecordedSession) -> RecordedSession:
    """A session with all its events (an indexed one is read again, for replay and HAR)."""
    return read_session(recorded.path) if recorded.lazy else recorded


class SessionFiles(QObject):
    offline_changed = Signal(bool)  # a recording is shown instead of the live view, or not

    def __init__(
        self,
        app: InspectorModel,
        controller: ConnectionController,
        recording: ConnectionRecording,
        live: QWidget,
        status_bar: QStatusBar,
        settings: QSettings,
        parent: QWidget,
    ) -> None:
        """`recording`: the connection's. `live`: the live view (shown when no recording
        is). `settings`: where the recording settings are kept. `parent`: the window the
        dialogs and actions belong to."""
        super().__init__(parent)
        self.app = app
        self.controller = controller
        self.recording = recording
        self.status_bar = status_bar
        self.settings = settings
        self.parent_widget = parent
        self.view: OfflineView | None = None
        self.replays: list[ReplayWindow] = []
        self.message_box: QMessageBox | None = None  # the last error shown (tests read it)
        self.live = live
        # Where an opened recording is shown: here, or (the window decides) another tab.
        self.target: Callable[[], SessionFiles] = lambda: self
        self.stack = QStackedWidget()
        self.stack.setObjectName("liveOrRecorded")
        self.stack.addWidget(live)
        self.slices = SliceExport(self, self)  # File ▸ Export Slice…; the tab sets its live log
        self.menu_groups = self._build_actions()
        self.rec_label = PlainLabel()
        self.rec_label.setObjectName("recordingIndicator")
        status_bar.addPermanentWidget(self.rec_label)
        controller.session_started.connect(lambda _session: self._update_indicator())
        # After the connection's recording heard of the new state (it closes the file).
        controller.state_changed.connect(
            lambda _s, _d: QTimer.singleShot(0, self._update_indicator)
        )
        self._update_indicator()

    @property
    def recorder(self) -> AutoRecorder:
        return self.recording.recorder

    # ---------------------------------------------------------------- building
    def _action(
        self,
        text: str,
        slot: Any,
        shortcut: Shortcut | None = None,
    ) -> QAction:
        return make_action(text, slot, self.parent_widget, shortcut)

    def _build_actions(self) -> list[list[QAction]]:
        """The File menu's groups (the window adds them, with their shortcuts)."""
        self.open_action = self._action(
            "&Open Session…", self.choose_and_open, QKeySequence.StandardKey.Open
        )
        self.save_action = self._action("&Save Session As…", self.choose_and_save, "Ctrl+Shift+S")
        self.har_action = self._action("Export &HAR…", self.choose_and_export_har)
        self.slice_action = self._action("E&xport Slice…", self.slices.choose_and_export)
        self.slice_action.setToolTip(
            "Write the rows the traffic log shows (its filter) as a new session file"
        )
        self.otlp_action = self._action("Export to OpenTelemetr&y…", self.choose_and_export_otlp)
        self.otlp_action.setToolTip(
            "Send this tab's traffic (or the recording shown) to an OTLP endpoint as traces, "
            "or write an OTLP JSON file"
        )
        self.replay_action = self._action("Re&play Session…", self.choose_and_replay)
        self.close_action = self._action("C&lose Session", self.close_offline)
        self.close_action.setEnabled(False)
        self.recording_action = self._action("&Record Sessions", self._toggle_recording)
        self.recording_action.setCheckable(True)
        self.recording_action.setChecked(self.recorder.settings.enabled)
        self.recording_action.setToolTip("Record every connection to the sessions folder")
        settings = self._action("Recording &Settings…", self.open_settings)
        folder = self._action(
            "Open Sessions &Folder", lambda: open_folder(self.app.sessions_folder())
        )
        return [
            [self.open_action, self.close_action],
            [
                self.save_action,
                self.har_action,
                self.slice_action,
                self.otlp_action,
                self.replay_action,
            ],
            [self.recording_action, settings, folder],
        ]

    # ---------------------------------------------------------------- recording
    def record_action(self, text: str, **data: Any) -> None:
        """A user action worth knowing, into the current recording (dialogs may call it)."""
        self.recorder.action(text, **data)

    def _update_indicator(self) -> None:
        label = self.rec_label
        if self.recorder.recording and self.recorder.recorder is not None:
            label.setText("● REC")
            label.setStyleSheet(f"color: {colors().error.name()}; font-weight: bold")
            label.setToolTip(
                plain_tooltip(f"Recording this session to {self.recorder.recorder.path}")
            )
        elif not self.recorder.settings.enabled:
            label.setText("REC off")
            label.setStyleSheet(f"color: {colors().muted.name()}")
            label.setToolTip("Sessions are not recorded (File ▸ Record Sessions)")
        else:
            label.setText("")
            label.setToolTip("")

    def _toggle_recording(self) -> None:
        self.apply_settings(
            dataclasses.replace(self.recorder.settings, enabled=self.recording_action.isChecked())
        )

    def apply_settings(self, value: RecordingSettings) -> None:
        was = self.recorder.settings.enabled
        self.app.set_recording(value)
        save_recording_settings(self.settings, value)
        self.recording_action.setChecked(value.enabled)
        bar = self.status_bar
        if was and not value.enabled and self.recorder.recording:
            self.recorder.finish()
            bar.showMessage("Recording stopped; new connections are not recorded.", 8000)
        elif value.enabled and not was:
            bar.showMessage("New connections will be recorded to the sessions folder.", 8000)
        self._update_indicator()

    def open_settings(self) -> RecordingSettingsDialog:
        folder = self.app.sessions_folder()

        def clean(value: RecordingSettings) -> list[Path]:
            recorder = self.recorder.recorder
            keep = [recorder.current_path] if recorder is not None else []
            return cleanup(folder, value, keep=keep)

        dialog = RecordingSettingsDialog(self.recorder.settings, folder, clean, self.parent_widget)
        dialog.accepted.connect(lambda: self.apply_settings(dialog.value()))
        dialog.open()
        return dialog

    # ---------------------------------------------------------------- open (offline)
    def choose_and_open(self) -> None:
        name, _ = QFileDialog.getOpenFileName(
            self.parent_widget, "Open session", str(self._start_dir()), _FILTER
        )
        if name:
            self.open_session(Path(name))

    def open_session(self, path: Path) -> asyncio.Task[Any]:
        """Open `path` read-only (in this tab or another, as `target` says). The task's
        result: the view shown, or None when the file could not be read (a message box says
        why; `message_box` keeps it)."""
        return self.controller.model.start(self._open(path), f"open session {path.name}")

    def open_sessions(self, paths: list[Path]) -> asyncio.Task[Any]:
        """Open each file as `open_session` does, one after the other (a tab each, in the
        order given: the command line's files, a drop's). The task's result: a list with,
        per file, its view or None, plus the message of each file that failed."""

        async def each() -> list[tuple[Path, OfflineView | None, str]]:
            opened: list[tuple[Path, OfflineView | None, str]] = []
            for path in paths:
                self.message_box = None
                view = await self._open(path)
                box = self.message_box
                opened.append((path, view, box.text() if view is None and box else ""))
            return opened

        return self.controller.model.start(each(), f"open {len(paths)} session file(s)")

    async def _open(self, path: Path) -> OfflineView | None:
        bar = self.status_bar
        bar.showMessage(f"Reading {path}…")
        try:
            indexer = await asyncio.to_thread(_start_index, path)
        except SessionFileError as exc:
            bar.clearMessage()
            self.show_error("Cannot open the session", str(exc))
            return None
        except (OSError, MemoryError, ValueError) as exc:
            bar.clearMessage()
            self.show_error("Cannot open the session", f"{path} could not be read: {exc}")
            return None
        bar.clearMessage()
        target = self.target()
        offline = indexer.offline
        view = target.show_offline(offline)
        bar = target.status_bar

        def say_opened() -> None:
            problems = offline.recorded.problems
            if problems:
                bar.showMessage(f"Opened {path.name} with a problem: {problems[0]}", 20000)
            else:
                bar.showMessage(f"Opened {path.name} (read-only)", 8000)

        if indexer.finished:
            say_opened()
        else:
            bar.showMessage(f"Opening {path.name}: indexing…")
            view.indexed.connect(say_opened)
        view.follow_index(indexer)
        return view

    def show_offline(self, offline: OfflineSession) -> OfflineView:
        if self.view is not None:
            self._drop_view()
        view = OfflineView(offline)
        self.slices.offer_in(view.log_panel)
        self.status_bar.addPermanentWidget(view.log_panel.count_label)
        view.log_panel.count_label.show()
        view.close_requested.connect(self.close_offline)
        view.replay_requested.connect(lambda: self._replay_shown(offline.recorded))
        self.view = view
        self.stack.addWidget(view)
        self.stack.setCurrentWidget(view)
        self.close_action.setEnabled(True)
        self.offline_changed.emit(True)
        return view

    def offline_title(self) -> str | None:
        """The window title while a recording is shown (None when the live view is)."""
        view = self.view
        if view is None:
            return None
        return f"{view.path.name} (read-only recording)"  # Qt adds " — MCP Inspector"

    def _drop_view(self) -> None:
        view, self.view = self.view, None
        if view is not None:
            view.stop_indexing()
            self.status_bar.removeWidget(view.log_panel.count_label)
            self.stack.removeWidget(view)
            view.deleteLater()

    def close_offline(self) -> None:
        if self.view is None:
            return
        self._drop_view()
        self.stack.setCurrentWidget(self.live)
        self.close_action.setEnabled(False)
        self.offline_changed.emit(False)

    # ---------------------------------------------------------------- save, export
    def _start_dir(self) -> Path:
        folder = self.app.sessions_folder()
        return folder if folder.is_dir() else Path.home()

    def current_file(self) -> Path | None:
        """The file the window shows: the opened recording, else the latest recording."""
        if self.view is not None:
            return self.view.path
        path = self.recorder.last_path
        return path if path is not None and path.exists() else None

    def choose_and_save(self) -> None:
        current = self.current_file()
        suggested = (
            str(Path.home() / current.name)
            if current is not None
            else str(Path.home() / "session.jsonl")
        )
        name, _ = QFileDialog.getSaveFileName(
            self.parent_widget, "Save session as", suggested, _FILTER
        )
        if not name:
            return
        try:
            message = self.save_session_as(Path(name))
        except (OSError, ValueError) as exc:
            self.show_error("Cannot save the session", str(exc))
            return
        self.status_bar.showMessage(message, 10000)

    def save_session_as(self, target: Path) -> str:
        """Copy the shown or latest recording, or write the traffic log of the latest live
        session when nothing was recorded. Returns a sentence; raises OSError/ValueError."""
        current = self.current_file()
        if current is not None:
            size = copy_recording(current, target)
            return f"Saved {current.name} to {target} ({size:,} bytes)"
        return f"Saved the traffic log to {target} ({self._write_live(target):,} lines)"

    def _write_live(self, target: Path) -> int:
        return self.recording.write_live(target)

    def current_recording(self) -> RecordedSession:
        """The session to export or replay: the shown or latest recording, else the traffic
        log written to a temporary file. Raises SessionFileError, OSError or ValueError."""
        if self.view is not None:
            return _whole(self.view.offline.recorded)
        current = self.current_file()
        if current is not None:
            return read_session(current)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "session.jsonl"
            self._write_live(path)
            return read_session(path)

    def choose_and_export_har(self) -> None:
        try:
            recorded = self.current_recording()
        except (SessionFileError, OSError, ValueError) as exc:
            self.show_error("Cannot export HAR", str(exc))
            return
        suggested = str(Path.home() / (recorded.path.stem + ".har"))
        name, _ = QFileDialog.getSaveFileName(
            self.parent_widget, "Export HAR", suggested, "HAR (*.har);;All files (*)"
        )
        if not name:
            return
        try:
            message = self.export_har(recorded, Path(name))
        except OSError as exc:
            self.show_error("Cannot export HAR", str(exc))
            return
        self.status_bar.showMessage(message, 10000)

    def export_har(self, recorded: RecordedSession, target: Path) -> str:
        har = export_har(recorded)
        target.write_text(json.dumps(har, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        entries = len(har["log"]["entries"])
        if not entries:
            transport = recorded.connection.get("transport", "?")
            return f"Wrote {target}: no HTTP exchanges in this {transport} session (empty HAR)"
        return f"Wrote {entries} HTTP exchange(s) to {target}"

    # ---------------------------------------------------------------- OpenTelemetry
    def otlp_session(self) -> tuple[RecordedSession, str]:
        """What Export to OpenTelemetry exports, and a sentence saying so: the recording
        shown, else the live tab's latest session so far, from its traffic log (the same
        mapping as export-otlp, through `otlp.live`). Raises ValueError when there is none."""
        if self.view is not None:
            recorded = self.view.offline.recorded
            return recorded, f"The recorded session {recorded.path.name}."
        recorded = self.recording.live_session()
        count = sum(1 for e in recorded.events if e.kind == "request")
        return recorded, (
            f"This tab's traffic so far (its latest session: {count:,} request(s)) as "
            "OpenTelemetry traces: a span per request; the rounds of one call under one span."
        )

    def choose_and_export_otlp(self) -> OtlpExportDialog | None:
        try:
            recorded, what = self.otlp_session()
        except ValueError as exc:
            self.show_error("Cannot export to OpenTelemetry", str(exc))
            return None
        dialog = OtlpExportDialog(what, self.settings, self.parent_widget)
        dialog.chosen.connect(lambda url, path: self.export_otlp(recorded, url, path))
        dialog.open()
        return dialog

    def export_otlp(
        self, recorded: RecordedSession, url: str | None, path: Path | None
    ) -> asyncio.Task[Any]:
        """Export in a worker thread (an endpoint may be slow); the status bar says what was
        done, a message box why it could not be. The task's result: that sentence, or None."""
        return self.controller.model.start(
            self._export_otlp(recorded, url, path), "export to OpenTelemetry"
        )

    async def _export_otlp(
        self, recorded: RecordedSession, url: str | None, path: Path | None
    ) -> str | None:
        try:
            from inspector.recording.otlp import sdk as otlp_sdk
        except ImportError:
            self.show_error(
                "Cannot export to OpenTelemetry",
                "This needs the OpenTelemetry SDK, the optional 'otel' extra: "
                "pip install 'mcp-inspector-qt[otel]'.",
            )
            return None
        target = url or str(path)
        self.status_bar.showMessage(f"Exporting to {target}…")
        try:
            message = await asyncio.to_thread(otlp_sdk.export_session, recorded, url=url, path=path)
        except otlp_sdk.ExportFailed as exc:
            self.status_bar.clearMessage()
            self.show_error(
                "Cannot export to OpenTelemetry",
                f"The OTLP endpoint {target.rstrip('/')}/v1/traces did not take the spans: {exc}",
            )
            return None
        except OSError as exc:
            self.status_bar.clearMessage()
            self.show_error("Cannot export to OpenTelemetry", f"Cannot write {target}: {exc}")
            return None
        self.status_bar.showMessage(message, 15000)
        return message

    # ---------------------------------------------------------------- replay
    def choose_and_replay(self) -> None:
        if self.view is not None:
            self._replay_shown(self.view.offline.recorded)
            return
        name, _ = QFileDialog.getOpenFileName(
            self.parent_widget, "Replay session", str(self._start_dir()), _FILTER
        )
        if not name:
            return
        try:
            recorded = read_session(Path(name))
        except SessionFileError as exc:
            self.show_error("Cannot replay the session", str(exc))
            return
        self.open_replay(recorded)

    def _replay_shown(self, recorded: RecordedSession) -> None:
        try:
            whole = _whole(recorded)
        except SessionFileError as exc:
            self.show_error("Cannot replay the session", str(exc))
            return
        self.open_replay(whole)

    def open_replay(self, recorded: RecordedSession) -> ReplayWindow:
        replay = ReplayWindow(
            recorded, self.app.profiles.all(), self.app.secrets, self.parent_widget
        )
        replay.destroyed.connect(lambda _o=None: self._forget(replay))
        self.replays.append(replay)
        replay.show()
        return replay

    def _forget(self, replay: ReplayWindow) -> None:
        if replay in self.replays:
            self.replays.remove(replay)

    def close_replays(self) -> None:
        """The window closes: so do the replays (each stops its replay and its server)."""
        for replay in list(self.replays):
            replay.close()

    # ---------------------------------------------------------------- messages
    def show_error(self, title: str, text: str) -> QMessageBox:
        self.message_box = open_warning(self.parent_widget, "sessionFileError", title, text)
        return self.message_box
