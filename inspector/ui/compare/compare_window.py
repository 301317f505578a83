"""The compare window: two connections' catalogs side by side.

It is given two `ConnectionModel`s (two tabs of the main window, or any two connections of
the InspectorModel) and their titles. "Refresh" lists everything on both servers at once (all
pages, over each connection's own session, so the requests show in each tab's traffic
log), and the Qt-free `inspector.compare` diffs them. The tree marks each item added,
removed, changed or the same; a picked item shows its structural diff (JSON Pointer
paths, old and new values, both definitions side by side). "Run on both" sends one call
to both servers. A side that is not connected, or fails mid-listing, says which and why;
the other side's listing stays (its items "not compared").
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.common.tasks import task_failure
from inspector.compare import (
    CatalogDiff,
    CatalogSnapshot,
    RunKind,
    describe_side,
    diff_catalogs,
    diff_text,
    snapshot_from_session,
)
from inspector.core.connection_state import ConnState
from inspector.core.server_connection import ServerConnection
from inspector.features.catalog.lists import KINDS, CatalogKind
from inspector.ui.compare.diff_tree import INFO_KEY, CatalogDiffTree
from inspector.ui.compare.run_both_panel import RunBothPanel
from inspector.ui.recording.diff_view import SideBySideView
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.split_panes import split_panes

if TYPE_CHECKING:
    from inspector.core.connection import ConnectionModel

__all__ = ["CompareWindow", "open_compare"]

log = logging.getLogger(__name__)

_RUN_KIND: dict[CatalogKind, RunKind] = {
    "tools": "tool",
    "resources": "resource",
    "prompts": "prompt",
}


def _unreached(why: str) -> CatalogSnapshot:
    """A side with nothing listed: its kinds are incomplete, so the other side's items
    are 'not compared' rather than 'added' or 'removed'."""
    return CatalogSnapshot(errors={kind: why for kind in KINDS})


class CompareWindow(QWidget):
    def __init__(
        self,
        left: ConnectionModel,
        right: ConnectionModel,
        left_title: str,
        right_title: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("compareWindow")
        self.setWindowTitle(f"Compare: {left_title} ↔ {right_title}")
        self.left, self.right = left, right
        self.titles = (left_title, right_title)
        self.diff: CatalogDiff | None = None
        self.side_errors: dict[str, str | None] = {"left": None, "right": None}
        self.task: asyncio.Task[None] | None = None
        self.stale: list[str] = []  # what changed on a side since the last listing
        self._unsubscribe = [
            left.state_changed.add(lambda *_: self._state_changed()),
            right.state_changed.add(lambda *_: self._state_changed()),
            left.relisted.add(lambda kind, _d: self._relisted("left", kind)),
            right.relisted.add(lambda kind, _d: self._relisted("right", kind)),
        ]

        self.left_label = PlainLabel(wrap=True, selectable=True)
        self.left_label.setObjectName("compareLeft")
        self.right_label = PlainLabel(wrap=True, selectable=True)
        self.right_label.setObjectName("compareRight")
        self.summary = PlainLabel(wrap=True)
        self.summary.setObjectName("compareSummary")
        self.refresh_button = QPushButton("Refresh")
        self.refresh_button.setObjectName("compareRefresh")
        self.refresh_button.setToolTip("List everything on both servers again and compare")
        self.copy_button = QPushButton("Copy report")
        self.copy_button.setObjectName("compareCopy")
        self.copy_button.setToolTip("Copy the differences as text (what `diff` prints)")
        self.copy_button.setEnabled(False)
        self.show_same = QCheckBox("Show unchanged items")
        self.show_same.setChecked(True)

        self.tree = CatalogDiffTree()
        self.detail = SideBySideView(
            "Changes",
            "No change: the definitions are the same.",
            titles=self.titles,
            waiting="Pick an item to compare its two sides.",
        )
        self.detail_title = PlainLabel(wrap=True)
        self.detail_title.setObjectName("compareDetailTitle")
        detail_box = QWidget()
        detail_layout = QVBoxLayout(detail_box)
        detail_layout.setContentsMargins(0, 0, 0, 0)
        detail_layout.addWidget(self.detail_title)
        detail_layout.addWidget(self.detail, 1)
        split = split_panes(
            Qt.Orientation.Horizontal, [self.tree, detail_box], stretch=(2, 3), sizes=(440, 760)
        )

        self.run_both = RunBothPanel(self._sessions, self.titles, self._definition)
        self.tabs = QTabWidget()
        self.tabs.addTab(split, "Catalog")
        self.tabs.addTab(self.run_both, "Run on both")

        sides = QHBoxLayout()
        sides.addWidget(self.left_label, 1)
        sides.addWidget(self.right_label, 1)
        bar = QHBoxLayout()
        bar.addWidget(self.summary, 1)
        bar.addWidget(self.show_same)
        bar.addWidget(self.copy_button)
        bar.addWidget(self.refresh_button)
        layout = QVBoxLayout(self)
        layout.addLayout(sides)
        layout.addLayout(bar)
        layout.addWidget(self.tabs, 1)

        self.refresh_button.clicked.connect(self.refresh)
        self.copy_button.clicked.connect(self.copy_report)
        self.show_same.toggled.connect(self.tree.set_show_same)
        self.tree.picked.connect(self.show_item)
        self.resize(1200, 760)
        self._show_sides()

    # -- the two sides ------------------------------------------------------------------------
    def _sessions(self) -> tuple[ServerConnection | None, ServerConnection | None]:
        return self._session(self.left), self._session(self.right)

    @staticmethod
    def _session(conn: ConnectionModel) -> ServerConnection | None:
        return conn.ready_server()

    @staticmethod
    def _why_not(conn: ConnectionModel) -> str:
        if conn.state is ConnState.CONNECTED:
            return "the session is not ready"
        detail = f": {conn.detail}" if conn.detail else ""
        return f"not connected ({conn.state.value}{detail})"

    def _state_changed(self) -> None:
        self._show_sides()
        for conn in (self.left, self.right):
            # A side that just connected: compare again (a refresh under way is enough).
            if conn.state is ConnState.CONNECTED and (self.task is None or self.task.done()):
                name = "left" if conn is self.left else "right"
                if self.side_errors[name] is not None or self.diff is None:
                    self.refresh()
                    return

    def _relisted(self, side: str, kind: str) -> None:
        """A side's catalog changed (list_changed, re-listed in its tab): say so; the
        comparison is only redone on Refresh, so what is shown does not move under the
        reader."""
        note = f"{kind} on the {side}"
        if self.diff is None or note in self.stale:
            return
        self.stale.append(note)
        self.summary.setText(
            self._summary(self.diff) + f" Changed since: {', '.join(self.stale)}; Refresh."
        )

    def _show_sides(self) -> None:
        for name, label, conn, title in (
            ("left", self.left_label, self.left, self.titles[0]),
            ("right", self.right_label, self.right, self.titles[1]),
        ):
            snap = self._snapshot_of(name)
            error = self.side_errors[name]
            if self._session(conn) is None and error is None:
                error = self._why_not(conn)
            lines = [f"{name.capitalize()}: {title}"]
            if snap is not None and snap.server_info:
                lines.append(describe_side(snap))
            if error:
                lines.append(f"⚠ {error}")
            label.setText("\n".join(lines))

    def _snapshot_of(self, name: str) -> CatalogSnapshot | None:
        if self.diff is None:
            return None
        snap = self.diff.left if name == "left" else self.diff.right
        return snap if snap.server_info or snap.counts() != dict.fromkeys(KINDS, 0) else None

    # -- refresh ------------------------------------------------------------------------------
    def refresh(self) -> asyncio.Task[None]:
        """List both sides again (concurrently) and show the diff. Returns the task."""
        if self.task is not None and not self.task.done():
            return self.task
        self.task = asyncio.ensure_future(self._refresh())
        self.task.add_done_callback(self._refreshed)
        return self.task

    async def _refresh(self) -> None:
        self.refresh_button.setEnabled(False)
        self.summary.setText("Listing both servers…")
        try:
            left, right = await asyncio.gather(self._list("left"), self._list("right"))
        finally:
            self.refresh_button.setEnabled(True)
        self.set_diff(diff_catalogs(left, right))

    async def _list(self, name: str) -> CatalogSnapshot:
        conn = self.left if name == "left" else self.right
        session = self._session(conn)
        if session is None:
            self.side_errors[name] = self._why_not(conn)
            return _unreached(self.side_errors[name] or "")
        snap = await snapshot_from_session(session)
        if snap.errors:
            kind, why = next(iter(snap.errors.items()))
            self.side_errors[name] = f"listing {kind} failed: {why}"
        else:
            self.side_errors[name] = None
        return snap

    def _refreshed(self, task: asyncio.Task[None]) -> None:
        exc = task_failure(task)
        if exc is not None:
            log.error("compare refresh failed", exc_info=exc)
            self.summary.setText(f"The comparison failed: {exc}")

    def set_diff(self, diff: CatalogDiff) -> None:
        self.diff = diff
        self.stale = []
        self.copy_button.setEnabled(True)
        self.tree.set_diff(diff)
        self._show_sides()
        self.summary.setText(self._summary(diff))
        names: dict[RunKind, list[str]] = {"tool": [], "resource": [], "prompt": []}
        for kind, run_kind in _RUN_KIND.items():
            names[run_kind] = sorted({i.key for i in diff.of_kind(kind)}, key=str.lower)
        self.run_both.set_names(names)
        if self.tree.currentItem() is None:
            first = next(iter(diff.differences), None)
            if first is not None:
                self.tree.select(first.kind, first.key)
            elif diff.info:
                self.tree.select(INFO_KEY, "")

    def copy_report(self) -> str:
        """The differences as text, on the clipboard (and returned)."""
        if self.diff is None:
            return ""
        text = diff_text(self.diff)
        QGuiApplication.clipboard().setText(text)
        return text

    @staticmethod
    def _summary(diff: CatalogDiff) -> str:
        if diff.same:
            return "The catalogs are the same."
        counts = diff.counts()
        parts = []
        for status in ("added", "removed", "changed"):
            n = sum(c[status] for c in counts.values())
            if n:
                parts.append(f"{n} {status}")
        if diff.info:
            parts.append("server info differs")
        unlisted = sum(c["unlisted"] for c in counts.values())
        if unlisted:
            parts.append(f"{unlisted} not compared (a listing is incomplete)")
        if not parts:
            return "No difference in what was listed, but a listing is incomplete."
        return "Differences: " + ", ".join(parts) + "."

    # -- one item -----------------------------------------------------------------------------
    def show_item(self, kind: str, key: str) -> None:
        diff = self.diff
        if diff is None:
            return
        titles = {"left_title": self.titles[0], "right_title": self.titles[1]}
        if kind == INFO_KEY:
            old = {
                "serverInfo": diff.left.server_info,
                "capabilities": diff.left.capabilities,
                "instructions": diff.left.instructions,
            }
            new = {
                "serverInfo": diff.right.server_info,
                "capabilities": diff.right.capabilities,
                "instructions": diff.right.instructions,
            }
            self.detail_title.setText("Server info, capabilities and instructions")
            self.detail.show_diff(old, new, diff.info, **titles)
            return
        item = next((i for i in diff.items if i.kind == kind and i.key == key), None)
        if item is None:
            return
        heading = f"{kind[:-1] if kind.endswith('s') else kind} {key}: {item.status}"
        if item.hint:
            heading += f" (hint: {item.hint})"
        self.detail_title.setText(heading)
        message = {
            "added": f"Only in {self.titles[1]}.",
            "removed": f"Only in {self.titles[0]}.",
            "unlisted": "On one side only; the other side's listing is incomplete.",
            "same": "The same on both sides.",
            "changed": "",
        }[item.status]
        self.detail.show_diff(
            item.left or {}, item.right or {}, list(item.changes), message=message, **titles
        )
        run_kind = _RUN_KIND.get(item.kind)
        if run_kind is not None:
            self.run_both.choose(run_kind, key)

    def _definition(self, kind: RunKind, name: str) -> dict[str, Any] | None:
        diff = self.diff
        if diff is None:
            return None
        catalog_kind = {"tool": "tools", "resource": "resources", "prompt": "prompts"}[kind]
        item = next((i for i in diff.items if i.kind == catalog_kind and i.key == name), None)
        return None if item is None else (item.left or item.right)

    # -- lifetime -----------------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Esc closes the window (unless a field or a list open in it took the key)."""
        if event.key() == Qt.Key.Key_Escape and event.modifiers() == Qt.KeyboardModifier.NoModifier:
            self.close()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: Any) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []
        for task in (self.task, self.run_both.task):
            if task is not None and not task.done():
                task.cancel()
        super().closeEvent(event)


def open_compare(
    left: ConnectionModel,
    right: ConnectionModel,
    left_title: str,
    right_title: str,
    parent: QWidget | None = None,
) -> CompareWindow:
    """Open a compare window over two connections and start listing both (what the tabs'
    `compare_requested(left_tab, right_tab)` is connected to). The caller keeps the window
    (its parent does, when given)."""
    window = CompareWindow(left, right, left_title, right_title, parent)
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    window.show()
    window.refresh()
    return window
