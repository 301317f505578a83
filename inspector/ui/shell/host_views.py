"""The window's Host menu: the Playground (a model that calls the open tabs' tools) and the
Evals view, each a window of its own made when first opened (and imported then: the cold
start loads neither).

The views see the open tabs as `PlaygroundTab`s built here from the connection tabs: the
name the tab shows, its state, its connection while ready, its recording (to keep a
conversation in) and its traffic log (a card's "Show in traffic log" makes the tab current
and selects the call's request).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMenu, QTabWidget, QWidget

from inspector.core.inspector_model import InspectorModel
from inspector.storage.secrets import SecretStore
from inspector.ui.shell.menus import WindowMenus
from inspector.ui.tabs.connection_tab import ConnectionTab
from inspector.ui.tabs.tab_strip import TabStrip

if TYPE_CHECKING:
    from inspector.ui.evals.evals_window import EvalsWindow
    from inspector.ui.playground.playground_window import PlaygroundWindow
    from inspector.ui.playground.tab_tools import PlaygroundTab

__all__ = ["HostViews"]


class HostWindow(Protocol):
    """What of the main window the Host menu uses (the window is given, not imported)."""

    app: InspectorModel
    settings: QSettings
    menus: WindowMenus
    strip: TabStrip
    tabs: QTabWidget
    tab_opened: Any  # Signal(ConnectionTab)
    tab_closed: Any  # Signal(ConnectionTab)

    def connection_tabs(self) -> list[ConnectionTab]: ...

    def raise_(self) -> None: ...

    def activateWindow(self) -> None: ...


class HostViews:
    def __init__(self, window: HostWindow, widget: QWidget) -> None:
        """`widget`: the window again, as the parent of the views' windows."""
        self.window = window
        self.widget = widget
        self.playground: PlaygroundWindow | None = None
        self.evals: EvalsWindow | None = None
        self.menu = QMenu("&Host", widget)
        self.menu.setObjectName("hostMenu")
        self.playground_action = window.menus.action(
            "&Playground…", self.open_playground, "Ctrl+Shift+G"
        )
        self.menu.addAction(self.playground_action)
        self.evals_action = window.menus.action("&Evals…", self.open_evals, "Ctrl+Shift+E")
        self.menu.addAction(self.evals_action)
        window.menus.add_before_help(self.menu)
        window.tab_opened.connect(self._tab_opened)
        window.tab_closed.connect(lambda _tab: self._tabs_changed())

    # ---------------------------------------------------------------- the tabs
    def _tab_opened(self, tab: ConnectionTab) -> None:
        tab.changed.connect(self._tabs_changed)
        self._tabs_changed()

    def _tabs_changed(self) -> None:
        for view in (self.playground, self.evals):
            if view is not None:
                view.choices.refresh_tabs()

    def host_tabs(self) -> list[PlaygroundTab]:
        from inspector.ui.playground.tab_tools import PlaygroundTab

        out = []
        for tab in self.window.connection_tabs():
            if tab.offline:
                continue  # a recording shown read-only has no tools to call
            model = tab.controller.model
            out.append(
                PlaygroundTab(
                    name=self.window.strip.title_of(tab),
                    state=str(model.state),
                    server=model.ready_server,
                    record=functools.partial(self._record, tab),
                    reveal=functools.partial(self._reveal, tab),
                )
            )
        return out

    @staticmethod
    def _record(tab: ConnectionTab, conversation_id: str, data: dict[str, Any]) -> bool:
        return tab.session_files.recorder.conversation(conversation_id, data)

    def _reveal(self, tab: ConnectionTab, request_id: str | int) -> bool:
        from inspector.ui.playground.traffic_link import reveal_request

        if tab not in self.window.connection_tabs():
            return False
        self.window.tabs.setCurrentWidget(tab)
        tab.centre.setCurrentWidget(tab.log_panel)  # its Traffic view, not the Workspace
        self.window.raise_()
        self.window.activateWindow()
        return reveal_request(tab.log_panel, request_id)

    # ---------------------------------------------------------------- the views
    def open_playground(self) -> PlaygroundWindow:
        """Host ▸ Playground… (Ctrl+Shift+G): one Playground window, shown again if open."""
        from inspector.ui.playground.playground_window import PlaygroundWindow

        if self.playground is None:
            self.playground = PlaygroundWindow(
                self.host_tabs,
                self.window.app.secrets or SecretStore(),
                store=self.window.settings,
                parent=self.widget,
            )
        playground = self.playground
        playground.choices.refresh_tabs()
        playground.choices.reload_providers()
        playground.show()
        playground.raise_()
        playground.activateWindow()
        playground.prompt.setFocus()
        return playground

    def open_evals(self) -> EvalsWindow:
        """Host ▸ Evals… (Ctrl+Shift+E): one Evals window, shown again if open."""
        from inspector.ui.evals.evals_window import EvalsWindow

        if self.evals is None:
            self.evals = EvalsWindow(
                self.host_tabs, self.window.app.secrets or SecretStore(), parent=self.widget
            )
        evals = self.evals
        evals.choices.refresh_tabs()
        evals.choices.reload_providers()
        evals.show()
        evals.raise_()
        evals.activateWindow()
        return evals
