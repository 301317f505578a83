"""What the command palette offers in the main window, as plain `PaletteEntry`s: every
enabled action of the menus (and the window's other shortcuts) with its keys, the current
tab's tools, resources, templates and prompts, the open tabs and the recent session files.

Built each time the palette opens (what is enabled, the catalog and the tabs change). The
entries act as a person would: an action is triggered, a catalog item is selected in the
explorer and opened in the workspace, a tab is made current, a session file is opened.
"""

from __future__ import annotations

import functools
import heapq
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Final, Protocol

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar, QStatusBar, QTabWidget

from inspector.core.inspector_model import InspectorModel
from inspector.features.catalog.lists import KINDS, CatalogKind
from inspector.ui.palette.entries import PaletteEntry, plain_title
from inspector.ui.recording.session_files import SessionFiles
from inspector.ui.tabs.connection_tab import ConnectionTab
from inspector.ui.tabs.tab_strip import TabStrip

__all__ = ["MAX_SESSIONS", "PaletteWindow", "palette_entries"]


class PaletteWindow(Protocol):
    """What the palette's entries need of the main window (MainWindow is one)."""

    app: InspectorModel
    strip: TabStrip
    tabs: QTabWidget

    @property
    def current_tab(self) -> ConnectionTab: ...

    def menuBar(self) -> QMenuBar: ...
    def statusBar(self) -> QStatusBar: ...
    def actions(self) -> list[QAction]: ...
    def connection_tabs(self) -> list[ConnectionTab]: ...
    def recording_target(self) -> SessionFiles: ...


MAX_SESSIONS: Final = 20  # the newest recorded sessions offered
_KIND_WORD: Final[dict[CatalogKind, str]] = {
    "tools": "Tool",
    "resources": "Resource",
    "templates": "Template",
    "prompts": "Prompt",
}
_SESSION_SUFFIXES: Final = (".jsonl", ".jsonl.gz", ".jsonl.zst")


def palette_entries(window: PaletteWindow, skip: QAction | None = None) -> list[PaletteEntry]:
    """Everything the palette lists, actions first (they win ties), then the tabs, the
    recent sessions and the current tab's catalog. `skip`: the palette's own action."""
    entries = list(_actions(window, skip))
    entries += _tabs(window)
    entries += _sessions(window)
    entries += _catalog(window, window.current_tab)
    return entries


def _text(action: QAction) -> str:
    return action.text().replace("&&", "\0").replace("&", "").replace("\0", "&").strip()


def _menu_actions(menu: QMenu, path: str) -> Iterator[tuple[str, QAction]]:
    for action in menu.actions():
        if action.isSeparator() or not action.isVisible():
            continue
        sub = action.menu()
        if isinstance(sub, QMenu):
            yield from _menu_actions(sub, f"{path}: {_text(action)}")
        else:
            yield path, action


def _actions(window: PaletteWindow, skip: QAction | None) -> Iterator[PaletteEntry]:
    seen: set[int] = set()
    found: list[tuple[str, QAction]] = []
    for top in window.menuBar().actions():
        menu = top.menu()
        if isinstance(menu, QMenu) and top.isVisible():
            found.extend(_menu_actions(menu, _text(top)))
    found += [("", a) for a in window.actions() if not a.isSeparator() and a.menu() is None]
    for path, action in found:
        text = _text(action)
        if id(action) in seen or action is skip or not text or not action.isEnabled():
            continue
        seen.add(id(action))
        keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        title = f"{path}: {text}" if path else text
        state = ""
        if action.isCheckable():
            state = " (on)" if action.isChecked() else " (off)"
        yield PaletteEntry(
            plain_title(title.rstrip("…") + state),
            "Action",
            action.trigger,
            keys,
            plain_title(action.toolTip() or text),
        )


def _tabs(window: PaletteWindow) -> list[PaletteEntry]:
    out: list[PaletteEntry] = []
    current = window.strip.current()
    for tab in window.connection_tabs():
        here = " (current)" if tab is current else ""
        out.append(
            PaletteEntry(
                plain_title(f"Tab: {tab.display_title()}{here}"),
                "Tab",
                functools.partial(window.tabs.setCurrentWidget, tab),
            )
        )
    return out


def _sessions(window: PaletteWindow) -> list[PaletteEntry]:
    """The newest session files of the recordings folder (a missing or unreadable folder:
    none)."""
    try:
        folder = window.app.sessions_folder()
        with os.scandir(folder) as scan:
            files = [
                (e.stat().st_mtime, e.path)
                for e in scan
                if e.name.endswith(_SESSION_SUFFIXES) and e.is_file()
            ]
    except OSError:
        return []
    newest = heapq.nlargest(MAX_SESSIONS, files)

    def open_session(path: Path) -> None:
        window.recording_target().open_session(path)

    return [
        PaletteEntry(
            plain_title(f"Open session: {Path(path).name}"),
            "Session",
            functools.partial(open_session, Path(path)),
            detail=plain_title(path),
        )
        for _mtime, path in newest
    ]


def _catalog(window: PaletteWindow, tab: ConnectionTab) -> list[PaletteEntry]:
    """The tab's listed items (what the explorer shows; more pages are not loaded): the
    name (a resource's URI), and its title when it has another."""
    out: list[PaletteEntry] = []
    catalog = tab.controller.model.catalog
    for kind in KINDS:
        word = _KIND_WORD[kind]
        for item in catalog[kind]:
            title = item.title
            same = not title or title.casefold() == item.key.casefold()
            shown = item.key if same else f"{title} — {item.key}"
            out.append(
                PaletteEntry(
                    plain_title(shown),
                    word,
                    functools.partial(_open_item, window, tab, kind, item.key),
                )
            )
    return out


def _open_item(window: PaletteWindow, tab: ConnectionTab, kind: CatalogKind, key: str) -> None:
    """As a click in the explorer: the item selected there and shown in the workspace."""
    item = tab.controller.model.catalog[kind].find(key)
    if item is None:  # re-listed away since the palette opened
        window.statusBar().showMessage(f"{_KIND_WORD[kind]} {key!r} is no longer listed", 6000)
        return
    tab.explorer.select(kind, key)
    tab.workspace.show_item(item)
    tab.centre.setCurrentWidget(tab.workspace)
