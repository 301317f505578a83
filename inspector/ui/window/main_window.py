"""The main window: connection bar, the explorer (left: server info and the catalog's
trees), the centre tabs ("Workspace": the selected item; "Traffic": the log), and the
bottom tabs (server console, notifications, errors, statistics, auth, tasks).

It is given the app model, opens the one connection it shows (answering its server asks
with dialogs over this window), builds its panels over that connection's Qt adapter and
wires them; the panels themselves live in their own modules.
"""

from __future__ import annotations

import asyncio
import functools
from typing import TYPE_CHECKING, Final

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QGuiApplication, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QToolBar,
    QWidget,
)

from inspector import __version__
from inspector.app.connection import ConnectionModel
from inspector.app.model import AppModel
from inspector.protocol.events import SessionReady
from inspector.recording.redaction import connection_for_profile
from inspector.settings.profiles import Profile, ProfileStore
from inspector.storage.paths import settings_path
from inspector.traffic.error_store import ErrorStore
from inspector.traffic.log import TrafficLog
from inspector.traffic.log_messages import LogMessageStore
from inspector.ui.controller.connection_controller import ConnectionController, ConnState
from inspector.ui.controller.gui_responder import GuiResponders
from inspector.ui.explorer import ExplorerPanel
from inspector.ui.panels import ErrorsPanel, NotificationsPanel, ServerConsole
from inspector.ui.panels.lint_panel import LintPanel
from inspector.ui.panels.session_controls import LogLevelControl, PingControl
from inspector.ui.profiles.profiles_dialog import ImportDialog, ProfilesDialog
from inspector.ui.recording.live_taps import LiveTaps
from inspector.ui.recording.session_files import SessionFiles
from inspector.ui.traffic.composer import RawComposerDialog
from inspector.ui.traffic.log_panel import TrafficLogPanel
from inspector.ui.traffic.stats_panel import MethodStatsPanel
from inspector.ui.widgets.app_resources import app_icon
from inspector.ui.widgets.lazy_panel import LazyPanel
from inspector.ui.widgets.plain_text import PlainLabel, short_status
from inspector.ui.widgets.theme import ThemeChoice, apply_theme
from inspector.ui.window.client_features import ClientFeatures
from inspector.ui.window.connection_actions import ConnectionActions
from inspector.ui.window.connection_bar import ConnectionBar
from inspector.ui.window.help_menu import report_problem, show_guide, show_shortcuts
from inspector.ui.window.menus import WindowMenus
from inspector.ui.window.panel_toggles import Panel, PanelToggles
from inspector.ui.window.watch_mode import WatchMode

if TYPE_CHECKING:
    from inspector.ui.panels.auth_panel import AuthPanel
    from inspector.ui.panels.check_dialog import CheckDialog
from inspector.ui.window.window_state import WindowState
from inspector.ui.workspace.views import register_all
from inspector.ui.workspace.workspace import Workspace

__all__ = ["MainWindow"]

_MAX_RECENT: Final = 8
_TITLE: Final = "MCP Inspector"
_BOTTOM_HEIGHT: Final = 140  # the bottom panel's first height: the workspace gets the rest


