"""Help: the keyboard shortcuts, the guide shipped with the app, "Report a problem", About.

The shortcuts are read from the window's own actions when the list is opened, so the list
is never out of date. The guide is the README and docs/ of this copy of the app, shown in
the app (Markdown, no HTML, nothing loaded) with a button to open the folder. "Report a
problem" copies what a bug report needs: app, Python, Qt and PySide6 versions, the
platform and the Qt platform plugin.
"""

from __future__ import annotations

import platform
import sys
from pathlib import Path
from typing import Final

import PySide6
from PySide6.QtCore import Qt, QUrl, qVersion
from PySide6.QtGui import QAction, QDesktopServices, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector import __version__
from inspector.ui.content.panes import SafeMarkdownBrowser
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.screen_fit import fit_to_screen

__all__ = [
    "docs_dir",
    "problem_report",
    "report_problem",
    "shortcut_rows",
    "show_about",
    "show_guide",
    "show_shortcuts",
]

_REPO: Final = Path(__file__).resolve().parents[3]
# Keys that belong to one view, not to a window action.
_VIEW_KEYS: Final = (
    ("Go to tab 1 … 9", "Alt+1 … Alt+9"),
    ("Call the tool, get the prompt, read the resource (in its form)", "Ctrl+Enter"),
    ("Open the first match (in a catalog search box)", "Enter"),
    ("Close the Find bar (in the traffic log)", "Esc"),
    ("Find next / previous (in the Find bar)", "Enter / Shift+Enter"),
)


def docs_dir() -> Path | None:
    """The folder holding README.md and docs/ for this copy of the app, if it has them."""
    for folder in (_REPO, Path(sys.prefix) / "share" / "mcp-inspector-qt"):
        if (folder / "README.md").is_file():
            return folder
    return None


def _menu_actions(menu: QMenu) -> list[QAction]:
    out = []
    for action in menu.actions():
        sub = action.menu()
        out.extend(_menu_actions(sub) if isinstance(sub, QMenu) else [action])
    return out


def shortcut_rows(window: QMainWindow) -> list[tuple[str, str]]:
    """(what, keys) for every window action with a shortcut and every action of the menu
    bar's menus (the current tab's Watch and Client menus among them), then the keys of
    the views. An action with several keys lists them all ("Ctrl+Tab, Ctrl+PgDown")."""
    rows: dict[str, str] = {}
    menus = [a.menu() for a in window.menuBar().actions()]
    found = [*window.actions()]
    for menu in menus:
        if isinstance(menu, QMenu):
            found.extend(_menu_actions(menu))
    for action in found:
        keys = ", ".join(
            k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts()
        )
        if keys and action.text():
            rows.setdefault(action.text().replace("&", "").rstrip("…").strip(), keys)
    return sorted(rows.items(), key=lambda r: r[0].lower()) + list(_VIEW_KEYS)


def problem_report() -> str:
    app = QGuiApplication.instance()
    platform_name = QGuiApplication.platformName() if app is not None else "?"
    return "\n".join(
        [
            f"MCP Inspector (Qt) {__version__}",
            f"Python {platform.python_version()} ({platform.python_implementation()})",
            f"Qt {qVersion()}, PySide6 {PySide6.__version__}, Qt platform {platform_name}",
            f"Platform {platform.platform()}",
        ]
    )


class ShortcutsDialog(QDialog):
    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.setWindowTitle("Keyboard shortcuts")
        self.table = QTreeWidget()
        self.table.setRootIsDecorated(False)
        self.table.setHeaderLabels(["Action", "Keys"])
        for what, keys in shortcut_rows(window):
            self.table.addTopLevelItem(QTreeWidgetItem([what, keys]))
        self.table.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.header().setStretchLastSection(False)
        self.table.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        fit_to_screen(self, 560, 620)


class GuideDialog(QDialog):
    """The README of this copy of the app, rendered; a button opens the docs folder."""

    def __init__(self, parent: QWidget, folder: Path | None) -> None:
        super().__init__(parent)
        self.setWindowTitle("User guide")
        self.folder = folder
        self.browser = SafeMarkdownBrowser()
        layout = QVBoxLayout(self)
        if folder is None:
            layout.addWidget(
                PlainLabel(
                    "The guide is not installed with this copy of the app (no README.md "
                    "next to it).",
                    wrap=True,
                )
            )
        else:
            self.browser.set_markdown((folder / "README.md").read_text(encoding="utf-8"))
            layout.addWidget(PlainLabel(str(folder / "README.md"), selectable=True))
        layout.addWidget(self.browser, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.open_folder = QPushButton("Open the docs folder")
        self.open_folder.setEnabled(folder is not None and (folder / "docs").is_dir())
        self.open_folder.clicked.connect(self._open_folder)
        buttons.addButton(self.open_folder, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        fit_to_screen(self, 860, 700)

    def _open_folder(self) -> None:
        if self.folder is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.folder / "docs")))


def show_shortcuts(window: QMainWindow) -> ShortcutsDialog:
    dialog = ShortcutsDialog(window)
    dialog.open()
    return dialog


def show_guide(window: QMainWindow) -> GuideDialog:
    dialog = GuideDialog(window, docs_dir())
    dialog.open()
    return dialog


def report_problem(window: QMainWindow) -> QMessageBox:
    text = problem_report()
    QGuiApplication.clipboard().setText(text)
    box = QMessageBox(window)
    box.setWindowTitle("Report a problem")
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText("Copied to the clipboard; paste it into your report:\n\n" + text)
    box.setInformativeText(
        "Say what you did, what you expected and what happened; a recording of the "
        "session (File ▸ Save session as…) helps most."
    )
    box.open()
    return box


def show_about(parent: QWidget) -> QMessageBox:
    box = QMessageBox(parent)
    box.setWindowTitle("About MCP Inspector")
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(
        f"MCP Inspector (Qt) {__version__}\n\nA native debugger for Model Context Protocol "
        "servers. No local proxy, no listening socket."
    )
    box.open()
    return box
