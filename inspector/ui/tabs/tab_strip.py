"""The window's connection tabs as the user sees them: a closable, movable, renamable tab
per connection, its state at a glance (a coloured dot and the words in its tooltip), a
badge while one of its server asks waits for an answer, and a context menu (Rename,
Close, Compare with ▸ each other tab).

This object only shows the tabs and hears the user; the window opens and closes them
(`close_requested`, `compare_requested`).
"""

from __future__ import annotations

import functools
from typing import Final

from PySide6.QtCore import QObject, QPoint, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QInputDialog, QLineEdit, QMenu, QTabBar, QTabWidget, QWidget

from inspector.ui.tabs.connection_tab import ConnectionTab, TabState
from inspector.ui.tabs.tab_name import MAX_NAME
from inspector.ui.widgets.plain_text import plain_tooltip
from inspector.ui.widgets.theme import colors

__all__ = ["TabStrip", "state_color"]

_DOT: Final = 12
_MAX_TITLE: Final = 32


def state_color(state: str) -> QColor:
    """The dot's colour of a tab state (the theme's, so dark mode reads too)."""
    c = colors()
    if state == TabState.CONNECTED:
        return c.ok
    if state == TabState.CONNECTING:
        return c.warn
    if state in (TabState.FAILED, TabState.LOST):
        return c.error
    return c.muted


def _dot(color: QColor, badge: bool) -> QIcon:
    pixmap = QPixmap(_DOT * 2, _DOT * 2)
    pixmap.setDevicePixelRatio(2.0)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(color)
    if badge:  # a ring around the dot: something waits for the user here
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(colors().warn)
        painter.drawEllipse(1, 1, _DOT - 2, _DOT - 2)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawEllipse(3, 3, _DOT - 6, _DOT - 6)
    else:
        painter.drawEllipse(2, 2, _DOT - 4, _DOT - 4)
    painter.end()
    return QIcon(pixmap)


def _elide(text: str) -> str:
    return text if len(text) <= _MAX_TITLE else text[: _MAX_TITLE - 1] + "…"


def _telling_apart(tabs: list[ConnectionTab]) -> dict[int, str]:
    """Each tab's title as shown, by id(tab): its name, and when another tab has the same
    name, what tells them apart: the transport ("· stdio", "· HTTP") when theirs differ,
    else the profile's name when theirs differ (the user's own name is never changed)."""
    names = {id(t): t.display_title() for t in tabs}
    out = dict(names)
    for tab in tabs:
        if tab.custom_name or tab.offline:
            continue
        twins = [t for t in tabs if t is not tab and names[id(t)] == names[id(tab)]]
        if not twins:
            continue
        mine = tab.transport_label()
        if mine and any(t.transport_label() != mine for t in twins):
            out[id(tab)] = f"{names[id(tab)]} · {mine}"
            continue
        profile = tab.profile_label()
        if (
            profile
            and profile != names[id(tab)]
            and any(t.profile_label() != profile for t in twins)
        ):
            out[id(tab)] = f"{names[id(tab)]} · {profile}"
    return out


