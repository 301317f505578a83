"""The main window: connection bar, the explorer (left: server info and the catalog's
trees), the centre tabs ("Workspace": the selected item; "Traffic": the log), and the
bottom tabs (server console, notifications, errors, statistics).

It wires panels to the controller and keeps window state in QSettings; the panels
themselves live in their own modules.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from pathlib import Path
from typing import Final

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QIcon, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QToolBar,
    QWidget,
)

from inspector import __version__
from inspector.features.catalog.pins import PinStore
from inspector.protocol.events import SessionReady
from inspector.recording.redaction import connection_for_profile
from inspector.settings.profiles import Profile, ProfileStore
from inspector.storage.paths import settings_path
from inspector.traffic.error_store import ErrorStore
from inspector.traffic.log import TrafficLog
from inspector.traffic.log_messages import LogMessageStore
from inspector.ui.controller.connection_controller import ConnectionController, ConnState
from inspector.ui.explorer import ExplorerPanel
from inspector.ui.panels import ErrorsPanel, NotificationsPanel, ServerConsole
from inspector.ui.panels.auth_panel import AuthPanel
from inspector.ui.panels.session_controls import LogLevelControl, PingControl
from inspector.ui.profiles.profiles_dialog import ImportDialog, ProfilesDialog
from inspector.ui.recording.session_files import SessionFiles
from inspector.ui.traffic.composer import RawComposerDialog
from inspector.ui.traffic.log_panel import TrafficLogPanel
from inspector.ui.traffic.stats_panel import MethodStatsPanel
from inspector.ui.widgets.theme import ThemeChoice, apply_theme
from inspector.ui.window.client_features import ClientFeatures
from inspector.ui.window.connection_bar import ConnectionBar
from inspector.ui.workspace.views import register_all
from inspector.ui.workspace.workspace import Workspace

__all__ = ["MainWindow", "app_icon"]

RESOURCES: Final = Path(__file__).resolve().parents[2] / "resources"
_MAX_RECENT: Final = 8


def app_icon() -> QIcon:
    path = RESOURCES / "mcp-inspector-qt.svg"
    return QIcon(str(path)) if path.is_file() else QIcon()


class MainWindow(QMainWindow):
    def __init__(self, store: ProfileStore, settings: QSettings | None = None) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("MCP Inspector")
        self.setWindowIcon(app_icon())
        self.store = store
        self.settings = settings or QSettings(str(settings_path()), QSettings.Format.IniFormat)
        self.adhoc: dict[str, Profile] = {}  # profiles from the command line (not saved)
        self.traffic = TrafficLog()
        self.messages = LogMessageStore(self.traffic)
        self.errors = ErrorStore()
        self.traffic.on_clear(self.errors.forget_entries)
        self.console = ServerConsole()
        self.controller = ConnectionController(
            self.traffic,
            self.messages,
            self.errors,
            self.console.append,
            store.secrets,
            pins=PinStore(store.path.with_name("pins.json")),
        )
        # Pins of a command-line server (not saved) follow its command or URL.
        self.controller.pin_scope = lambda p: f"target:{p.target}" if p.id in self.adhoc else p.id
        self.composer: RawComposerDialog | None = None
        self._workspace_profile: str | None = None
        self._closed: asyncio.Future[None] | None = None

        self.bar = ConnectionBar()
        register_all()
        self.explorer = ExplorerPanel(self.controller, self.settings)
        self.server_panel = self.explorer.server
        self.workspace = Workspace(self.controller)
        self.log_panel = TrafficLogPanel(self.traffic)
        self.notifications = NotificationsPanel(self.messages)
        self.notifications.add_control(LogLevelControl(self.controller))
        self.errors_panel = ErrorsPanel(self.errors)
        self.stats_panel = MethodStatsPanel(self.traffic)
        self.bottom = QTabWidget()
        self.bottom.setObjectName("bottomTabs")
        self.bottom.addTab(self.console, "Server console")
        self.bottom.addTab(self.notifications, "Notifications")
        self.bottom.addTab(self.errors_panel, "Errors")
        self.bottom.addTab(self.stats_panel, "Statistics")
        self.auth_panel = AuthPanel(  # issue 7: the OAuth steps, log in / log out
            self.controller, lambda: self.profile_by_id(self.bar.current_profile_id())
        )
        self.bottom.addTab(self.auth_panel, "Auth")

        self.centre = QTabWidget()
        self.centre.setObjectName("centreTabs")
        self.centre.addTab(self.workspace, "Workspace")
        self.centre.addTab(self.log_panel, "Traffic")
        self.right_split = QSplitter(Qt.Orientation.Vertical)
        self.right_split.setObjectName("rightSplitter")
        self.right_split.addWidget(self.centre)
        self.right_split.addWidget(self.bottom)
        self.right_split.setStretchFactor(0, 3)
        self.right_split.setStretchFactor(1, 1)
        self.main_split = QSplitter(Qt.Orientation.Horizontal)
        self.main_split.setObjectName("mainSplitter")
        self.main_split.addWidget(self.explorer)
        self.main_split.addWidget(self.right_split)
        self.main_split.setStretchFactor(0, 1)
        self.main_split.setStretchFactor(1, 4)
        self.setCentralWidget(self.main_split)
        toolbar = QToolBar("Connection")
        toolbar.setObjectName("connectionToolbar")
        toolbar.setMovable(False)
        toolbar.addWidget(self.bar)
        self.ping = PingControl(self.controller)
        toolbar.addWidget(self.ping)
        self.addToolBar(toolbar)

        self.errors_label = QLabel()
        self.statusBar().addPermanentWidget(self.errors_label)
        self.statusBar().addPermanentWidget(self.log_panel.count_label)
        self._build_menus()
        self._wire()
        # Server asks, roots, MRTR rounds in the log, tasks (engineer D)
        self.client_features = ClientFeatures(self)
        # Session files (issue 6): recording, Open Session (offline view), Save As, HAR, Replay
        self.session_files = SessionFiles(self)
        self.refresh_profiles()
        self.resize(1280, 800)
        self._default_split_done = False
        self.main_split.setSizes([390, 890])
        self.right_split.setSizes([520, 200])
        self.restore_state()

    # ---------------------------------------------------------------- menus
    def _action(
        self,
        text: str,
        slot: Callable[[], object],
        shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        self.addAction(action)  # shortcuts work even with the menu bar hidden
        return action

    def _build_menus(self) -> None:
        menu = self.menuBar()
        file = menu.addMenu("&File")
        self.connect_action = self._action("&Connect", self.connect_selected, "Ctrl+K")
        self.disconnect_action = self._action("&Disconnect", self.disconnect_server, "Ctrl+Shift+K")
        self.reconnect_action = self._action("&Reconnect", self.reconnect, "Ctrl+R")
        file.addActions([self.connect_action, self.disconnect_action, self.reconnect_action])
        file.addSeparator()
        file.addAction(self._action("&Profiles…", self.open_profiles, "Ctrl+P"))
        file.addAction(self._action("&Import servers…", self.open_import))
        self.recent_menu = file.addMenu("Recent")
        file.addSeparator()
        file.addAction(self._action("&Quit", self.close, QKeySequence.StandardKey.Quit))
        logm = menu.addMenu("&Log")
        logm.addAction(self._action("&Find in log…", self.log_panel.show_search, "Ctrl+F"))
        logm.addAction(self._action("Find &next", self.log_panel.find_next, "F3"))
        logm.addAction(self._action("Find &previous", self.log_panel.find_previous, "Shift+F3"))
        logm.addSeparator()
        logm.addAction(self._action("&Jump to pair", self.log_panel.detail._jump, "Ctrl+J"))
        logm.addAction(
            self._action("Copy as &JSON", self.log_panel.detail.copy_json, "Ctrl+Shift+C")
        )
        logm.addAction(self._action("Copy as CLI &command", self.log_panel.detail.copy_cli))
        logm.addSeparator()
        self.pause_action = self._action("&Pause autoscroll", self._toggle_pause, "Ctrl+Shift+P")
        self.pause_action.setCheckable(True)
        logm.addAction(self.pause_action)
        logm.addAction(self._action("C&lear log", self.clear_log, "Ctrl+L"))
        logm.addSeparator()
        self.send_raw_action = self._action("&Send raw…", self.open_composer, "Ctrl+Shift+R")
        logm.addAction(self.send_raw_action)
        view = menu.addMenu("&View")
        theme = view.addMenu("Theme")
        choices: list[tuple[str, ThemeChoice]] = [
            ("Follow the system", "system"),
            ("Light", "light"),
            ("Dark", "dark"),
        ]
        for label, choice in choices:
            theme.addAction(self._action(label, functools.partial(self.set_theme, choice)))
        helpm = menu.addMenu("&Help")
        helpm.addAction(self._action("&About", self.about))

    def _wire(self) -> None:
        bar, c = self.bar, self.controller
        bar.connect_clicked.connect(self.connect_selected)
        bar.disconnect_clicked.connect(self.disconnect_server)
        bar.reconnect_clicked.connect(self.reconnect)
        bar.profiles_clicked.connect(self.open_profiles)
        bar.send_raw_clicked.connect(self.open_composer)
        bar.profile_chosen.connect(lambda _id: self.auth_panel.refresh())
        self.auth_panel.attention.connect(lambda: self.bottom.setCurrentWidget(self.auth_panel))
        self.store.on_changed(self.auth_panel.refresh)
        c.state_changed.connect(self._state_changed)
        c.server_ready.connect(self._server_ready)
        self.explorer.item_selected.connect(self._item_selected)
        self.workspace.pin_diff_requested.connect(self.explorer.show_pin_diff)
        c.notice.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.errors_panel.count_changed.connect(self._errors_changed)
        self.errors_panel.jump_to_entry.connect(self.log_panel.select_entry)
        self.store.on_changed(self.refresh_profiles)
        hints = QGuiApplication.styleHints()
        if hints is not None:  # the system switched light/dark: recolor after the palette
            hints.colorSchemeChanged.connect(lambda _s: QTimer.singleShot(0, self.refresh_colors))

    # ---------------------------------------------------------------- profiles
    def all_profiles(self) -> list[Profile]:
        return [*self.store.profiles, *self.adhoc.values()]

    def profile_by_id(self, profile_id: str | None) -> Profile | None:
        if profile_id is None:
            return None
        return self.adhoc.get(profile_id) or self.store.get(profile_id)

    def refresh_profiles(self) -> None:
        current_id = self.bar.current_profile_id()
        if current_id is None:
            recent = self._recent()
            current_id = recent[0] if recent else None
        self.bar.set_profiles(self.all_profiles(), current_id)
        self._fill_recent_menu()

    def _recent(self) -> list[str]:
        value = self.settings.value("recentProfiles", [])
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def _remember(self, profile: Profile) -> None:
        if profile.id in self.adhoc:
            return
        recent = [profile.id, *[r for r in self._recent() if r != profile.id]][:_MAX_RECENT]
        self.settings.setValue("recentProfiles", recent)
        self._fill_recent_menu()

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        for profile_id in self._recent():
            profile = self.store.get(profile_id)
            if profile is not None:
                action = self.recent_menu.addAction(profile.name)
                action.triggered.connect(functools.partial(self.connect_profile, profile))
        self.recent_menu.setEnabled(not self.recent_menu.isEmpty())

    def add_adhoc(self, profile: Profile) -> None:
        self.adhoc[profile.id] = profile
        self.bar.set_profiles(self.all_profiles(), profile.id)

    # ---------------------------------------------------------------- intents
    def connect_selected(self) -> asyncio.Task[object] | None:
        profile = self.profile_by_id(self.bar.current_profile_id())
        return self.connect_profile(profile) if profile is not None else None

    def connect_profile(self, profile: Profile) -> asyncio.Task[object] | None:
        if self.bar.current_profile_id() != profile.id:
            self.bar.set_profiles(self.all_profiles(), profile.id)
        self._remember(profile)
        self.log_panel.detail.set_connection(connection_for_profile(profile), profile.era)
        return self.controller.connect_profile(profile)

    def disconnect_server(self) -> None:
        self.controller.disconnect_server()

    def reconnect(self) -> None:
        if self.controller.profile is None:
            self.connect_selected()
        else:
            self.controller.reconnect()

    def clear_log(self) -> None:
        self.log_panel.clear()

    def _toggle_pause(self) -> None:
        self.log_panel.set_paused(self.pause_action.isChecked())

    def open_profiles(self) -> None:
        dialog = ProfilesDialog(self.store, self)
        current = self.bar.current_profile_id()
        if current and self.store.get(current):
            dialog.select(current)
        dialog.connect_requested.connect(self.connect_profile)
        dialog.open()

    def open_import(self) -> None:
        ImportDialog(self.store, self).open()

    def open_composer(self) -> None:
        if self.composer is None:
            self.composer = RawComposerDialog(self.controller, self)
        self.composer.refresh_session()
        self.composer.show()
        self.composer.raise_()

    def set_theme(self, choice: ThemeChoice) -> None:
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, choice)
            self.settings.setValue("theme", choice)
            self.refresh_colors()

    def refresh_colors(self) -> None:
        """Colors we computed from the palette (highlighting, rows, the state label)."""
        self.log_panel.detail.highlighter.refresh_colors()
        self.log_panel.model.refresh_colors()
        self.explorer.refresh_colors()
        self.bar.set_state(self.controller.state, self.controller.detail)

    def about(self) -> None:
        box = QMessageBox(self)
        box.setWindowTitle("About MCP Inspector")
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(
            f"MCP Inspector (Qt) {__version__}\n\nA native debugger for Model Context Protocol "
            "servers. No local proxy, no listening socket."
        )
        box.open()

    # ---------------------------------------------------------------- controller
    def _state_changed(self, state: str, detail: str) -> None:
        st = ConnState(state)
        self.bar.set_state(st, detail)
        self.disconnect_action.setEnabled(st in (ConnState.CONNECTED, ConnState.CONNECTING))
        self.send_raw_action.setEnabled(st is ConnState.CONNECTED)
        if st is ConnState.CONNECTING:
            self.server_panel.clear("Connecting…")
            profile = self.controller.profile
            if profile is not None and profile.id != self._workspace_profile:
                self._workspace_profile = profile.id
                self.workspace.clear()  # another server: the old items' pages go
        elif st is ConnState.FAILED:
            self.server_panel.clear("Could not connect")
            self.statusBar().showMessage(f"Could not connect: {detail}", 15000)
        elif st is ConnState.LOST:
            self.server_panel.title.setText("Server exited")
            self.statusBar().showMessage(f"The server went away: {detail}", 15000)
            self.bottom.setCurrentWidget(self.errors_panel)
        elif st is ConnState.DISCONNECTED:
            self.setWindowTitle("MCP Inspector")
        if self.composer is not None:
            self.composer.refresh_session()

    def _server_ready(self, ready: SessionReady) -> None:
        self.server_panel.show_ready(ready)
        info = ready.server_info if isinstance(ready.server_info, dict) else {}
        name = str(info.get("name", "?"))
        self.bar.set_server(name, ready.protocol_version, ready.era.value)
        self.setWindowTitle(f"MCP Inspector — {name}")

    def _item_selected(self, item: object) -> None:
        self.workspace.show_item(item)
        self.centre.setCurrentWidget(self.workspace)

    def _errors_changed(self, count: int) -> None:
        index = self.bottom.indexOf(self.errors_panel)
        self.bottom.setTabText(index, f"Errors ({count})" if count else "Errors")
        self.errors_label.setText(f"⚠ {count} in Errors" if count else "")

    # ---------------------------------------------------------------- state
    def restore_state(self) -> None:
        s = self.settings
        for key, apply in (
            ("geometry", self.restoreGeometry),
            ("windowState", self.restoreState),
            ("mainSplitter", self.main_split.restoreState),
            ("rightSplitter", self.right_split.restoreState),
            ("logSplitter", self.log_panel.splitter.restoreState),
            ("serverSplitter", self.server_panel.splitter.restoreState),
        ):
            value = s.value(key)
            if isinstance(value, QByteArray | bytes):
                apply(QByteArray(value))

    def save_state(self) -> None:
        s = self.settings
        s.setValue("geometry", self.saveGeometry())
        s.setValue("windowState", self.saveState())
        s.setValue("mainSplitter", self.main_split.saveState())
        s.setValue("rightSplitter", self.right_split.saveState())
        s.setValue("logSplitter", self.log_panel.splitter.saveState())
        s.setValue("serverSplitter", self.server_panel.splitter.saveState())
        s.sync()

    async def wait_closed(self) -> None:
        if self._closed is None:
            self._closed = asyncio.get_running_loop().create_future()
        await self._closed

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._default_split_done and self.settings.value("mainSplitter") is None:
            # First run: splitter sizes given before the window had its size are rescaled
            # by the stretch factors; give the explorer room for its four tab titles.
            self._default_split_done = True
            width = self.main_split.width()
            left = max(360, min(440, width // 3))
            self.main_split.setSizes([left, max(1, width - left)])

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_state()
        if self.composer is not None:
            self.composer.close()
        if self._closed is not None and not self._closed.done():
            self._closed.set_result(None)
        super().closeEvent(event)

    def central(self) -> QWidget:
        return self.main_split
