"""Session files in the main window (issue 6): always-on recording, File ▸ Open Session
(the read-only offline view), Save Session As, Export HAR, Replay, and the recording
settings.

Installed by the main window with one line (`SessionFiles(window)`): it adds its actions
to the File menu, a REC indicator to the status bar, a hook that records every new
session, and puts the window's central widget in a stack so that an opened recording
can be shown in place of the live view, and closed again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMenu,
    QMessageBox,
    QStackedWidget,
    QToolBar,
)

from inspector.protocol.asks import ServerAsk
from inspector.protocol.events import SessionReady
from inspector.recording.har import export_har
from inspector.recording.live import AskActionResponder, AutoRecorder
from inspector.recording.offline import OfflineSession, load_offline
from inspector.recording.reader import RecordedSession, SessionFileError, read_session
from inspector.recording.redaction import spec_for_profile
from inspector.recording.retention import RecordingSettings, cleanup
from inspector.recording.snapshot import copy_recording, write_traffic_log
from inspector.session import Session
from inspector.settings.connect import client_config_for
from inspector.settings.profiles import Profile
from inspector.storage.paths import sessions_dir
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.recording.offline_view import OfflineView
from inspector.ui.recording.recording_settings import (
    RecordingSettingsDialog,
    load_recording_settings,
    open_folder,
    save_recording_settings,
)
from inspector.ui.recording.replay_window import ReplayWindow
from inspector.ui.widgets.theme import colors

if TYPE_CHECKING:
    from inspector.ui.window.main_window import MainWindow

__all__ = ["SessionFiles"]

log = logging.getLogger(__name__)

_FILTER: Final = "MCP Inspector sessions (*.jsonl);;All files (*)"
_CONNECTION_ACTIONS: Final = (
    "connect_action",
    "disconnect_action",
    "reconnect_action",
    "send_raw_action",
)


def _load(path: Path) -> OfflineSession:
    """Read and adapt a file (runs in a worker thread: a big file takes a while)."""
    return load_offline(read_session(path))


class SessionFiles(QObject):
    offline_changed = Signal(bool)

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.recorder = AutoRecorder(
            sessions_dir, load_recording_settings(window.settings), window.store.secrets
        )
        self.view: OfflineView | None = None
        self.replays: list[ReplayWindow] = []
        self.message_box: QMessageBox | None = None  # the last error shown (tests read it)
        self._live_start = 0  # the traffic row where the latest live session began
        self._live_profile: Profile | None = None
        self._live_ready: SessionReady | None = None
        self._saved_title = ""
        self._disabled: list[QAction] = []
        self._wrap_central()
        self._build_actions()
        self.rec_label = QLabel()
        self.rec_label.setObjectName("recordingIndicator")
        self.rec_label.setTextFormat(Qt.TextFormat.PlainText)
        window.statusBar().addPermanentWidget(self.rec_label)
        c = window.controller
        c.session_hooks.append(self._session_created)
        c.server_ready.connect(self._ready)
        c.state_changed.connect(lambda _s, _d: QTimer.singleShot(0, self._after_state))
        window.store.on_changed(lambda: QTimer.singleShot(0, self._enforce_offline))
        window.installEventFilter(self)
        self._update_indicator()

    # ---------------------------------------------------------------- building
    def _wrap_central(self) -> None:
        live = self.window.takeCentralWidget()
        self.stack = QStackedWidget()
        self.stack.setObjectName("liveOrRecorded")
        if live is not None:
            self.stack.addWidget(live)
        self.window.setCentralWidget(self.stack)
        self.live = live

    def _file_menu(self) -> QMenu:
        for action in self.window.menuBar().actions():
            menu = action.menu()
            if isinstance(menu, QMenu) and action.text().replace("&", "") == "File":
                return menu
        return self.window.menuBar().addMenu("&File")

    def _build_actions(self) -> None:
        w = self.window
        self.open_action = w._action(
            "&Open Session…", self.choose_and_open, QKeySequence.StandardKey.Open
        )
        self.save_action = w._action("&Save Session As…", self.choose_and_save, "Ctrl+Shift+S")
        self.har_action = w._action("Export &HAR…", self.choose_and_export_har)
        self.replay_action = w._action("Re&play Session…", self.choose_and_replay)
        self.close_action = w._action("C&lose Session", self.close_offline, "Ctrl+W")
        self.close_action.setEnabled(False)
        self.recording_action = w._action("&Record Sessions", self._toggle_recording)
        self.recording_action.setCheckable(True)
        self.recording_action.setChecked(self.recorder.settings.enabled)
        self.recording_action.setToolTip("Record every connection to the sessions folder")
        settings = w._action("Recording &Settings…", self.open_settings)
        folder = w._action("Open Sessions &Folder", lambda: open_folder(sessions_dir()))
        menu = self._file_menu()
        quit_action = next((a for a in menu.actions() if a.text().replace("&", "") == "Quit"), None)
        before = quit_action
        if quit_action is not None:
            actions = menu.actions()
            i = actions.index(quit_action)
            if i > 0 and actions[i - 1].isSeparator():
                before = actions[i - 1]
        groups: list[list[QAction]] = [
            [self.open_action, self.close_action],
            [self.save_action, self.har_action, self.replay_action],
            [self.recording_action, settings, folder],
        ]
        for group in groups:
            if before is None:
                menu.addActions(group)
                menu.addSeparator()
            else:
                menu.insertSeparator(before)
                menu.insertActions(before, group)

    # ---------------------------------------------------------------- recording
    def _session_created(self, session: Session) -> None:
        profile = self.window.controller.profile
        self._live_start = len(self.window.traffic)
        self._live_ready = None
        self._live_profile = profile
        if profile is None:
            return
        responder = session.responder
        recorder = self.recorder.attach(session, profile)
        if recorder is not None:
            # attach() wrapped the responder; say how the GUI answers (dialog or canned).
            wrapper = session.responder
            if isinstance(wrapper, AskActionResponder):
                wrapper.how_for = lambda ask: self._how(responder, ask)
        elif self.recorder.error:
            self.window.errors.add("recording", self.recorder.error)
        self._update_indicator()

    @staticmethod
    def _how(responder: object, ask: ServerAsk) -> str:
        if ask.kind == "roots":
            return "with the profile's roots"
        canned = getattr(responder, "canned", None)
        profile_id = getattr(responder, "profile_id", None)
        if ask.kind == "sampling" and canned is not None and profile_id is not None:
            try:
                if canned.active(profile_id) is not None:
                    return "automatically (canned reply)"
            except Exception:  # a store problem must not break answering
                log.exception("canned replies lookup failed")
        return "by hand"

    def record_action(self, text: str, **data: Any) -> None:
        """A user action worth knowing, into the current recording (dialogs may call it)."""
        self.recorder.action(text, **data)

    def _ready(self, ready: SessionReady) -> None:
        self._live_ready = ready

    def _after_state(self) -> None:
        c = self.window.controller
        if c.state is ConnState.FAILED:
            self.recorder.fail(c.detail)  # the file says why (a start failure has no close)
        elif c.state is ConnState.DISCONNECTED and c.session is None:
            self.recorder.finish()
        self._update_indicator()
        self._enforce_offline()

    def _update_indicator(self) -> None:
        label = self.rec_label
        if self.recorder.recording and self.recorder.recorder is not None:
            label.setText("● REC")
            label.setStyleSheet(f"color: {colors().error.name()}; font-weight: bold")
            label.setToolTip(f"Recording this session to {self.recorder.recorder.path}")
        elif not self.recorder.settings.enabled:
            label.setText("REC off")
            label.setStyleSheet(f"color: {colors().muted.name()}")
            label.setToolTip("Sessions are not recorded (File ▸ Record Sessions)")
        else:
            label.setText("")
            label.setToolTip("")

    def _toggle_recording(self) -> None:
        self.apply_settings(
            RecordingSettings(
                enabled=self.recording_action.isChecked(),
                max_total_mb=self.recorder.settings.max_total_mb,
                max_age_days=self.recorder.settings.max_age_days,
            )
        )

    def apply_settings(self, value: RecordingSettings) -> None:
        was = self.recorder.settings.enabled
        self.recorder.settings = value
        save_recording_settings(self.window.settings, value)
        self.recording_action.setChecked(value.enabled)
        bar = self.window.statusBar()
        if was and not value.enabled and self.recorder.recording:
            self.recorder.finish()
            bar.showMessage("Recording stopped; new connections are not recorded.", 8000)
        elif value.enabled and not was:
            bar.showMessage("New connections will be recorded to the sessions folder.", 8000)
        self._update_indicator()

    def open_settings(self) -> RecordingSettingsDialog:
        def clean(value: RecordingSettings) -> list[Path]:
            keep = [self.recorder.recorder.path] if self.recorder.recorder is not None else []
            return cleanup(sessions_dir(), value, keep=keep)

        dialog = RecordingSettingsDialog(self.recorder.settings, sessions_dir(), clean, self.window)
        dialog.accepted.connect(lambda: self.apply_settings(dialog.value()))
        dialog.open()
        return dialog

    # ---------------------------------------------------------------- open (offline)
    def choose_and_open(self) -> None:
        name, _ = QFileDialog.getOpenFileName(
            self.window, "Open session", str(self._start_dir()), _FILTER
        )
        if name:
            self.open_session(Path(name))

    def open_session(self, path: Path) -> asyncio.Task[Any]:
        return self.window.controller.start(self._open(path), f"open session {path.name}")

    async def _open(self, path: Path) -> None:
        bar = self.window.statusBar()
        bar.showMessage(f"Reading {path}…")
        try:
            offline = await asyncio.to_thread(_load, path)
        except SessionFileError as exc:
            bar.clearMessage()
            self.show_error("Cannot open the session", str(exc))
            return
        except (OSError, MemoryError, ValueError) as exc:
            bar.clearMessage()
            self.show_error("Cannot open the session", f"{path} could not be read: {exc}")
            return
        self.show_offline(offline)
        problems = offline.recorded.problems
        if problems:
            bar.showMessage(f"Opened {path.name} with a problem: {problems[0]}", 20000)
        else:
            bar.showMessage(f"Opened {path.name} (read-only)", 8000)

    def show_offline(self, offline: OfflineSession) -> OfflineView:
        if self.view is not None:
            self._drop_view()
        else:
            self._saved_title = self.window.windowTitle()
        view = OfflineView(offline)
        self._live_status(False)
        self.window.statusBar().addPermanentWidget(view.log_panel.count_label)
        view.log_panel.count_label.show()
        view.close_requested.connect(self.close_offline)
        view.replay_requested.connect(lambda: self.open_replay(offline.recorded))
        self.view = view
        self.stack.addWidget(view)
        self.stack.setCurrentWidget(view)
        self.close_action.setEnabled(True)
        self._enforce_offline()
        self.offline_changed.emit(True)
        return view

    def _enforce_offline(self) -> None:
        """While a recording is shown, nothing may connect (and the title says so)."""
        view = self.view
        if view is None:
            return
        self.window.setWindowTitle(f"MCP Inspector — {view.path.name} (read-only recording)")
        toolbar = self.window.findChild(QToolBar, "connectionToolbar")
        if toolbar is not None:
            toolbar.setEnabled(False)
        recent = getattr(self.window, "recent_menu", None)
        if isinstance(recent, QMenu):
            recent.setEnabled(False)
        for name in _CONNECTION_ACTIONS:
            action = getattr(self.window, name, None)
            if isinstance(action, QAction) and action.isEnabled():
                action.setEnabled(False)
                if action not in self._disabled:
                    self._disabled.append(action)

    def _drop_view(self) -> None:
        view, self.view = self.view, None
        if view is not None:
            self.window.statusBar().removeWidget(view.log_panel.count_label)
            self.stack.removeWidget(view)
            view.deleteLater()

    def _live_status(self, visible: bool) -> None:
        """The live log's counters in the status bar (hidden while a recording shows)."""
        w = self.window
        for label in (getattr(w, "errors_label", None), w.log_panel.count_label):
            if isinstance(label, QLabel):
                label.setVisible(visible)

    def close_offline(self) -> None:
        if self.view is None:
            return
        self._drop_view()
        self._live_status(True)
        if self.live is not None:
            self.stack.setCurrentWidget(self.live)
        self.close_action.setEnabled(False)
        w = self.window
        toolbar = w.findChild(QToolBar, "connectionToolbar")
        if toolbar is not None:
            toolbar.setEnabled(True)
        self._disabled.clear()
        c = w.controller
        for name, enabled in (
            ("connect_action", True),
            ("disconnect_action", c.state in (ConnState.CONNECTED, ConnState.CONNECTING)),
            ("send_raw_action", c.state is ConnState.CONNECTED),
            ("reconnect_action", True),
        ):
            action = getattr(w, name, None)
            if isinstance(action, QAction):
                action.setEnabled(enabled)
        w.refresh_profiles()
        w.setWindowTitle(self._live_title())
        self.offline_changed.emit(False)

    def _live_title(self) -> str:
        c = self.window.controller
        session = c.session
        if session is not None and session.ready_info is not None:
            info = session.ready_info.server_info
            return f"MCP Inspector — {info.get('name', '?')}"
        return "MCP Inspector"

    # ---------------------------------------------------------------- save, export
    def _start_dir(self) -> Path:
        folder = sessions_dir()
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
        name, _ = QFileDialog.getSaveFileName(self.window, "Save session as", suggested, _FILTER)
        if not name:
            return
        try:
            message = self.save_session_as(Path(name))
        except (OSError, ValueError) as exc:
            self.show_error("Cannot save the session", str(exc))
            return
        self.window.statusBar().showMessage(message, 10000)

    def save_session_as(self, target: Path) -> str:
        """Copy the shown or latest recording, or write the traffic log of the latest live
        session when nothing was recorded. Returns a sentence; raises OSError/ValueError."""
        current = self.current_file()
        if current is not None:
            size = copy_recording(current, target)
            return f"Saved {current.name} to {target} ({size:,} bytes)"
        return f"Saved the traffic log to {target} ({self._write_live(target):,} lines)"

    def _write_live(self, target: Path) -> int:
        profile = self._live_profile
        traffic = self.window.traffic
        start = self._live_start if self._live_start <= len(traffic) else 0
        if profile is None or start >= len(traffic):
            raise ValueError("There is no session to save yet: connect to a server first.")
        return write_traffic_log(
            target,
            traffic,
            spec_for_profile(profile, self.window.store.secrets),
            client_config_for(profile),
            transport=profile.transport,
            ready=self._live_ready,
            start=start,
        )

    def current_recording(self) -> RecordedSession:
        """The session to export or replay: the shown or latest recording, else the traffic
        log written to a temporary file. Raises SessionFileError, OSError or ValueError."""
        if self.view is not None:
            return self.view.offline.recorded
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
            self.window, "Export HAR", suggested, "HAR (*.har);;All files (*)"
        )
        if not name:
            return
        try:
            message = self.export_har(recorded, Path(name))
        except OSError as exc:
            self.show_error("Cannot export HAR", str(exc))
            return
        self.window.statusBar().showMessage(message, 10000)

    def export_har(self, recorded: RecordedSession, target: Path) -> str:
        har = export_har(recorded)
        target.write_text(json.dumps(har, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        entries = len(har["log"]["entries"])
        if not entries:
            transport = recorded.connection.get("transport", "?")
            return f"Wrote {target}: no HTTP exchanges in this {transport} session (empty HAR)"
        return f"Wrote {entries} HTTP exchange(s) to {target}"

    # ---------------------------------------------------------------- replay
    def choose_and_replay(self) -> None:
        if self.view is not None:
            self.open_replay(self.view.offline.recorded)
            return
        name, _ = QFileDialog.getOpenFileName(
            self.window, "Replay session", str(self._start_dir()), _FILTER
        )
        if not name:
            return
        try:
            recorded = read_session(Path(name))
        except SessionFileError as exc:
            self.show_error("Cannot replay the session", str(exc))
            return
        self.open_replay(recorded)

    def open_replay(self, recorded: RecordedSession) -> ReplayWindow:
        w = self.window
        replay = ReplayWindow(recorded, w.all_profiles(), w.store.secrets, w)
        replay.destroyed.connect(lambda _o=None: self._forget(replay))
        self.replays.append(replay)
        replay.show()
        return replay

    def _forget(self, replay: ReplayWindow) -> None:
        if replay in self.replays:
            self.replays.remove(replay)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.Close:
            for replay in list(self.replays):
                replay.close()  # stops its replay (the task closes its server)
        return False

    # ---------------------------------------------------------------- messages
    def show_error(self, title: str, text: str) -> QMessageBox:
        box = QMessageBox(self.window)
        box.setObjectName("sessionFileError")
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(title)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(text)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.message_box = box
        box.open()
        return box
