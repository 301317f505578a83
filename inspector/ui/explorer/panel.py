"""The explorer (left side of the main window): server info (folded), the rug-pull alert,
a transient "what changed" banner, and one tab per kind (tools, resources, templates,
prompts). It adapts the controller's Qt-free catalog and sends intents back to it."""

from __future__ import annotations

import functools
from typing import Final

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QPushButton,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.features.catalog.lists import KINDS, CatalogKind, ListDiff
from inspector.protocol.machine.events import SessionReady
from inspector.ui.controller.connection_controller import ConnectionController, ConnState
from inspector.ui.explorer.pane import NOUNS, CatalogPane
from inspector.ui.explorer.pin_dialog import PinDiffDialog
from inspector.ui.explorer.server_panel import ServerInfoPanel
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["AUTO_RELIST_KEY", "Banner", "ExplorerPanel"]

AUTO_RELIST_KEY: Final = "explorer/autoRelist"
SERVER_EXPANDED_KEY: Final = "explorer/serverExpanded"
BANNER_MS: Final = 12000


class Banner(QFrame):
    """A one-line notice with an optional action button and a close button."""

    def __init__(self, name: str, action: str | None = None) -> None:
        super().__init__()
        self.setObjectName(name)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.label = PlainLabel(wrap=True)
        self.action = QPushButton(action) if action else None
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip("Hide")
        self.close_button.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.addWidget(self.label, 1)
        if self.action is not None:
            layout.addWidget(self.action, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    def show_text(self, text: str, tone: str) -> None:
        c = colors()
        color = {"error": c.error, "warn": c.warn, "ok": c.ok}.get(tone, c.out)
        name = self.objectName()
        self.setStyleSheet(
            f"QFrame#{name} {{ border: 1px solid {color.name()}; border-radius: 4px; "
            f"background: rgba({color.red()}, {color.green()}, {color.blue()}, 30); }}"
        )
        self.label.setText(text)
        self.show()


class ExplorerPanel(QWidget):
    item_selected = Signal(object)  # CatalogItem

    def __init__(self, controller: ConnectionController, settings: QSettings) -> None:
        super().__init__()
        self.setObjectName("explorer")
        self.controller = controller
        self.settings = settings
        self.server = ServerInfoPanel()
        self.pin_banner = Banner("pinBanner", "Review…")
        assert self.pin_banner.action is not None
        self.pin_banner.action.clicked.connect(self.show_pin_diff)
        self.change_banner = Banner("changeBanner")
        self._banner_timer = QTimer(self)
        self._banner_timer.setSingleShot(True)
        self._banner_timer.timeout.connect(self.change_banner.hide)
        self.pin_dialog: PinDiffDialog | None = None

        self.tabs = QTabWidget()
        self.tabs.setObjectName("explorerTabs")
        self.tabs.setDocumentMode(True)
        # Narrow explorer: the tab titles drop their counts (the status line has them) so
        # all four stay readable; no scroll arrows.
        self.tabs.setUsesScrollButtons(False)
        self.tabs.setElideMode(Qt.TextElideMode.ElideRight)
        self._titles: dict[CatalogKind, tuple[str, str]] = {}  # full, compact
        self.panes: dict[CatalogKind, CatalogPane] = {}
        for kind in KINDS:
            pane = CatalogPane(controller.model.catalog[kind])
            self.panes[kind] = pane
            self.tabs.addTab(pane, NOUNS[kind][2])
            pane.selected.connect(self.item_selected)
            loader = controller.model.catalog_loader
            pane.refresh_requested.connect(functools.partial(loader.reload, kind))
            pane.more_requested.connect(functools.partial(loader.load_more, kind))
            pane.all_requested.connect(functools.partial(loader.load_all, kind))
            controller.model.catalog[kind].on_change(functools.partial(self._list_changed, kind))
            self._update_tab(kind)

        self.auto_relist = QCheckBox("Re-list automatically on list_changed")
        self.auto_relist.setObjectName("autoRelist")
        self.auto_relist.setToolTip(
            "When the server says a list changed (a list_changed notification, or a "
            "subscription event in the modern era), list it again at once. Off: the list is "
            "marked stale until you press Refresh."
        )
        self.auto_relist.setChecked(_bool(settings.value(AUTO_RELIST_KEY, True)))
        self.auto_relist.toggled.connect(self._auto_relist_toggled)
        controller.model.catalog_loader.auto_relist = self.auto_relist.isChecked()

        self.server.set_expanded(_bool(settings.value(SERVER_EXPANDED_KEY, False)))
        self.server.expanded_changed.connect(
            lambda on: self.settings.setValue(SERVER_EXPANDED_KEY, on)
        )
        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        line.setFrameShadow(QFrame.Shadow.Sunken)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 4)
        layout.setSpacing(4)
        layout.addWidget(self.server)
        layout.addWidget(line)
        layout.addWidget(self.pin_banner)
        layout.addWidget(self.change_banner)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.auto_relist)

        controller.state_changed.connect(self._state_changed)
        controller.server_ready.connect(self._server_ready)
        controller.catalog_relisted.connect(self._relisted)
        controller.pins_changed.connect(self._pins_changed)

    # ---------------------------------------------------------------- controller
    def _state_changed(self, state: str, _detail: str) -> None:
        connected = ConnState(state) is ConnState.CONNECTED
        for pane in self.panes.values():
            pane.set_connected(connected)
        if ConnState(state) is ConnState.CONNECTING:
            self.change_banner.hide()

    def _server_ready(self, _ready: SessionReady) -> None:
        session = self.controller.model.server
        mirror = session is not None and session.mirrors_tool_headers
        self.panes["tools"].model.set_mirror_headers(mirror)

    def _relisted(self, kind: str, diff: object) -> None:
        if kind not in self.panes or not isinstance(diff, ListDiff):
            return
        title = NOUNS[kind][2]
        self.change_banner.show_text(f"{title} re-listed: {diff.describe()}", "info")
        self._banner_timer.start(BANNER_MS)

    def _pins_changed(self) -> None:
        alerts = self.controller.model.catalog_loader.pin_alerts
        self.panes["tools"].model.set_pin_alerts(frozenset(alerts))
        if alerts:
            names = ", ".join(sorted(alerts))
            count = len(alerts)
            self.pin_banner.show_text(
                f"⚠ {count} tool{'s' if count != 1 else ''} changed since pinned: {names}",
                "error",
            )
        else:
            self.pin_banner.hide()
        if self.pin_dialog is not None and self.pin_dialog.isVisible():
            self.pin_dialog.set_changes(list(alerts.values()))
            if not alerts:
                self.pin_dialog.accept()

    def _auto_relist_toggled(self, on: bool) -> None:
        self.settings.setValue(AUTO_RELIST_KEY, on)
        self.controller.model.catalog_loader.auto_relist = on

    # ---------------------------------------------------------------- tabs
    def _list_changed(self, kind: CatalogKind, _lst: object) -> None:
        self._update_tab(kind)

    def _update_tab(self, kind: CatalogKind) -> None:
        lst = self.controller.model.catalog[kind]
        name = NOUNS[kind][2]
        title = name
        if lst.loaded or lst.items:
            title += f" {len(lst)}{'+' if lst.has_more else ''}"
        mark = " •" if lst.stale or lst.error else ""
        self._titles[kind] = (title + mark, name + mark)
        index = self.tabs.indexOf(self.panes[kind])
        tip = "stale: re-list to refresh" if lst.stale else lst.error or lst.absent or ""
        self.tabs.setTabToolTip(index, f"{title}{' — ' if tip else ''}{tip}")
        self._fit_titles()

    def _fit_titles(self) -> None:
        bar = self.tabs.tabBar()
        for compact in (False, True):
            for kind, titles in self._titles.items():
                self.tabs.setTabText(self.tabs.indexOf(self.panes[kind]), titles[compact])
            if bar.sizeHint().width() <= max(self.tabs.width(), 1) or not self.isVisible():
                return

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_titles()

    def show_kind(self, kind: CatalogKind) -> None:
        self.tabs.setCurrentWidget(self.panes[kind])

    def select(self, kind: CatalogKind, key: str) -> bool:
        self.show_kind(kind)
        return self.panes[kind].select_key(key)

    def tool_names(self) -> list[str]:
        return self.panes["tools"].tool_names()

    def refresh_colors(self) -> None:
        for pane in self.panes.values():
            pane.model.refresh_colors()
            pane.update_state()

    # ---------------------------------------------------------------- pins
    def show_pin_diff(self, name: str | None = None) -> PinDiffDialog:
        loader = self.controller.model.catalog_loader
        if self.pin_dialog is None:
            self.pin_dialog = PinDiffDialog(self)
            self.pin_dialog.accepted_tool.connect(loader.accept_pin)
            self.pin_dialog.accepted_all.connect(loader.accept_all_pins)
        self.pin_dialog.set_changes(list(loader.pin_alerts.values()), name)
        self.pin_dialog.open()
        return self.pin_dialog


def _bool(value: object) -> bool:
    if isinstance(value, str):
        return value.lower() in ("true", "1", "yes")
    return bool(value)
