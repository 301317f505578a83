"""The main window: a tab per connection (`ConnectionTab`: its connection bar, explorer,
workspace, traffic log, bottom panels and status bar), the menus, and what is the window's
own: the Recent list, the panels shown, the theme, the layout kept between runs, the tabs
to reopen next time.

The menus and the shortcuts act on the current tab; when another tab becomes current the
window points them at it (its File groups, its Client menu, what may connect). The
current tab's parts are reached through `current_tab` (`window.current_tab.workspace`).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import (
    QCloseEvent,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QGuiApplication,
    QKeySequence,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QInputDialog,
    QMainWindow,
    QSplitter,
    QStatusBar,
    QVBoxLayout,
    QWidget,
)

from inspector.core.inspector_model import InspectorModel
from inspector.settings.profiles import Profile, ProfileStore
from inspector.storage.paths import settings_path
from inspector.ui.profiles.profiles_dialog import ImportDialog, ProfilesDialog
from inspector.ui.recording.session_drop import dropped, may_drop
from inspector.ui.recording.session_files import SessionFiles
from inspector.ui.security.review import SecurityReview
from inspector.ui.shell.connect_outcomes import ConnectOutcomes
from inspector.ui.shell.help_menu import report_problem, show_about, show_guide, show_shortcuts
from inspector.ui.shell.host_views import HostViews
from inspector.ui.shell.inventory_actions import open_inventory
from inspector.ui.shell.menus import WindowMenus
from inspector.ui.shell.window_state import WindowState
from inspector.ui.tabs.connection_actions import ConnectionActions
from inspector.ui.tabs.connection_tab import ConnectionTab
from inspector.ui.tabs.new_tab_dialog import NewTabDialog
from inspector.ui.tabs.panel_toggles import Panel, PanelToggles
from inspector.ui.tabs.save_as_profile import ask_save_as_profile
from inspector.ui.tabs.tab_keys import TabKeys
from inspector.ui.tabs.tab_layout import (
    copy_layout,
    default_layout,
    layout_state,
    restore_layout,
    splitters_of,
)
from inspector.ui.tabs.tab_memory import RememberedTab, ReopenBar, TabMemory
from inspector.ui.tabs.tab_strip import TabStrip
from inspector.ui.tap.live_taps import LiveTaps
from inspector.ui.traffic.log_panel import TrafficLogPanel
from inspector.ui.widgets.app_resources import app_icon
from inspector.ui.widgets.theme import ThemeChoice, apply_theme
from inspector.ui.workspace.views import register_all

if TYPE_CHECKING:
    from inspector.ui.check.check_dialog import CheckDialog
    from inspector.ui.compare.compare_window import CompareWindow
    from inspector.ui.palette.palette_dialog import CommandPalette

__all__ = ["MainWindow"]

_MAX_RECENT: Final = 8
_TITLE: Final = "MCP Inspector"


class MainWindow(QMainWindow):
    compare_requested = Signal(object, object)  # ConnectionTab (left), ConnectionTab (right)
    tab_opened = Signal(object)  # ConnectionTab
    tab_closed = Signal(object)  # ConnectionTab (its connection is being shut down)

    def __init__(self, app: InspectorModel, settings: QSettings | None = None) -> None:
        """`app`: built with recording settings (each tab records its connection)."""
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle(_TITLE)
        self.setWindowIcon(app_icon())
        self.app = app
        self.settings = settings or QSettings(str(settings_path()), QSettings.Format.IniFormat)
        self.connect_outcomes = ConnectOutcomes(self.settings)
        register_all()
        self._closed: asyncio.Future[None] | None = None
        self._closing: set[asyncio.Task[None]] = set()
        self._bound: ConnectionTab | None = None
        self.command_palette: CommandPalette | None = None  # made when first opened
        self.security = SecurityReview(self)  # the security rules over every tab at once
        self.tab_opened.connect(lambda tab: self.security.add(tab.security))
        self.tab_closed.connect(lambda tab: self.security.remove(tab.security))
        self.strip = TabStrip(self)
        self.tabs = self.strip.widget
        self.strip.close_requested.connect(self.close_tab)
        self.strip.compare_requested.connect(self.compare_requested.emit)
        self.strip.save_profile_requested.connect(self.ask_save_profile)
        self.compare_requested.connect(self.open_compare)
        self.memory = TabMemory(self.settings, app.profiles)
        self.reopen_bar = ReopenBar()
        self.reopen_bar.reopen.connect(self.reopen_tabs)
        holder = QWidget()
        layout = QVBoxLayout(holder)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.reopen_bar)
        layout.addWidget(self.tabs, 1)
        self.setCentralWidget(holder)
        self.menus = WindowMenus(self)
        self._build_menus()
        self.connection_actions = ConnectionActions(
            self.connect_action,
            self.disconnect_action,
            self.reconnect_action,
            self.send_raw_action,
            self.recent_menu,
        )
        # File ▸ Live Taps: follow a host's session through a running tap, read-only.
        self.live_taps = LiveTaps(lambda: self.current_tab.session_files, self)
        self.menus.add_file_groups([[self.live_taps.menu.menuAction()]])
        self.resize(1280, 800)
        self._default_split_done = False
        self.panels = PanelToggles(
            self.menus.view,
            self.settings,
            [
                Panel("explorer", "&Explorer", self._each(lambda t: t.explorer), "Ctrl+B"),
                Panel("bottom", "&Bottom panel", self._each(lambda t: t.bottom), "Ctrl+Shift+B"),
                Panel(
                    "trafficDetail",
                    "Traffic &detail pane",
                    self._each(lambda t: t.log_panel.detail),
                    "Ctrl+Shift+D",
                ),
            ],
            self.menus.action,
            self.default_layout,
        )
        self.window_state = WindowState(self.settings, self, self._splitters)
        self.setAcceptDrops(True)  # session files dropped on the window open as tabs
        self.new_tab()
        self.tabs.currentChanged.connect(lambda _i: self._bind_current())
        self._bind_current()
        self.refresh_profiles()
        self.default_layout()
        self.restore_state()
        self.store.on_changed(self.refresh_profiles)
        hints = QGuiApplication.styleHints()
        if hints is not None:  # the system switched light/dark: recolor after the palette
            hints.colorSchemeChanged.connect(lambda _s: QTimer.singleShot(0, self.refresh_colors))

    # ---------------------------------------------------------------- tabs
    def connection_tabs(self) -> list[ConnectionTab]:
        """Every tab, in the order shown."""
        return self.strip.tabs()

    @property
    def current_tab(self) -> ConnectionTab:
        tab = self.strip.current()
        if tab is None:  # never: the window always keeps one tab
            raise RuntimeError("the window has no tab")
        return tab

    def new_tab(self, profile: Profile | None = None) -> ConnectionTab:
        """A new tab, made current; connected to `profile` at once when given."""
        tab = ConnectionTab(
            self.app, self.settings, remember=self._remember, recent=self._start_profiles
        )
        tab.profiles_requested.connect(self.open_profiles)
        tab.close_requested.connect(functools.partial(self.close_tab, tab))
        tab.changed.connect(functools.partial(self._tab_changed, tab))
        tab.session_files.target = self.recording_target
        previous = self.strip.current()
        self.strip.add(tab)
        copy_layout(previous, tab)
        self.panels.apply()
        self.tabs.setCurrentWidget(tab)
        self.tab_opened.emit(tab)
        if profile is not None:
            tab.connect_profile(profile)
        return tab

    def open_palette(self) -> CommandPalette:
        """View ▸ Command palette (Ctrl+Shift+P): every action, the current tab's catalog,
        the open tabs and recent sessions, fuzzy matched; Enter runs or opens."""
        from inspector.ui.palette.palette_dialog import CommandPalette
        from inspector.ui.shell.palette_sources import palette_entries

        if self.command_palette is None:
            self.command_palette = CommandPalette(self)
        palette = self.command_palette
        palette.set_entries(palette_entries(self, skip=self.palette_action))
        width = min(720, max(480, self.width() * 2 // 3))
        palette.resize(width, min(460, max(300, self.height() // 2)))
        top_left = self.mapToGlobal(self.rect().topLeft())
        palette.move(top_left.x() + (self.width() - width) // 2, top_left.y() + 60)
        palette.show()
        palette.raise_()
        palette.activateWindow()
        palette.edit.setFocus()
        return palette

    def open_compare(self, left: ConnectionTab, right: ConnectionTab) -> CompareWindow:
        """The compare window over two tabs' connections (their catalogs side by side, Run
        on both); imported when first asked for (cold start)."""
        from inspector.ui.compare.compare_window import open_compare

        return open_compare(
            left.model, right.model, self.strip.title_of(left), self.strip.title_of(right), self
        )

    def close_tab(self, tab: ConnectionTab | None = None) -> asyncio.Task[None] | None:
        """Close `tab` (the current one by default): its server is disconnected cleanly and
        its recording ends. The last tab closed leaves a new empty tab."""
        tab = tab or self.strip.current()
        if tab is None:
            return None
        self.strip.remove(tab)
        if not self.connection_tabs():
            self.new_tab()
        self.tab_closed.emit(tab)

        async def close() -> None:
            try:
                await tab.close_tab()
            finally:
                tab.deleteLater()

        task = asyncio.get_event_loop().create_task(close())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
        return task

    def recording_target(self) -> SessionFiles:
        """Where an opened recording or a followed tap is shown: the current tab while it
        has never connected, else a new tab (the live view stays as it was)."""
        tab = self.current_tab
        if tab.controller.model.profile is None and not tab.offline:
            return tab.session_files
        tab = self.new_tab()
        tab.for_recording = True
        return tab.session_files

    def open_new_tab_dialog(self) -> NewTabDialog:
        """File ▸ New Tab: a profile, a stdio command or a URL."""
        dialog = NewTabDialog(self.app.profiles.all(), self._recent(), self)
        dialog.chosen.connect(self._open_chosen)
        dialog.open()
        return dialog

    def _open_chosen(self, profile: Profile) -> None:
        if self.app.profiles.get(profile.id) is None:
            self.app.profiles.add_adhoc(profile)
            self.refresh_profiles()
        self.new_tab(profile)

    def offer_reopen(self) -> bool:
        """Offer the tabs of the last run (a bar in the window; nothing blocks)."""
        return self.reopen_bar.offer(self.memory.load())

    def reopen_tabs(self, remembered: list[RememberedTab]) -> None:
        """Each tab of the last run again: its server, its name, its splitters. The
        window's empty tab (never connected) takes the first one; the tab that was current
        is current again (else the last one)."""
        empty = self.current_tab
        opened: list[ConnectionTab] = []
        for entry in remembered:
            if entry.adhoc:  # a command line or URL: for this run, as when first opened
                self.app.profiles.add_adhoc(entry.profile)
        if any(entry.adhoc for entry in remembered):
            self.refresh_profiles()
        for index, entry in enumerate(remembered):
            # (Asked once: a tab's profile is only set when its connect task runs.)
            if index == 0 and empty.controller.model.profile is None and not empty.offline:
                tab = empty
                tab.connect_profile(entry.profile)
            else:
                tab = self.new_tab(entry.profile)
            if entry.name:
                tab.rename(entry.name)
            restore_layout(tab, entry.splitters)
            opened.append(tab)
        marked = [t for t, e in zip(opened, remembered, strict=True) if e.current]
        if opened:
            self.tabs.setCurrentWidget(marked[0] if marked else opened[-1])

    def ask_save_profile(self, tab: ConnectionTab) -> QInputDialog | None:
        """Tab menu ▸ Save as profile… (a command line or URL tab): see `save_as_profile`."""
        return ask_save_as_profile(self, self.app.profiles, tab, self.refresh_profiles)

    def _tab_changed(self, tab: ConnectionTab) -> None:
        model = tab.controller.model
        if model.profile is not None and not self.app.profiles.is_adhoc(model.profile.id):
            self.connect_outcomes.note(model.profile, model.state)
        if tab is self.strip.current():
            self._sync_actions()

    def _bind_current(self) -> None:
        """Point the menus at the current tab."""
        tab = self.strip.current()
        if tab is None:
            return
        if tab is not self._bound:
            self._bound = tab
            self.menus.bind_tab(tab.session_files.menu_groups, tab.menus())
            self.pause_action.setChecked(not tab.log_panel.autoscroll)
            if tab.asks_waiting:
                tab.status.showMessage("A server ask in this tab waits for an answer.", 8000)
        self._sync_actions()

    def _sync_actions(self) -> None:
        tab = self.current_tab
        self.connection_actions.set_offline(tab.offline, tab.controller.model.state)
        title = tab.window_title()
        if title == tab.display_title():  # told apart from a twin as its tab is
            title = self.strip.title_of(tab)
        self.setWindowTitle(title)

    def _each(self, part: Callable[[ConnectionTab], QWidget]) -> Callable[[], list[QWidget]]:
        """`part` of every tab (a View toggle hides or shows it in all of them)."""
        return lambda: [part(t) for t in self.connection_tabs()]

    def _log(self) -> TrafficLogPanel:
        """The current tab's traffic log (what the Log menu acts on): the opened
        recording's when one is shown."""
        view = self.current_tab.session_files.view
        return view.log_panel if view is not None else self.current_tab.log_panel

    def _splitters(self) -> dict[str, QSplitter]:
        return splitters_of(self.current_tab)

    @property
    def store(self) -> ProfileStore:
        return self.app.store

    def statusBar(self) -> QStatusBar:
        """The current tab's status bar (each tab keeps its own messages)."""
        return self.current_tab.status

    def open_session_files(self, paths: list[Path]) -> asyncio.Task[Any]:
        """Each session file read-only, a tab each in the order given (the current tab
        takes the first while it has never connected), as File ▸ Open Session opens one:
        the command line's files and the files dropped on the window."""
        return self.current_tab.session_files.open_sessions(paths)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if may_drop(event.mimeData()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if may_drop(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        found = dropped(event.mimeData())
        if not found.files and not found.others:
            return
        event.acceptProposedAction()
        if found.others:
            self.current_tab.session_files.show_error(
                "Cannot open what was dropped",
                "Only session files on this computer open here; not: " + ", ".join(found.others),
            )
        if found.files:
            self.open_session_files(found.files)

    # ---------------------------------------------------------------- menus
    def _build_menus(self) -> None:
        m = self.menus
        action = m.action
        file, logm = m.file, m.log
        self.new_tab_action = action("New &Tab…", self.open_new_tab_dialog, "Ctrl+T")
        self.close_tab_action = action("Close Ta&b", self.close_tab, "Ctrl+W")
        file.addActions([self.new_tab_action, self.close_tab_action])
        file.addSeparator()
        self.connect_action = action("&Connect", self.connect_selected, "Ctrl+K")
        self.disconnect_action = action("&Disconnect", self.disconnect_server, "Ctrl+Shift+K")
        self.reconnect_action = action("&Reconnect", self.reconnect, "Ctrl+R")
        file.addActions([self.connect_action, self.disconnect_action, self.reconnect_action])
        self.check_action = action("C&heck server…", self.open_check, "Ctrl+Shift+H")
        file.addAction(self.check_action)
        file.addSeparator()
        file.addAction(action("&Profiles…", self.open_profiles, "Ctrl+P"))
        file.addAction(action("&Import servers…", self.open_import))
        file.addAction(action("Con&figured servers…", lambda: open_inventory(self)))
        self.recent_menu = file.addMenu("Recent")
        m.mark_tab_groups()
        m.end_file_menu(action("&Quit", self.close, QKeySequence.StandardKey.Quit))
        logm.addAction(action("&Find in log…", lambda: self._log().show_search(), "Ctrl+F"))
        logm.addAction(action("Find &next", lambda: self._log().find_next(), "F3"))
        logm.addAction(action("Find &previous", lambda: self._log().find_previous(), "Shift+F3"))
        logm.addSeparator()
        logm.addAction(action("&Jump to pair", lambda: self._log().detail._jump(), "Ctrl+J"))
        copy_json = action("Copy as &JSON", lambda: self._log().detail.copy_json(), "Ctrl+Shift+C")
        logm.addAction(copy_json)
        logm.addAction(action("Copy as CLI &command", lambda: self._log().detail.copy_cli()))
        logm.addSeparator()
        # (Ctrl+Shift+P is the command palette's, as in most editors.)
        self.pause_action = action("&Pause autoscroll", self._toggle_pause, "Ctrl+Shift+A")
        self.pause_action.setCheckable(True)
        logm.addAction(self.pause_action)
        logm.addAction(action("C&lear log", self.clear_log, "Ctrl+L"))
        logm.addSeparator()
        self.send_raw_action = action("&Send raw…", self.open_composer, "Ctrl+Shift+R")
        logm.addAction(self.send_raw_action)
        self.palette_action = action("Command &palette…", self.open_palette, "Ctrl+Shift+P")
        m.view.addAction(self.palette_action)
        m.view.addSeparator()
        self.tab_keys = TabKeys(self.tabs, m.view, m.action)
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
        self.host_views = HostViews(self, self)  # Host ▸ Playground…, Evals…

    # ---------------------------------------------------------------- profiles
    def all_profiles(self) -> list[Profile]:
        return self.app.profiles.all()

    def profile_by_id(self, profile_id: str | None) -> Profile | None:
        return self.app.profiles.get(profile_id)

    def chosen_profile(self) -> Profile | None:
        """The profile picked in the current tab's connection bar."""
        return self.current_tab.chosen_profile()

    def refresh_profiles(self) -> None:
        for tab in self.connection_tabs():
            tab.refresh_profiles()
        self._fill_recent_menu()

    def _recent(self) -> list[str]:
        value = self.settings.value("recentProfiles", [])
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def _start_profiles(self) -> list[str]:
        """Where a new tab's picker starts: the recent profiles that last connected fine."""
        return self.connect_outcomes.start_candidates(self._recent())

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
        self.refresh_profiles()
        self.current_tab.bar.set_profiles(self.all_profiles(), profile.id)

    # ---------------------------------------------------------------- intents
    def connect_selected(self) -> asyncio.Task[object] | None:
        return self.current_tab.connect_selected()

    def connect_profile(self, profile: Profile) -> asyncio.Task[object] | None:
        return self.current_tab.connect_profile(profile)

    def disconnect_server(self) -> None:
        self.current_tab.disconnect_server()

    def reconnect(self) -> None:
        self.current_tab.reconnect()

    def clear_log(self) -> None:
        self._log().clear()

    def _toggle_pause(self) -> None:
        self._log().set_paused(self.pause_action.isChecked())

    def open_profiles(self) -> None:
        dialog = ProfilesDialog(self.store, self, settings=self.settings)
        current = self.current_tab.bar.current_profile_id()
        if current and self.store.get(current):
            dialog.select(current)
        dialog.connect_requested.connect(self.connect_profile)
        dialog.open()

    def open_import(self) -> None:
        ImportDialog(self.store, self, settings=self.settings).open()

    def open_composer(self) -> None:
        self.current_tab.open_composer()

    def open_check(self) -> CheckDialog | None:
        """The `check` battery against the chosen server, in a window of its own."""
        profile = self.chosen_profile() or self.current_tab.connection.profile
        if profile is None:
            self.statusBar().showMessage("Choose a server to check first.", 6000)
            return None
        from inspector.ui.check.check_dialog import CheckDialog  # httpx: only when asked

        dialog = CheckDialog(profile, self.current_tab.connection.start, self.app.secrets, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        dialog.run()
        return dialog

    def set_theme(self, choice: ThemeChoice) -> None:
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, choice)
            self.settings.setValue("theme", choice)
            self.refresh_colors()

    def refresh_colors(self) -> None:
        """Colors we computed from the palette (highlighting, rows, the state label)."""
        for tab in self.connection_tabs():
            tab.refresh_colors()
        self.strip.refresh_all()

    def about(self) -> None:
        show_about(self)

    # ---------------------------------------------------------------- state
    def restore_state(self) -> None:
        self.window_state.restore()
        self.panels.restore()

    def default_layout(self, tab: ConnectionTab | None = None) -> None:
        """The first-run split (of `tab`, the current one by default)."""
        default_layout(tab or self.current_tab)

    def save_state(self) -> None:
        self.window_state.save()
        self.memory.save(self.connection_tabs(), self.tabs.currentIndex(), layout_state)

    async def wait_closed(self) -> None:
        if self._closed is None:
            self._closed = asyncio.get_running_loop().create_future()
        await self._closed

    async def shutdown(self) -> None:
        """Disconnect every tab's server (and wait for the tabs being closed)."""
        await self.app.shutdown()
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._default_split_done and self.settings.value("mainSplitter") is None:
            # First run: splitter sizes given before the window had its size are rescaled
            # by the stretch factors; lay out again at the real size.
            self._default_split_done = True
            for tab in self.connection_tabs():
                default_layout(tab)

    def closeEvent(self, event: QCloseEvent) -> None:
        for tab in self.connection_tabs():
            tab.session_files.close_replays()  # each stops its replay (and its server)
            if tab.composer is not None:
                tab.composer.close()
        self.save_state()
        if self._closed is not None and not self._closed.done():
            self._closed.set_result(None)
        super().closeEvent(event)

    def central(self) -> QWidget:
        return self.current_tab.main_split