class TabStrip(QObject):
    close_requested = Signal(object)  # ConnectionTab
    compare_requested = Signal(object, object)  # ConnectionTab, ConnectionTab
    save_profile_requested = Signal(object)  # ConnectionTab (of a command line or URL)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.widget = QTabWidget()
        self.widget.setObjectName("connectionTabs")
        self.widget.setDocumentMode(True)
        self.widget.setTabsClosable(True)
        self.widget.setMovable(True)
        # One connection looks as it always did; a second tab brings the strip.
        self.widget.setTabBarAutoHide(True)
        self.widget.setElideMode(Qt.TextElideMode.ElideRight)
        self.widget.tabCloseRequested.connect(self._close_at)
        bar = self.widget.tabBar()
        bar.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        bar.customContextMenuRequested.connect(self._context_menu)
        bar.tabBarDoubleClicked.connect(self._double_clicked)
        self.menu: QMenu | None = None  # the last context menu (tests read it)

    # ---------------------------------------------------------------- tabs
    def tabs(self) -> list[ConnectionTab]:
        """The tabs in the order shown (the user may have moved them)."""
        out = []
        for index in range(self.widget.count()):
            tab = self.widget.widget(index)
            if isinstance(tab, ConnectionTab):
                out.append(tab)
        return out

    def add(self, tab: ConnectionTab) -> None:
        self.widget.addTab(tab, tab.display_title())
        tab.changed.connect(functools.partial(self.refresh, tab))
        tab.asks_changed.connect(lambda _n, t=tab: self.refresh(t))
        self.refresh(tab)

    def remove(self, tab: ConnectionTab) -> None:
        index = self.widget.indexOf(tab)
        if index >= 0:
            self.widget.removeTab(index)
        self.refresh_all()  # a twin's name may need no telling apart any more

    def current(self) -> ConnectionTab | None:
        tab = self.widget.currentWidget()
        return tab if isinstance(tab, ConnectionTab) else None

    def title_of(self, tab: ConnectionTab) -> str:
        """The tab's name as its tab shows it (before eliding): with what tells it apart
        from another tab of the same name."""
        return _telling_apart(self.tabs()).get(id(tab), tab.display_title())

    def refresh(self, tab: ConnectionTab) -> None:
        """The tab's title, dot, badge and tooltip, as the tab is now (and the other tabs'
        titles: a name shared with this one now needs telling apart, or no longer does)."""
        index = self.widget.indexOf(tab)
        if index < 0:
            return
        titles = _telling_apart(self.tabs())
        for other in self.tabs():
            self._set_title(other, titles[id(other)])
        self.widget.setTabIcon(index, _dot(state_color(tab.tab_state()), tab.asks_waiting > 0))
        self.widget.setTabToolTip(index, plain_tooltip(tab.tooltip()))
        # Qt's accessibility and tests read the state as words, not only the colour.
        self.widget.tabBar().setTabData(index, tab.tab_state())

    def _set_title(self, tab: ConnectionTab, name: str) -> None:
        index = self.widget.indexOf(tab)
        title = _elide(name)
        if tab.asks_waiting:
            title = f"{title} ({tab.asks_waiting} waiting)"
        self.widget.setTabText(index, title.replace("&", "&&"))

    def refresh_all(self) -> None:
        for tab in self.tabs():
            self.refresh(tab)

    # ---------------------------------------------------------------- the user
    def _close_at(self, index: int) -> None:
        tab = self.widget.widget(index)
        if isinstance(tab, ConnectionTab):
            self.close_requested.emit(tab)

    def _double_clicked(self, index: int) -> None:
        tab = self.widget.widget(index)
        if isinstance(tab, ConnectionTab):
            self.ask_rename(tab)

    def ask_rename(self, tab: ConnectionTab) -> QInputDialog:
        """A small dialog for the tab's name (empty: the automatic name again)."""
        dialog = QInputDialog(self.widget)
        dialog.setObjectName("renameTabDialog")
        dialog.setWindowTitle("Rename tab")
        dialog.setLabelText("Name of this tab (empty: the server's name):")
        dialog.setTextEchoMode(QLineEdit.EchoMode.Normal)
        dialog.setTextValue(tab.custom_name or tab.display_title())
        edit = dialog.findChild(QLineEdit)
        if edit is not None:  # a longer name is cut anyway (`clean_tab_name`)
            edit.setMaxLength(MAX_NAME)
        dialog.textValueSelected.connect(tab.rename)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def context_menu_for(self, tab: ConnectionTab) -> QMenu:
        """Rename, Save as profile (a tab of a command line or URL), Compare with ▸ each
        other tab, Close."""
        menu = QMenu(self.widget)
        menu.setObjectName("tabContextMenu")
        menu.addAction("&Rename…", lambda: self.ask_rename(tab))
        if tab.unsaved_target():
            menu.addAction("&Save as profile…", lambda: self.save_profile_requested.emit(tab))
        compare = menu.addMenu("&Compare with")
        compare.setObjectName("compareWithMenu")
        others = [t for t in self.tabs() if t is not tab]
        for other in others:
            compare.addAction(
                other.display_title().replace("&", "&&"),
                functools.partial(self.compare_requested.emit, tab, other),
            )
        compare.setEnabled(bool(others))
        menu.addSeparator()
        menu.addAction("&Close tab", lambda: self.close_requested.emit(tab))
        self.menu = menu
        return menu

    def _context_menu(self, pos: QPoint) -> None:
        bar: QTabBar = self.widget.tabBar()
        index = bar.tabAt(pos)
        tab = self.widget.widget(index) if index >= 0 else None
        if isinstance(tab, ConnectionTab):
            self.context_menu_for(tab).popup(bar.mapToGlobal(pos))
