"""The Collections panel (a bottom tab): one collection file, its saved calls, and runs
over the current connection.

Open a file; its calls are listed (✓ passed, ✗ failed, … running, ○ not run yet, ⊘
cancelled) with their time. Run all, or the selected calls: the run is a task on the event
loop (the window stays live), one call after another, the list and a progress bar
following. Stop cancels the request in flight (as a tool card's Cancel does): its row says
cancelled, the calls after it are not sent, and the session stays connected. A
selected call shows its assertions, the failed ones first, and a failed snapshot's diff.
"Update snapshot" takes this run's result as the new snapshot (for the call, or for every
failed one) and writes the file. The file is read again when it changes on disk; an
invalid file is shown with its place and reason, and nothing else stops working.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import shiboken6
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.collections.collection import (
    Collection,
    InputSchemaAssertion,
    SavedCall,
    SnapshotAssertion,
)
from inspector.collections.file import CollectionError, load_collection, save_collection
from inspector.collections.results import CallResult
from inspector.collections.runner import CollectionRunner
from inspector.collections.snapshots import update_call_snapshot, update_snapshots
from inspector.core.server_connection import ServerConnection
from inspector.ui.collections.file_watch import FileWatch
from inspector.ui.collections.result_view import CallResultView
from inspector.ui.controller.connection_controller import ConnectionController, ConnState
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.split_panes import split_panes
from inspector.ui.widgets.theme import ThemeColors, colors

__all__ = ["CallRow", "CollectionsPanel"]

log = logging.getLogger(__name__)

COL_MARK, COL_NAME, COL_KIND, COL_TARGET, COL_TIME = range(5)
_HEADERS: Final = ("", "Call", "Kind", "Target", "Time")
_BIG_FILE: Final = 1024 * 1024


@dataclass(eq=False)
class CallRow:
    call: SavedCall
    result: CallResult | None = None
    ran: SavedCall | None = None  # the call as it was when `result` ran
    running: bool = False
    note: str = ""  # e.g. "snapshot updated: run it again"

    @property
    def stale(self) -> bool:
        return self.result is not None and self.ran != self.call

    @property
    def mark(self) -> str:
        if self.running:
            return "…"
        if self.result is None:
            return "○"
        if self.result.cancelled:
            return "⊘"
        return "✓" if self.result.passed else "✗"


class CollectionsPanel(QWidget):
    file_opened = Signal(object)  # Path
    run_finished = Signal(int, int)  # passed, failed

    def __init__(
        self,
        controller: ConnectionController,
        env: Callable[[], Mapping[str, str]],
        choose_file: Callable[[], Path | None],
    ) -> None:
        """`env()`: what `${env:NAME}` resolves from. `choose_file()`: asks the user for a
        collection to open (None: cancelled)."""
        super().__init__()
        self.setObjectName("collectionsPanel")
        self.controller = controller
        self.env = env
        self.choose_file = choose_file
        self.path: Path | None = None
        self.collection: Collection | None = None
        self.error: str | None = None  # why the file could not be read
        self.rows: list[CallRow] = []
        # While the file is invalid (an editor half way through a save), the rows and the
        # selection it had: they come back when the file reads again.
        self._held_rows: list[CallRow] = []
        self._held_selection: set[str] = set()
        self._where: dict[str, int] = {}  # call name -> its row (names are unique)
        self._reads = 0  # a read on a thread shows its result only if it is the last one
        self.task: asyncio.Task[Any] | None = None
        self.runner: CollectionRunner | None = None  # the run under way
        self._running = False
        self.watch = FileWatch(self._file_changed, self)

        self.open_button = QPushButton("Open…")
        self.open_button.setObjectName("openCollection")
        self.open_button.setToolTip("Open a collection file")
        self.open_button.clicked.connect(self.choose_and_open)
        self.file_label = ElidedLabel("No collection open")
        self.file_label.setObjectName("collectionFileLabel")
        self.run_all_button = QPushButton("Run all")
        self.run_all_button.setObjectName("runAll")
        self.run_all_button.clicked.connect(self.run_all)
        self.run_button = QPushButton("Run selected")
        self.run_button.setObjectName("runSelected")
        self.run_button.clicked.connect(self.run_selected)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setObjectName("stopRun")
        self.stop_button.clicked.connect(self.stop)
        self.update_button = QPushButton("Update snapshot")
        self.update_button.setObjectName("updateSnapshot")
        self.update_button.setToolTip("Keep this run's result as the call's new snapshot")
        self.update_button.clicked.connect(self.update_selected_snapshot)
        self.update_failed_button = QPushButton("Update all failed")
        self.update_failed_button.setObjectName("updateFailed")
        self.update_failed_button.setToolTip(
            "Keep this run's results as the snapshots of every call whose snapshot failed"
        )
        self.update_failed_button.clicked.connect(self.update_failed_snapshots)
        self.progress = QProgressBar()
        self.progress.setObjectName("runProgress")
        self.progress.setMaximumWidth(160)
        self.progress.setFormat("%v of %m")
        self.progress.hide()
        self.summary = PlainLabel()
        self.summary.setObjectName("runSummary")
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 2, 4, 2)
        for widget in (self.open_button, self.run_all_button, self.run_button, self.stop_button):
            bar.addWidget(widget)
        bar.addWidget(self.progress)
        bar.addWidget(self.summary)
        bar.addWidget(self.file_label, 1)
        bar.addWidget(self.update_button)
        bar.addWidget(self.update_failed_button)

        self.error_label = PlainLabel(wrap=True, selectable=True)
        self.error_label.setObjectName("collectionError")
        self.error_label.setStyleSheet(f"color: {colors().error.name()}")
        self.error_label.hide()

        self.tree = QTreeWidget()
        self.tree.setObjectName("collectionCalls")
        self.tree.setHeaderLabels(list(_HEADERS))
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(COL_MARK, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_NAME, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(COL_KIND, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_TARGET, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(COL_TIME, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.setColumnWidth(COL_TARGET, 140)
        self.tree.itemSelectionChanged.connect(self._selection_changed)
        self.tree.itemDoubleClicked.connect(lambda _i, _c: self.run_selected())
        self.result_view = CallResultView()
        panes = [self.tree, self.result_view]
        self.split = split_panes(
            Qt.Orientation.Horizontal, panes, stretch=(2, 3), name="collectionSplitter"
        )
        self.split.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.error_label)
        layout.addWidget(self.split, 1)
        controller.state_changed.connect(self._state_changed)
        self._update_buttons()

    # ---------------------------------------------------------------- the file
    def choose_and_open(self) -> None:
        path = self.choose_file()
        if path is not None:
            self.open_file(path)

    def open_file(self, path: Path) -> bool:
        """Show the collection in `path` (and follow its changes); False when it is not
        valid (the panel then says where and why)."""
        path = path.absolute()
        if path != self.path:
            self.rows = []
            self._held_rows, self._held_selection = [], set()
            self.result_view.show_nothing("Select a call to see its result.")
        self.path = path
        self.watch.follow(path)
        self.file_label.setText(str(path))
        self.file_label.setToolTip(plain_tooltip(str(path)))
        ok = self.reload()
        self.file_opened.emit(path)
        return ok

    def reload(self) -> bool:
        """Read the file again. A big one (over 1 MiB) is read on a worker thread (the
        window stays live; the list fills when it is read): True means "being read"."""
        path = self.path
        if path is None:
            return False
        self.watch.seen_now()
        self._reads += 1
        try:
            big = path.stat().st_size > _BIG_FILE
        except OSError:
            big = False
        if big:
            self.summary.setText("Reading the collection…")
            self.controller.model.start(self._read_in_thread(path, self._reads), "read collection")
            return True
        return self._show_read(self._read(path))

    @staticmethod
    def _read(path: Path) -> Collection | str:
        try:
            return load_collection(path)
        except CollectionError as exc:
            return f"This collection cannot be used: {exc}"
        except OSError as exc:
            return f"Cannot read {path}: {exc.strerror or exc}"

    async def _read_in_thread(self, path: Path, generation: int) -> None:
        read = await asyncio.to_thread(self._read, path)
        if shiboken6.isValid(self) and generation == self._reads and path == self.path:
            self._show_read(read)

    def _show_read(self, read: Collection | str) -> bool:
        if isinstance(read, str):
            return self._invalid(read)
        self.collection = read
        self.error = None
        self.error_label.hide()
        old = {row.call.name: row for row in self.rows or self._held_rows}
        rows: list[CallRow] = []
        for call in read.calls:
            before = old.get(call.name)
            if before is None:
                rows.append(CallRow(call))
            else:
                before.call = call
                rows.append(before)
        self.rows = rows
        self._fill()
        return True

    def _invalid(self, message: str) -> bool:
        if self.rows:
            self._held_rows = self.rows
            self._held_selection = set(self.selected_names())
        self.collection = None
        self.error = message
        self.error_label.setText(message)
        self.error_label.show()
        self.rows = []
        self._fill()
        self.result_view.show_nothing("Fix the file; it is read again when it changes.")
        return False

    def _file_changed(self) -> None:
        if shiboken6.isValid(self):
            self.reload()

    # ---------------------------------------------------------------- the list
    def _fill(self) -> None:
        selected = set(self.selected_names()) or self._held_selection
        if self.rows:
            self._held_rows, self._held_selection = [], set()
        self._where = {row.call.name: i for i, row in enumerate(self.rows)}
        self.tree.blockSignals(True)
        self.tree.clear()
        items = []
        palette = colors()  # once: it reads the palette
        for row in self.rows:
            item = QTreeWidgetItem()
            self._paint(item, row, palette)
            items.append(item)
        self.tree.addTopLevelItems(items)  # at once: a 10,000-call file fills quickly
        for name in selected:
            index = self._where.get(name)
            if index is not None:
                items[index].setSelected(True)
        self.tree.blockSignals(False)
        self._selection_changed()
        self._summarize()

    def _paint(self, item: QTreeWidgetItem, row: CallRow, c: ThemeColors | None = None) -> None:
        call, result = row.call, row.result
        c = c or colors()
        item.setText(COL_MARK, row.mark)
        item.setText(COL_NAME, call.name)
        item.setText(COL_KIND, call.kind)
        item.setText(COL_TARGET, call.target)
        item.setData(COL_TARGET, Qt.ItemDataRole.ToolTipRole, plain_tooltip(call.target))
        ms = result.ms if result is not None else None
        item.setText(COL_TIME, f"{ms:.0f} ms" if ms is not None else "")
        color = c.muted
        if result is not None and not row.running and not row.stale and not result.cancelled:
            color = c.ok if result.passed else c.error
        item.setForeground(COL_MARK, color)
        tip = row.note or ("changed in the file since this run" if row.stale else "")
        if not tip and result is not None and result.cancelled:
            tip = f"cancelled: {result.outcome.message or 'the run stopped'}"
        item.setData(COL_NAME, Qt.ItemDataRole.ToolTipRole, plain_tooltip(tip or call.name))

    def _repaint(self, row: CallRow) -> None:
        index = self._where.get(row.call.name)
        if index is not None and self.rows[index] is row:
            item = self.tree.topLevelItem(index)
            if item is not None:
                self._paint(item, row)

    def row(self, name: str) -> CallRow | None:
        index = self._where.get(name)
        return self.rows[index] if index is not None else None

    def selected_names(self) -> list[str]:
        out = []
        for item in self.tree.selectedItems():
            index = self.tree.indexOfTopLevelItem(item)
            if 0 <= index < len(self.rows):
                out.append(self.rows[index].call.name)
        return out

    def select(self, name: str) -> bool:
        row = self.row(name)
        if row is None:
            return False
        item = self.tree.topLevelItem(self._where[name])
        if item is None:
            return False
        self.tree.setCurrentItem(item)
        return True

    def _selection_changed(self) -> None:
        names = self.selected_names()
        row = self.row(names[0]) if len(names) == 1 else None
        if row is not None:
            self.result_view.show_call(row.call, row.result, row.stale)
        elif not self.rows and self.error is None:
            text = "Open a collection, or save a call into one (“Save call…”)."
            self.result_view.show_nothing(text if self.path is None else "No calls saved yet.")
        self._update_buttons()

    def _summarize(self) -> None:
        done = [r.result for r in self.rows if r.result is not None]
        if not done:
            self.summary.setText(f"{len(self.rows)} call(s)" if self.path else "")
            self.summary.setStyleSheet(f"color: {colors().muted.name()}")
            return
        cancelled = sum(1 for r in done if r.cancelled)
        failed = sum(1 for r in done if not r.passed) - cancelled
        total = sum((r.ms or 0.0) for r in done)
        text = f"{len(done) - failed - cancelled} passed, {failed} failed"
        text += f", {cancelled} cancelled" if cancelled else ""
        text += f" · {total:.0f} ms"
        self.summary.setText(text)
        c = colors()
        self.summary.setStyleSheet(f"color: {(c.error if failed else c.ok).name()}")

    # ---------------------------------------------------------------- running
    def session(self) -> ServerConnection | None:
        session = self.controller.model.server
        if self.controller.model.state is not ConnState.CONNECTED or session is None:
            return None
        return session if session.is_ready else None

    @property
    def running(self) -> bool:
        return self._running

    def run_all(self) -> asyncio.Task[Any] | None:
        return self.run_names([r.call.name for r in self.rows])

    def run_selected(self) -> asyncio.Task[Any] | None:
        return self.run_names(self.selected_names())

    def run_names(self, names: list[str]) -> asyncio.Task[Any] | None:
        session = self.session()
        if session is None or self.running or not names:
            return None
        wanted = set(names)
        calls = [r.call for r in self.rows if r.call.name in wanted]
        self._running = True
        self.task = self.controller.model.start(self._run(session, calls), "run collection")
        self._update_buttons()
        return self.task

    async def _run(self, session: ServerConnection, calls: list[SavedCall]) -> None:
        runner = CollectionRunner(session, env=self.env(), tools=self.controller.model.tools)
        self.runner = runner
        self.progress.setRange(0, len(calls))
        self.progress.setValue(0)
        self.progress.show()
        self.summary.setText("Running…")
        try:
            for done, call in enumerate(calls):
                if runner.stopped is not None:
                    break
                if self.session() is not session:
                    self.summary.setText("The connection ended; the run stopped.")
                    return
                row = self.row(call.name)
                if row is not None:
                    row.running = True
                    self._repaint(row)
                try:
                    result = await runner.run_call(call)
                finally:
                    if row is not None:
                        row.running = False
                        self._repaint(row)
                self._take(call, result)
                self.progress.setValue(done + 1)
            self._summarize()
            if runner.stopped is not None:
                self.summary.setText(f"Run stopped. {self.summary.text()}")
                return
            passed = sum(1 for r in self.rows if r.result is not None and r.result.passed)
            self.run_finished.emit(passed, sum(1 for r in self.rows if r.result) - passed)
        except asyncio.CancelledError:
            if shiboken6.isValid(self):
                self.summary.setText("Run stopped.")
            raise
        finally:
            self._running = False
            self.runner = None
            if shiboken6.isValid(self):
                self.progress.hide()
                self._update_buttons()

    def _take(self, call: SavedCall, result: CallResult) -> None:
        row = self.row(call.name)
        if row is None:  # the file changed meanwhile and the call went
            return
        row.result, row.ran, row.note = result, call, ""
        self._repaint(row)
        if row.call.name in self.selected_names():
            self._selection_changed()

    def show_results(self, path: Path, results: Sequence[CallResult]) -> bool:
        """The results of a run made elsewhere (watch mode re-running this file), shown as
        this panel's own run's are. False (nothing shown) when `path` is not the file
        open here, or a run of the panel's own is under way."""
        if self.path is None or path.absolute() != self.path or self.running:
            return False
        for result in results:
            self._take(result.call, result)
        self._summarize()
        passed = sum(1 for r in self.rows if r.result is not None and r.result.passed)
        self.run_finished.emit(passed, sum(1 for r in self.rows if r.result) - passed)
        return True

    def stop(self) -> None:
        """Cancel the request in flight (its row says cancelled) and run no further call;
        the session stays connected."""
        if self.task is None or self.task.done():
            return
        if self.runner is not None:
            self.runner.stop("stopped by the user")
        else:
            self.task.cancel()

    # ---------------------------------------------------------------- snapshots
    def _snapshot_ready(self, row: CallRow) -> bool:
        result = row.result
        if result is None or row.running:
            return False
        return result.result is not None or result.tool is not None

    def update_selected_snapshot(self) -> list[str]:
        rows = [self.row(n) for n in self.selected_names()]
        return self._update(
            [r for r in rows if r is not None and self._snapshot_ready(r)], add=True
        )

    def update_failed_snapshots(self) -> list[str]:
        return self._update(None, add=False)

    def _update(self, rows: list[CallRow] | None, *, add: bool) -> list[str]:
        """Write the new snapshots into the file (read afresh: never over another edit).
        `rows` None: every call whose snapshot failed."""
        path = self.path
        if path is None or self.running:
            return []
        try:
            collection = load_collection(path)
        except (CollectionError, OSError) as exc:
            self._invalid(f"The snapshots were not updated: {exc}")
            return []
        if rows is None:
            results = [r.result for r in self.rows if r.result is not None and not r.stale]
            changed = update_snapshots(collection, results)
        else:
            changed = []
            for row in rows:
                current = collection.call(row.call.name)
                if current is None or row.result is None:
                    continue
                updated = update_call_snapshot(current, row.result, add=add)
                if updated != current:
                    collection.put(updated)
                    changed.append(row.call.name)
        if not changed:
            self.summary.setText("No snapshot to update.")
            return []
        try:
            save_collection(path, collection)
        except OSError as exc:
            self.error_label.setText(f"Cannot write {path}: {exc.strerror or exc}")
            self.error_label.show()
            return []
        self.reload()
        for name in changed:
            shown = self.row(name)
            if shown is not None:
                shown.note = "snapshot updated: run it again to check"
                self._repaint(shown)
        self._selection_changed()
        self.summary.setText(f"Updated {len(changed)} snapshot(s); run again to check.")
        return changed

    # ---------------------------------------------------------------- state
    def _state_changed(self, _state: str, _detail: str) -> None:
        self._update_buttons()

    def _update_buttons(self) -> None:
        connected = self.session() is not None
        running = self.running
        why = "" if connected else "Connect to a server to run its calls."
        has_rows = bool(self.rows)
        for button in (self.run_all_button, self.run_button):
            button.setToolTip(plain_tooltip(why or "Run over the current connection"))
        self.run_all_button.setEnabled(connected and has_rows and not running)
        self.run_button.setEnabled(connected and bool(self.selected_names()) and not running)
        self.stop_button.setVisible(running)
        selected = [self.row(n) for n in self.selected_names()]
        self.update_button.setEnabled(
            not running and any(r is not None and self._snapshot_ready(r) for r in selected)
        )
        self.update_failed_button.setEnabled(
            not running
            and any(
                r.result is not None
                and not r.stale
                and any(
                    isinstance(a.assertion, SnapshotAssertion | InputSchemaAssertion)
                    for a in r.result.failures
                )
                for r in self.rows
            )
        )
