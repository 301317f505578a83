"""One connection's view, a tab of the main window: its connection bar, the explorer (left:
server info and the catalog's trees), the centre tabs ("Workspace": the selected item;
"Traffic": the log; "Skills" while the server lists skill:// skills), the bottom tabs
(server console, notifications, errors, lint, statistics, auth, tasks) and its own status
bar.

A tab opens its own connection from the app model, answers that connection's server asks
with dialogs that name the tab, records it to its own file and shows an opened recording
in place of its live view. Nothing here reaches into another tab: a server that floods or
dies is one tab's business. The window keeps the tabs and points its menus at the current
one; a tab tells it what changed (`changed`: title or state; `asks_changed`: asks waiting).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import (
    QMenu,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from inspector.core.connection import ConnectionModel
from inspector.core.inspector_model import InspectorModel
from inspector.features.catalog.lists import CatalogKind
from inspector.protocol.machine.events import SessionReady
from inspector.recording.redaction import connection_for_profile
from inspector.settings.profiles import Profile
from inspector.traffic.error_store import ErrorStore
from inspector.traffic.log import TrafficLog
from inspector.traffic.log_messages import LogMessageStore
from inspector.ui.asks.gui_responder import GuiResponders
from inspector.ui.check.lint_panel import LintPanel
from inspector.ui.collections.feature import CollectionsFeature
from inspector.ui.controller.connection_controller import ConnectionController, ConnState
from inspector.ui.explorer import ExplorerPanel
from inspector.ui.recording.session_files import SessionFiles
from inspector.ui.security.security_panel import SecurityPanel, summary_text
from inspector.ui.skills.feature import SkillsFeature
from inspector.ui.tabs.client_features import ClientFeatures
from inspector.ui.tabs.connection_bar import ConnectionBar
from inspector.ui.tabs.session_controls import LogLevelControl, PingControl
from inspector.ui.tabs.tab_name import clean_tab_name
from inspector.ui.traffic.composer import RawComposerDialog
from inspector.ui.traffic.errors_panel import ErrorsPanel
from inspector.ui.traffic.log_panel import TrafficLogPanel
from inspector.ui.traffic.notifications_panel import NotificationsPanel
from inspector.ui.traffic.server_console import ServerConsole
from inspector.ui.traffic.stats_panel import MethodStatsPanel
from inspector.ui.watch.watch_mode import WatchMode
from inspector.ui.widgets.lazy_panel import LazyPanel
from inspector.ui.widgets.plain_text import PlainLabel, short_status
from inspector.ui.widgets.split_panes import split_panes
from inspector.ui.widgets.status_bar import TabStatusBar
from inspector.ui.workspace.workspace import Workspace

if TYPE_CHECKING:
    from inspector.ui.auth.auth_panel import AuthPanel
    from inspector.ui.recording.offline_view import OfflineView

__all__ = ["ConnectionTab", "TabState"]

_NEW_TAB: Final = "New tab"


class TabState:
    """What a tab shows at a glance (its dot and the words of its tooltip)."""

    CONNECTED: Final = "connected"
    CONNECTING: Final = "connecting"
    FAILED: Final = "failed"
    LOST: Final = "lost"
    OFFLINE: Final = "offline session"
    IDLE: Final = "not connected"


class ConnectionTab(QWidget):
    changed = Signal()  # its title or state changed
    asks_changed = Signal(int)  # server asks waiting for an answer in this tab
    profiles_requested = Signal()  # the bar's "Profiles…"
    close_requested = Signal()  # a tab opened for a recording: the recording was closed

    def __init__(
        self,
        app: InspectorModel,
        settings: QSettings,
        *,
        remember: Callable[[Profile], None],
        recent: Callable[[], list[str]],
    ) -> None:
        """`remember(profile)`: the window's Recent list hears of a connect. `recent()`:
        that list without the profiles that failed to connect last time (the bar starts on
        its first profile). `settings`: the window's."""
        super().__init__()
        self.setObjectName("connectionTab")
        self.app = app
        self.settings = settings
        self._remember = remember
        self._recent = recent
        self.custom_name: str | None = None  # the user renamed the tab
        self.server_name: str | None = None
        self.asks_waiting = 0
        self.for_recording = False  # opened to show a recording: closing it closes the tab
        # The server's asks open dialogs modal to the window, titled with this tab's name.
        self.responders = GuiResponders(
            self,
            app.canned,
            secrets=app.secrets,
            label=self.display_title,
            on_asks=self._asks,
        )
        self.connection: ConnectionModel = app.open_connection(self.responders, ui_apps=True)
        recording = self.connection.recording
        if recording is None:
            raise ValueError("a tab records its connection: build the app with recording")
        self.controller = ConnectionController(self.connection, app.arguments)
        self.console = ServerConsole()
        self.controller.console_line.connect(self.console.append)
        self.composer: RawComposerDialog | None = None
        self._workspace_profile: str | None = None
        self.bar = ConnectionBar()
        self._build_views()
        self.status = TabStatusBar()
        self.status.setObjectName("tabStatusBar")
        self.status.setSizeGripEnabled(False)
        self.errors_label = PlainLabel()
        self.status.addPermanentWidget(self.errors_label)
        self.security_label = PlainLabel()  # high and medium findings, when there are some
        self.security_label.setObjectName("securityStatus")
        self.status.addPermanentWidget(self.security_label)
        self.status.addPermanentWidget(self.log_panel.count_label)
        # Server asks, roots, MRTR rounds in the log, tasks.
        self.client_features = ClientFeatures(
            app,
            self.controller,
            self.log_panel,
            self.bottom,
            self.chosen_profile,
            self.status.showMessage,
            self,
        )
        # Session files: recording, Open Session (offline view), Save As, HAR, Replay.
        self.session_files = SessionFiles(
            app, self.controller, recording, self.main_split, self.status, settings, self
        )
        self.session_files.slices.live_log = self.log_panel
        self.session_files.slices.offer_in(self.log_panel)
        # Collections: "Save call…", the Collections tab, File ▸ Save Session as Test Collection.
        self.collections = CollectionsFeature(
            app,
            self.controller,
            self.workspace,
            self.log_panel,
            self.bottom,
            self.session_files,
            self.chosen_profile,
            settings,
            self.status.showMessage,
            self,
        )
        # Watch mode: restart on file changes, re-run on demand, the results strip.
        self.watch_mode = WatchMode(
            self.controller,
            self.chosen_profile,
            settings,
            self.status.showMessage,
            lambda: self.bottom.setCurrentWidget(self.console),
            self,
            tab_collection=lambda: self.collections.panel.path,
            collection_ran=self.collections.panel.show_results,
        )
        self.collections.panel.file_opened.connect(self.watch_mode.collection_opened)
        replays = self.session_files.menu_groups[1]
        replays.insert(
            replays.index(self.session_files.replay_action) + 1, self.collections.session_action
        )
        self.toolbar = QToolBar("Connection")
        self.toolbar.setObjectName("connectionToolbar")
        self.toolbar.setMovable(False)
        self.toolbar.addWidget(self.bar)
        self.ping = PingControl(self.controller)
        self.toolbar.addWidget(self.ping)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.watch_mode.toolbar)
        layout.addWidget(self.session_files.stack, 1)
        layout.addWidget(self.status)
        self._wire()
        self.refresh_profiles()

    def menus(self) -> list[QMenu]:
        """This tab's own menus in the window's menu bar while it is current."""
        return [self.client_features.menu, self.watch_mode.menu]

    def _build_views(self) -> None:
        self.explorer = ExplorerPanel(self.controller, self.settings)
        self.server_panel = self.explorer.server
        self.workspace = Workspace(self.controller)
        self.log_panel = TrafficLogPanel(self.traffic)
        self.log_panel.set_lint(self.connection.lint, self.connection.linter.lint_now)
        self.notifications = NotificationsPanel(self.messages)
        self.notifications.add_control(LogLevelControl(self.controller))
        self.errors_panel = ErrorsPanel(self.errors)
        self.stats_panel = MethodStatsPanel(self.traffic, self.connection.rounds.method_stats)
        self.bottom = QTabWidget()
        self.bottom.setObjectName("bottomTabs")
        self.bottom.setMinimumHeight(100)  # its tabs' own minimums would take 200 px
        self.bottom.addTab(self.console, "Server console")
        self.bottom.addTab(self.notifications, "Notifications")
        self.bottom.addTab(self.errors_panel, "Errors")
        self.lint_panel = LintPanel(self.connection.lint)
        self.bottom.addTab(self.lint_panel, "Lint")
        # The security review of what the server offers (the window runs it over every tab).
        self.security = SecurityPanel(self.controller, self.display_title)
        self.bottom.addTab(self.security, "Security")
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
        # Skills: a centre tab of its own, there only while the server lists skill:// skills.
        self.skills = SkillsFeature(self.controller, self.centre)
        # A taller window grows what is looked at.
        self.right_split = split_panes(
            Qt.Orientation.Vertical,
            [self.centre, self.bottom],
            stretch=(1, 0),
            name="rightSplitter",
        )
        self.main_split = split_panes(
            Qt.Orientation.Horizontal,
            [self.explorer, self.right_split],
            stretch=(1, 4),
            name="mainSplitter",
        )
        for splitter in (self.main_split, self.right_split, self.log_panel.splitter):
            splitter.setChildrenCollapsible(False)  # hiding is View ▸ (a way back)

    def _wire(self) -> None:
        bar, c = self.bar, self.controller
        bar.connect_clicked.connect(self.connect_selected)
        bar.disconnect_clicked.connect(self.disconnect_server)
        bar.reconnect_clicked.connect(self.reconnect)
        bar.profiles_clicked.connect(self.profiles_requested.emit)
        bar.send_raw_clicked.connect(self.open_composer)
        bar.profile_chosen.connect(lambda _id: self._profile_chosen())
        self._stop_store = self.app.store.on_changed(self._refresh_auth)
        c.state_changed.connect(self._state_changed)
        c.server_ready.connect(self._server_ready)
        self.explorer.item_selected.connect(self._item_selected)
        self.workspace.pin_diff_requested.connect(self.explorer.show_pin_diff)
        c.notice.connect(lambda text: self.status.showMessage(text, 8000))
        self.log_panel.detail.notice.connect(lambda text: self.status.showMessage(text, 6000))
        self.errors_panel.count_changed.connect(self._errors_changed)
        self.errors_panel.jump_to_entry.connect(self.log_panel.select_entry)
        self.lint_panel.jump_to_entry.connect(self.show_entry)
        self.lint_panel.count_changed.connect(self._lint_changed)
        self.security.item_requested.connect(self._finding_item)
        self.security.counts_changed.connect(self._security_changed)
        self.session_files.offline_changed.connect(self._offline_changed)

    # ---------------------------------------------------------------- public accessors
    @property
    def model(self) -> ConnectionModel:
        """This tab's connection (Qt-free): what a compare view reads."""
        return self.connection

    @property
    def traffic(self) -> TrafficLog:
        return self.connection.traffic

    @property
    def messages(self) -> LogMessageStore:
        return self.connection.messages

    @property
    def errors(self) -> ErrorStore:
        return self.connection.errors

    @property
    def offline(self) -> bool:
        """A recording (or a followed tap) is shown instead of the live view."""
        return self.session_files.view is not None

    def display_title(self) -> str:
        """The tab's name: the user's, else the recording's, the server's or the profile's."""
        if self.custom_name:
            return self.custom_name
        view = self.session_files.view if hasattr(self, "session_files") else None
        if view is not None:
            return view.path.name
        if self.server_name:
            return self.server_name
        profile = self.controller.model.profile
        return profile.name if profile is not None else _NEW_TAB

    def transport_label(self) -> str | None:
        """ "stdio" or "HTTP": how this tab reaches its server (None before a connect)."""
        profile = self.controller.model.profile
        if profile is None:
            return None
        return "HTTP" if profile.transport == "http" else "stdio"

    def profile_label(self) -> str | None:
        """The name of the profile this tab connects to (None before a connect)."""
        profile = self.controller.model.profile
        return profile.name if profile is not None else None

    def tab_state(self) -> str:
        if self.offline:
            return TabState.OFFLINE
        state = self.controller.model.state
        if state is ConnState.CONNECTED:
            return TabState.CONNECTED
        if state in (ConnState.CONNECTING, ConnState.DISCONNECTING):
            return TabState.CONNECTING
        if state is ConnState.FAILED:
            return TabState.FAILED
        if state is ConnState.LOST:
            return TabState.LOST
        return TabState.IDLE

    def tooltip(self) -> str:
        """The tab's tooltip: its name, its state and why, asks waiting."""
        lines = [self.display_title(), f"State: {self.tab_state()}"]
        profile = self.controller.model.profile
        if profile is not None and not self.offline:
            lines.append(f"Profile: {profile.name}")
        detail = self.controller.model.detail
        if detail and self.tab_state() in (TabState.FAILED, TabState.LOST):
            lines.append(short_status(detail))
        if self.asks_waiting:
            lines.append(f"{self.asks_waiting} server ask(s) waiting for an answer")
        return "\n".join(lines)

    def window_title(self) -> str:
        """The window's title while this tab is current (Qt adds " — MCP Inspector"):
        the user's name for the tab, else the recording's or the connected server's."""
        offline = self.session_files.offline_title()
        if offline is not None:
            return offline
        if self.custom_name:
            return self.custom_name
        if self.controller.model.state in (ConnState.CONNECTED, ConnState.DISCONNECTING):
            return self.server_name or "MCP Inspector"
        return "MCP Inspector"

    def unsaved_target(self) -> bool:
        """This tab runs a command line or URL given for this run, not a saved profile."""
        profile = self.controller.model.profile
        return profile is not None and self.app.profiles.is_adhoc(profile.id)

    def remembered_profile(self) -> Profile | None:
        """The profile this tab connects to (what the window remembers between runs)."""
        return self.controller.model.profile

    def rename(self, name: str | None) -> None:
        """A name of the user's for this tab (None or blank: the automatic one again; see
        `clean_tab_name` for control characters and a name too long)."""
        self.custom_name = clean_tab_name(name)
        self.changed.emit()

    # ---------------------------------------------------------------- profiles
    def chosen_profile(self) -> Profile | None:
        """The profile picked in the connection bar."""
        return self.app.profiles.get(self.bar.current_profile_id())

    def refresh_profiles(self) -> None:
        if self.offline:
            return  # the Server box names the recording shown (`_offline_changed`)
        current_id = self.bar.current_profile_id()
        if current_id is None:
            recent = self._recent()
            current_id = recent[0] if recent else None
        self.bar.set_profiles(self.app.profiles.all(), current_id)

    def _profile_chosen(self) -> None:
        self._refresh_auth()

    def _build_auth_panel(self) -> AuthPanel:
        from inspector.ui.auth.auth_panel import AuthPanel

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

    # ---------------------------------------------------------------- intents
    def connect_selected(self) -> asyncio.Task[object] | None:
        profile = self.chosen_profile()
        return self.connect_profile(profile) if profile is not None else None

    def connect_profile(self, profile: Profile) -> asyncio.Task[object] | None:
        if self.bar.current_profile_id() != profile.id:
            self.bar.set_profiles(self.app.profiles.all(), profile.id)
        self._remember(profile)
        self.log_panel.detail.set_connection(connection_for_profile(profile), profile.era)
        task = self.controller.model.connect_profile(profile)
        self.changed.emit()
        return task

    def disconnect_server(self) -> None:
        self.controller.model.disconnect_server()

    def reconnect(self) -> None:
        if self.controller.model.profile is None:
            self.connect_selected()
        else:
            self.controller.model.reconnect()

    def open_composer(self) -> None:
        if self.composer is None:
            self.composer = RawComposerDialog(self.controller, self)
            self.composer.setWindowTitle(f"{self.composer.windowTitle()} — {self.display_title()}")
        self.composer.refresh_session()
        self.composer.show()
        self.composer.raise_()

    def show_entry(self, index: int) -> None:
        self.centre.setCurrentWidget(self.log_panel)
        self.log_panel.select_entry(index)

    def refresh_colors(self) -> None:
        """Colors we computed from the palette (highlighting, rows, the state label)."""
        self.log_panel.detail.highlighter.refresh_colors()
        self.log_panel.model.refresh_colors()
        self.explorer.refresh_colors()
        self.bar.set_state(self.controller.model.state, self.controller.model.detail)

    async def close_tab(self) -> None:
        """Disconnect the server cleanly (its recording ends) and let the tab go."""
        self._stop_store()  # the app-wide stores outlive the tab
        self.client_features.close()
        self.session_files.close_replays()  # each stops its replay (and closes its server)
        if self.composer is not None:
            self.composer.close()
        await self.app.close_connection(self.connection)
        if self.connection.recording is not None and self.connection.recording.recorder.recording:
            self.connection.recording.recorder.finish()

    # ---------------------------------------------------------------- controller
    def _asks(self, waiting: int) -> None:
        self.asks_waiting = waiting
        self.asks_changed.emit(waiting)

    def _state_changed(self, state: str, detail: str) -> None:
        st = ConnState(state)
        self.bar.set_state(st, detail)
        if st is ConnState.CONNECTING:
            self.server_panel.clear("Connecting…")
            profile = self.controller.model.profile
            if profile is not None and profile.id != self._workspace_profile:
                self._workspace_profile = profile.id
                self.server_name = None
                self.workspace.clear()  # another server: the old items' pages go
        elif st is ConnState.FAILED:
            self.server_panel.clear("Could not connect")
            self.status.showMessage(f"Could not connect: {short_status(detail)}", 15000)
        elif st is ConnState.LOST:
            self.server_panel.title.setText("Server exited")
            self.status.showMessage(f"The server went away: {short_status(detail)}", 15000)
            self.bottom.setCurrentWidget(self.errors_panel)
        if self.composer is not None:
            self.composer.refresh_session()
        self.changed.emit()

    def _server_ready(self, ready: SessionReady) -> None:
        self.server_panel.show_ready(ready)
        info = ready.server_info if isinstance(ready.server_info, dict) else {}
        name = str(info.get("name", "?"))
        self.server_name = name
        self.bar.set_server(name, ready.protocol_version, ready.era.value)
        self.changed.emit()

    def _offline_changed(self, offline: bool) -> None:
        """A recording is shown instead of the live view (nothing may connect here), or
        the live view is back."""
        self.errors_label.setVisible(not offline)
        self.log_panel.count_label.setVisible(not offline)
        self.toolbar.setEnabled(not offline)
        view = self.session_files.view
        if offline and view is not None:
            self.bar.show_source(f"{view.path.name} (read-only)")
            # (Its Playground conversations are known once the file is indexed.)
            view.indexed.connect(lambda: self._show_conversations(view))
        if not offline:
            self.refresh_profiles()
        self.changed.emit()
        if not offline and self.for_recording:
            self.close_requested.emit()

    @staticmethod
    def _show_conversations(view: OfflineView) -> None:
        if view.offline.conversations:  # (the Playground's modules only when there are some)
            from inspector.ui.playground.traffic_link import reveal_request
            from inspector.ui.playground.transcript import show_saved_conversations

            show_saved_conversations(
                view.bottom,
                view.offline.conversations,
                lambda rid: reveal_request(view.log_panel, rid),
            )

    def _item_selected(self, item: object) -> None:
        self.workspace.show_item(item)
        self.centre.setCurrentWidget(self.workspace)

    def _errors_changed(self, count: int) -> None:
        index = self.bottom.indexOf(self.errors_panel)
        self.bottom.setTabText(index, f"Errors ({count})" if count else "Errors")
        self.errors_label.setText(f"⚠ {count} in Errors" if count else "")

    def _finding_item(self, kind: CatalogKind, key: str) -> None:
        if not self.explorer.select(kind, key):
            self.status.showMessage("That item is no longer listed.", 6000)

    def _security_changed(self, counts: dict[str, int]) -> None:
        index = self.bottom.indexOf(self.security)
        total = sum(counts.values())
        worst = next(((s, n) for s, n in counts.items() if n), None)
        title = "Security"
        if worst is not None:  # "Security (1 high, 2 more)": the worst, and how many else
            more = f", {total - worst[1]} more" if total > worst[1] else ""
            title = f"Security ({worst[1]} {worst[0]}{more})"
        self.bottom.setTabText(index, title)
        serious = {s: n for s, n in counts.items() if s in ("high", "medium")}
        said = summary_text(serious)
        self.security_label.setText(f"⚠ Security: {said}" if said else "")

    def _lint_changed(self, count: int) -> None:
        index = self.bottom.indexOf(self.lint_panel)
        self.bottom.setTabText(index, f"Lint ({count})" if count else "Lint")