class MainWindow(QMainWindow):
    def __init__(self, app: AppModel, settings: QSettings | None = None) -> None:
        """`app`: built with recording settings (the window records its connection)."""
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle(_TITLE)
        self.setWindowIcon(app_icon())
        self.app = app
        self.settings = settings or QSettings(str(settings_path()), QSettings.Format.IniFormat)
        # The server's asks open dialogs modal to the window that shows the connection.
        self.connection: ConnectionModel = app.open_connection(
            GuiResponders(self, app.canned, secrets=app.secrets)
        )
        recording = self.connection.recording
        if recording is None:
            raise ValueError("the window records its connection: build the app with recording")
        self.controller = ConnectionController(self.connection, app.arguments)
        self.console = ServerConsole()
        self.controller.console_line.connect(self.console.append)
        self.composer: RawComposerDialog | None = None
        self._workspace_profile: str | None = None
        self._closed: asyncio.Future[None] | None = None

        self.bar = ConnectionBar()
        register_all()
        self.explorer = ExplorerPanel(self.controller, self.settings)
        self.server_panel = self.explorer.server
        self.workspace = Workspace(self.controller)
        self.log_panel = TrafficLogPanel(self.traffic)
        self.log_panel.set_lint(self.connection.lint, self.connection.linter.lint_now)
        self.notifications = NotificationsPanel(self.messages)
        self.notifications.add_control(LogLevelControl(self.controller))
        self.errors_panel = ErrorsPanel(self.errors)
        self.stats_panel = MethodStatsPanel(self.traffic)
        self.bottom = QTabWidget()
        self.bottom.setObjectName("bottomTabs")
        self.bottom.setMinimumHeight(100)  # its tabs' own minimums would take 200 px
        self.bottom.addTab(self.console, "Server console")
        self.bottom.addTab(self.notifications, "Notifications")
        self.bottom.addTab(self.errors_panel, "Errors")
        self.lint_panel = LintPanel(self.connection.lint)
        self.bottom.addTab(self.lint_panel, "Lint")
        self.bottom.addTab(self.stats_panel, "Statistics")
        # The OAuth steps, log in / log out, for the profile chosen in the bar: built (and
        # the auth stack imported) when its tab is first shown or the connection needs auth.
        self._auth_panel: AuthPanel | None = None
        self._auth_host = LazyPanel(self._build_auth_panel)
        self.bottom.addTab(self._auth_host, "Auth")
        self.connection.auth_created.add(lambda _auth: self._auth_host.ensure())

        self.centre = QTabWidget()
        self.centre.setObjectName("centreTabs")
        self.centre.addTab(self.workspace, "Workspace")
        self.centre.addTab(self.log_panel, "Traffic")
        self.right_split = QSplitter(Qt.Orientation.Vertical)
        self.right_split.setObjectName("rightSplitter")
        self.right_split.addWidget(self.centre)
        self.right_split.addWidget(self.bottom)
        self.right_split.setStretchFactor(0, 1)  # a taller window grows what is looked at
        self.right_split.setStretchFactor(1, 0)
        self.main_split = QSplitter(Qt.Orientation.Horizontal)
        self.main_split.setObjectName("mainSplitter")
        self.main_split.addWidget(self.explorer)
        self.main_split.addWidget(self.right_split)
        self.main_split.setStretchFactor(0, 1)
        self.main_split.setStretchFactor(1, 4)
        self.toolbar = QToolBar("Connection")
        self.toolbar.setObjectName("connectionToolbar")
        self.toolbar.setMovable(False)
        self.toolbar.addWidget(self.bar)
        self.ping = PingControl(self.controller)
        self.toolbar.addWidget(self.ping)
        self.addToolBar(self.toolbar)

        self.errors_label = PlainLabel()
        self.statusBar().addPermanentWidget(self.errors_label)
        self.statusBar().addPermanentWidget(self.log_panel.count_label)
        self.menus = WindowMenus(self)
        self._build_menus()
        self.connection_actions = ConnectionActions(
            self.connect_action,
            self.disconnect_action,
            self.reconnect_action,
            self.send_raw_action,
            self.toolbar,
            self.recent_menu,
        )
        self._wire()
        # Server asks, roots, MRTR rounds in the log, tasks.
        self.client_features = ClientFeatures(
            app,
            self.controller,
            self.log_panel,
            self.bottom,
            self.chosen_profile,
            self.statusBar().showMessage,
            self,
        )
        self.menus.add_before_help(self.client_features.menu)
        # Watch mode: restart on file changes, re-run on demand, the results strip.
        self.watch_mode = WatchMode(
            self.controller,
            self.chosen_profile,
            self.settings,
            self.statusBar().showMessage,
            lambda: self.bottom.setCurrentWidget(self.console),
            self,
        )
        self.menus.add_before_help(self.watch_mode.menu)
        self.addToolBarBreak()
        self.addToolBar(self.watch_mode.toolbar)
        # Session files: recording, Open Session (offline view), Save As, HAR, Replay.
        self.session_files = SessionFiles(
            app,
            self.controller,
            recording,
            self.main_split,
            self.statusBar(),
            self.settings,
            self,
        )
        self.setCentralWidget(self.session_files.stack)
        self.menus.add_file_groups(self.session_files.menu_groups)
        # File ▸ Live Taps: follow a host's session through a running tap, read-only.
        self.live_taps = LiveTaps(self.session_files, self)
        self.menus.add_file_groups([[self.live_taps.menu.menuAction()]])
        self.session_files.offline_changed.connect(self._offline_changed)
        self.refresh_profiles()
        self.resize(1280, 800)
        self._default_split_done = False
        for splitter in (self.main_split, self.right_split, self.log_panel.splitter):
            splitter.setChildrenCollapsible(False)  # hiding is View ▸ (a way back)
        self.default_layout()
        self.panels = PanelToggles(
            self.menus.view,
            self.settings,
            [
                Panel("explorer", "&Explorer", self.explorer, "Ctrl+B"),
                Panel("bottom", "&Bottom panel", self.bottom, "Ctrl+Shift+B"),
                Panel(
                    "trafficDetail", "Traffic &detail pane", self.log_panel.detail, "Ctrl+Shift+D"
                ),
            ],
            self.menus.action,
            self.default_layout,
        )
        self.window_state = WindowState(
            self.settings,
            self,
            {
                "mainSplitter": self.main_split,
                "rightSplitter": self.right_split,
                "logSplitter": self.log_panel.splitter,
                "serverSplitter": self.server_panel.splitter,
            },
        )
        self.restore_state()

    # ---------------------------------------------------------------- the connection
    @property
    def store(self) -> ProfileStore:
        return self.app.store

    @property
    def traffic(self) -> TrafficLog:
        return self.connection.traffic

    @property
    def messages(self) -> LogMessageStore:
        return self.connection.messages

    @property
    def errors(self) -> ErrorStore:
        return self.connection.errors

    # ---------------------------------------------------------------- menus
    def _build_menus(self) -> None:
        m = self.menus
        action = m.action
        file, logm = m.file, m.log
        self.connect_action = action("&Connect", self.connect_selected, "Ctrl+K")
        self.disconnect_action = action("&Disconnect", self.disconnect_server, "Ctrl+Shift+K")
        self.reconnect_action = action("&Reconnect", self.reconnect, "Ctrl+R")
        file.addActions([self.connect_action, self.disconnect_action, self.reconnect_action])
        self.check_action = action("C&heck server…", self.open_check, "Ctrl+Shift+H")
        file.addAction(self.check_action)
        file.addSeparator()
        file.addAction(action("&Profiles…", self.open_profiles, "Ctrl+P"))
        file.addAction(action("&Import servers…", self.open_import))
        self.recent_menu = file.addMenu("Recent")
        m.end_file_menu(action("&Quit", self.close, QKeySequence.StandardKey.Quit))
        detail = self.log_panel.detail
        logm.addAction(action("&Find in log…", self.log_panel.show_search, "Ctrl+F"))
        logm.addAction(action("Find &next", self.log_panel.find_next, "F3"))
        logm.addAction(action("Find &previous", self.log_panel.find_previous, "Shift+F3"))
        logm.addSeparator()
        logm.addAction(action("&Jump to pair", detail._jump, "Ctrl+J"))
        logm.addAction(action("Copy as &JSON", detail.copy_json, "Ctrl+Shift+C"))
        logm.addAction(action("Copy as CLI &command", detail.copy_cli))
        logm.addSeparator()
        self.pause_action = action("&Pause autoscroll", self._toggle_pause, "Ctrl+Shift+P")
        self.pause_action.setCheckable(True)
        logm.addAction(self.pause_action)
        logm.addAction(action("C&lear log", self.clear_log, "Ctrl+L"))
        logm.addSeparator()
        self.send_raw_action = action("&Send raw…", self.open_composer, "Ctrl+Shift+R")
        logm.addAction(self.send_raw_action)
        theme = m.view.addMenu("Theme")
        choices: list[tuple[str, ThemeChoice]] = [
            ("Follow the system", "system"),
            ("Light", "light"),
            ("Dark", "dark"),
        ]
        for label, choice in choices:
            theme.addAction(action(label, functools.partial(self.set_theme, choice)))
        helpm = m.help
        helpm.addAction(action("&Keyboard shortcuts", lambda: show_shortcuts(self), "Ctrl+/"))
        guide = action(
            "&User guide", lambda: show_guide(self), QKeySequence.StandardKey.HelpContents
        )
        helpm.addAction(guide)
        helpm.addAction(action("&Report a problem…", lambda: report_problem(self)))
        helpm.addSeparator()
        helpm.addAction(action("&About", self.about))

    def _wire(self) -> None:
        bar, c = self.bar, self.controller
        bar.connect_clicked.connect(self.connect_selected)
        bar.disconnect_clicked.connect(self.disconnect_server)
        bar.reconnect_clicked.connect(self.reconnect)
        bar.profiles_clicked.connect(self.open_profiles)
        bar.send_raw_clicked.connect(self.open_composer)
        bar.profile_chosen.connect(lambda _id: self._refresh_auth())
        self.store.on_changed(self._refresh_auth)
        c.state_changed.connect(self._state_changed)
        c.server_ready.connect(self._server_ready)
        self.explorer.item_selected.connect(self._item_selected)
        self.workspace.pin_diff_requested.connect(self.explorer.show_pin_diff)
        c.notice.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.log_panel.detail.notice.connect(lambda text: self.statusBar().showMessage(text, 6000))
        self.errors_panel.count_changed.connect(self._errors_changed)
        self.errors_panel.jump_to_entry.connect(self.log_panel.select_entry)
        self.lint_panel.jump_to_entry.connect(self._show_entry)
        self.lint_panel.count_changed.connect(self._lint_changed)
        self.store.on_changed(self.refresh_profiles)
        hints = QGuiApplication.styleHints()
        if hints is not None:  # the system switched light/dark: recolor after the palette
            hints.colorSchemeChanged.connect(lambda _s: QTimer.singleShot(0, self.refresh_colors))

    # ---------------------------------------------------------------- profiles
    def all_profiles(self) -> list[Profile]:
        return self.app.profiles.all()

    def profile_by_id(self, profile_id: str | None) -> Profile | None:
        return self.app.profiles.get(profile_id)

    def _build_auth_panel(self) -> AuthPanel:
        from inspector.ui.panels.auth_panel import AuthPanel

        panel = AuthPanel(self.controller, self.chosen_profile)
        panel.attention.connect(lambda: self.bottom.setCurrentWidget(self._auth_host))
        self._auth_panel = panel
        return panel

    @property
    def auth_panel(self) -> AuthPanel:
        """The Auth panel, built now if its tab was never shown."""
        self._auth_host.ensure()
        if self._auth_panel is None:
            raise RuntimeError("the Auth panel is being built")
        return self._auth_panel

    def _refresh_auth(self) -> None:
        if self._auth_panel is not None:
            self._auth_panel.refresh()

    def chosen_profile(self) -> Profile | None:
        """The profile picked in the connection bar."""
        return self.profile_by_id(self.bar.current_profile_id())

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
        if self.app.profiles.is_adhoc(profile.id):
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
        self.connection_actions.recent_filled()

    def add_adhoc(self, profile: Profile) -> None:
        """A profile from the command line (kept for this run only), chosen in the bar."""
        self.app.profiles.add_adhoc(profile)
        self.bar.set_profiles(self.all_profiles(), profile.id)

    # ---------------------------------------------------------------- intents
    def connect_selected(self) -> asyncio.Task[object] | None:
        profile = self.chosen_profile()
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

    def open_check(self) -> CheckDialog | None:
        """The `check` battery against the chosen server, in a window of its own."""
        profile = self.chosen_profile() or self.connection.profile
        if profile is None:
            self.statusBar().showMessage("Choose a server to check first.", 6000)
            return None
        from inspector.ui.panels.check_dialog import CheckDialog  # httpx: only when asked

        dialog = CheckDialog(profile, self.connection.start, self.app.secrets, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        dialog.run()
        return dialog

    def _show_entry(self, index: int) -> None:
        self.centre.setCurrentWidget(self.log_panel)
        self.log_panel.select_entry(index)

    def _lint_changed(self, count: int) -> None:
        index = self.bottom.indexOf(self.lint_panel)
        self.bottom.setTabText(index, f"Lint ({count})" if count else "Lint")

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
        self.connection_actions.state_changed(st)
        if st is ConnState.CONNECTING:
            self.server_panel.clear("Connecting…")
            profile = self.controller.profile
            if profile is not None and profile.id != self._workspace_profile:
                self._workspace_profile = profile.id
                self.workspace.clear()  # another server: the old items' pages go
        elif st is ConnState.FAILED:
            self.server_panel.clear("Could not connect")
            self.statusBar().showMessage(f"Could not connect: {short_status(detail)}", 15000)
        elif st is ConnState.LOST:
            self.server_panel.title.setText("Server exited")
            self.statusBar().showMessage(f"The server went away: {detail}", 15000)
            self.bottom.setCurrentWidget(self.errors_panel)
        if st not in (ConnState.CONNECTED, ConnState.DISCONNECTING):
            self._live_title(_TITLE)  # no server is connected: its name leaves the title
        if self.composer is not None:
            self.composer.refresh_session()

    def _server_ready(self, ready: SessionReady) -> None:
        self.server_panel.show_ready(ready)
        info = ready.server_info if isinstance(ready.server_info, dict) else {}
        name = str(info.get("name", "?"))
        self.bar.set_server(name, ready.protocol_version, ready.era.value)
        self._live_title(name)

    def _live_title(self, title: str) -> None:
        """The live connection's title, unless a recording is shown (its title stays).

        Qt adds " — MCP Inspector" (the application's display name) itself on Linux and
        Windows, so the title names only what is shown: "server", not "MCP Inspector —
        server — MCP Inspector"."""
        self.setWindowTitle(self.session_files.offline_title() or title)

    def _offline_changed(self, offline: bool) -> None:
        """A recording is shown instead of the live view (nothing may connect), or the
        live view is back."""
        self.errors_label.setVisible(not offline)
        self.log_panel.count_label.setVisible(not offline)
        self.connection_actions.set_offline(offline, self.controller.state)
        if not offline:
            self.refresh_profiles()
        self._live_title(self._session_title())

    def _session_title(self) -> str:
        session = self.controller.session
        if session is not None and session.ready_info is not None:
            return str(session.ready_info.server_info.get("name", "?"))
        return _TITLE

    def _item_selected(self, item: object) -> None:
        self.workspace.show_item(item)
        self.centre.setCurrentWidget(self.workspace)

    def _errors_changed(self, count: int) -> None:
        index = self.bottom.indexOf(self.errors_panel)
        self.bottom.setTabText(index, f"Errors ({count})" if count else "Errors")
        self.errors_label.setText(f"⚠ {count} in Errors" if count else "")

    # ---------------------------------------------------------------- state
    def restore_state(self) -> None:
        self.window_state.restore()
        self.panels.restore()

    def default_layout(self) -> None:
        """The first-run split: the explorer wide enough for its tab titles, a short
        bottom panel, the rest to the workspace."""
        width = max(self.main_split.width(), 1280)
        left = max(360, min(440, width // 3))
        self.main_split.setSizes([left, width - left])
        height = max(self.right_split.height(), 700)
        bottom = _BOTTOM_HEIGHT
        self.right_split.setSizes([height - bottom, bottom])
        self.log_panel.splitter.setSizes([760, 280])

    def save_state(self) -> None:
        self.window_state.save()

    async def wait_closed(self) -> None:
        if self._closed is None:
            self._closed = asyncio.get_running_loop().create_future()
        await self._closed

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._default_split_done and self.settings.value("mainSplitter") is None:
            # First run: splitter sizes given before the window had its size are rescaled
            # by the stretch factors; lay out again at the real size.
            self._default_split_done = True
            self.default_layout()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.session_files.close_replays()  # each stops its replay (and closes its server)
        self.save_state()
        if self.composer is not None:
            self.composer.close()
        if self._closed is not None and not self._closed.done():
            self._closed.set_result(None)
        super().closeEvent(event)

    def central(self) -> QWidget:
        return self.main_split
