"""A recorded session, read-only, laid out like the live window: what the server said
about itself and its lists (left), the same traffic log with filters, pairing and the
detail pane (centre), and the timeline, server console, notifications and errors (bottom).

Everything comes from `inspector.recording.offline.OfflineSession` (Qt-free). Nothing
here sends anything: the banner says so, and the main window disables its connection
actions while this view is shown.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Final

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.features.catalog.lists import KINDS, CatalogItem
from inspector.recording.index.indexed_loader import IndexedLoader
from inspector.recording.offline import OfflineSession
from inspector.recording.timeline import format_duration, local_time, timeline_of
from inspector.ui.check.lint_panel import LintPanel
from inspector.ui.explorer.pane import NOUNS, CatalogPane
from inspector.ui.explorer.server_panel import ServerInfoPanel
from inspector.ui.recording.timeline_panel import TimelinePanel
from inspector.ui.traffic.conversation_dialog import ConversationDialog
from inspector.ui.traffic.errors_panel import ErrorsPanel
from inspector.ui.traffic.log_panel import TrafficLogPanel
from inspector.ui.traffic.notifications_panel import NotificationsPanel
from inspector.ui.traffic.server_console import ServerConsole
from inspector.ui.widgets.batched_model import FLOOD_INTERVAL_MS, BatchedTableModel
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.split_panes import split_panes
from inspector.ui.widgets.theme import colors

__all__ = ["OfflineView"]

# Indexing runs on the event loop in slices this long: the window stays responsive. (40 ms
# before the progress had turns of its own; a slice now carries nothing else, so a shorter
# one costs no time and keeps the longest turn shorter.)
_SLICE_SECONDS: Final = 0.03
# The banner's progress and the tabs' counts are said at most this often while indexing:
# each change of their text lays the window out and repaints it (a third of the indexing
# time when it was said after every slice).
_PROGRESS_SECONDS: Final = 0.25


class OfflineBanner(QFrame):
    replay_clicked = Signal()
    close_clicked = Signal()

    def __init__(self, offline: OfflineSession) -> None:
        super().__init__()
        self.setObjectName("offlineBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        c = colors()
        self.setStyleSheet(
            f"#offlineBanner {{ background: {c.pair_bg.name()}; "
            f"border: 1px solid {c.warn.name()}; }}"
        )
        self.title = PlainLabel(f"Read-only: recorded session “{offline.title}”")
        bold = self.title.font()
        bold.setBold(True)
        self.title.setFont(bold)
        self.offline = offline
        self.detail = PlainLabel(" · ".join(self._facts()), wrap=True, selectable=True)
        self.problems = PlainLabel("\n".join(f"⚠ {n}" for n in offline.notes), wrap=True)
        self.problems.setObjectName("offlineProblems")
        self.problems.setStyleSheet(f"color: {c.error.name()}")
        self.problems.setVisible(bool(offline.notes))
        self.progress = PlainLabel("")
        self.progress.setObjectName("offlineIndexing")
        self.progress.hide()
        self.replay_button = QPushButton("Replay…")
        self.replay_button.setToolTip("Replay this session against a server and diff the answers")
        self.replay_button.clicked.connect(self.replay_clicked)
        self.close_button = QPushButton("Close session")
        self.close_button.setToolTip("Return to the live window")
        self.close_button.clicked.connect(self.close_clicked)
        text = QVBoxLayout()
        text.setSpacing(2)
        text.addWidget(self.title)
        text.addWidget(self.detail)
        text.addWidget(self.progress)
        text.addWidget(self.problems)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addLayout(text, 1)
        layout.addWidget(self.replay_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)

    def _facts(self) -> list[str]:
        """The file, its parts, what it is a slice of, when, how long; read-only."""
        recorded = self.offline.recorded
        facts = [
            str(recorded.path),
            f"recorded {local_time(recorded.header.get('created')) or 'at an unknown time'}",
            f"{format_duration(recorded.duration)}",
            "nothing is sent to any server",
        ]
        if len(recorded.parts) > 1:
            facts.insert(1, f"{len(recorded.parts)} rotated parts read")
        sliced = recorded.header.get("slice")
        if isinstance(sliced, dict) and isinstance(sliced.get("of"), str):
            facts.insert(1, f"a slice of {sliced['of']}")
        return facts

    def refresh(self) -> None:
        """Say again what may have grown while the file was indexed: its duration, notes."""
        self.detail.setText(" · ".join(self._facts()))
        notes = self.offline.notes
        self.problems.setText("\n".join(f"⚠ {n}" for n in notes))
        self.problems.setVisible(bool(notes))


class OfflineView(QWidget):
    """The recorded session. An opened file is indexed a slice at a time on the event loop
    (`follow_index`): the rows, notifications and errors grow as they do live, the banner
    says how far indexing got, and `indexed` is emitted once it is complete."""

    replay_requested = Signal()
    close_requested = Signal()
    indexed = Signal()

    def __init__(self, offline: OfflineSession) -> None:
        super().__init__()
        self.setObjectName("offlineView")
        self.offline = offline
        self.path: Path = offline.recorded.path
        self.banner = OfflineBanner(offline)
        self.banner.replay_clicked.connect(self.replay_requested)
        self.banner.close_clicked.connect(self.close_requested)

        # Left: the server and its lists, as recorded.
        self.server_panel = ServerInfoPanel()
        if offline.ready is not None:
            self.server_panel.show_ready(offline.ready)
        else:
            self.server_panel.clear("Never became ready")
        self.catalog_tabs = QTabWidget()
        self.catalog_tabs.setObjectName("offlineCatalog")
        self.panes: dict[str, CatalogPane] = {}
        for kind in KINDS:
            pane = CatalogPane(offline.catalog[kind])
            pane.set_connected(False)
            pane.refresh_button.setToolTip("A recording cannot be listed again")
            pane.selected.connect(self._item_selected)
            self.panes[kind] = pane
            self.catalog_tabs.addTab(pane, NOUNS[kind][2])
        self.definition = QPlainTextEdit()
        self.definition.setObjectName("offlineDefinition")
        self.definition.setReadOnly(True)
        self.definition.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.definition.setPlaceholderText("Select an item to read its recorded definition.")
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.server_panel)
        left.addWidget(self.catalog_tabs)
        left.addWidget(self.definition)
        left.setStretchFactor(1, 3)
        left.setStretchFactor(2, 1)

        # Centre: the same traffic log, over the recorded rows.
        self.log_panel = TrafficLogPanel(offline.traffic)
        self.log_panel.clear_button.hide()  # read-only
        self.log_panel.pause_button.hide()
        self.log_panel.detail.set_connection(offline.recorded.connection, offline.recorded.era)
        self.log_panel.set_lint(offline.lint)
        self.conversation: ConversationDialog | None = None
        rounds = offline.rounds
        if rounds is not None:  # MRTR rounds, grouped from the recorded frames
            self.log_panel.model.set_marker(rounds.mark)
            rounds.on_change(self.log_panel.model.refresh_entries)  # a followed file grows
            detail = self.log_panel.detail
            detail.set_conversation_lookup(rounds.conversation)
            detail.set_operation_lookup(rounds.describe)
            detail.conversation_requested.connect(self.show_conversation)

        # Bottom: timeline, console, notifications, errors.
        self.timeline = timeline_of(offline)
        self.timeline_panel = TimelinePanel(self.timeline, offline.actions)
        self.console = ServerConsole()
        self.console.view.setPlaceholderText("The server wrote nothing to stderr.")
        for line in offline.stderr:
            self.console.append(line)
        self.console.flush()
        self.notifications = NotificationsPanel(offline.messages)
        self.errors_panel = ErrorsPanel(offline.errors)
        self.errors_panel.jump_to_entry.connect(self.log_panel.select_entry)
        self.lint_panel = LintPanel(offline.lint)
        self.lint_panel.jump_to_entry.connect(self.log_panel.select_entry)
        self.bottom = QTabWidget()
        self.bottom.setObjectName("offlineBottomTabs")
        self.bottom.addTab(self.timeline_panel, "Timeline")
        self.bottom.addTab(self.console, f"Server console ({len(offline.stderr)})")
        self.bottom.addTab(self.notifications, f"Notifications ({len(offline.messages)})")
        errors = len(offline.errors)
        self.bottom.addTab(self.errors_panel, f"Errors ({errors})" if errors else "Errors")
        found = len(offline.lint)
        self.bottom.addTab(self.lint_panel, f"Lint ({found})" if found else "Lint")

        right = split_panes(Qt.Orientation.Vertical, [self.log_panel, self.bottom], stretch=(3, 2))
        self.main_split = split_panes(
            Qt.Orientation.Horizontal, [left, right], stretch=(1, 4), sizes=(280, 1000)
        )
        right.setSizes([480, 260])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.banner)
        layout.addWidget(self.main_split, 1)
        self.log_panel.model.flush()
        self.indexer: IndexedLoader | None = None
        self.complete = True
        self._stderr_shown = len(offline.stderr)
        self._progress_at = 0.0  # when the progress was last said (time.monotonic)
        self._follow_tail = False  # the log followed its last row when indexing began
        self._ticker = QTimer(self)
        self._ticker.setSingleShot(True)
        self._ticker.setInterval(0)
        self._ticker.timeout.connect(self._index_more)

    # ---------------------------------------------------------------- indexing
    def follow_index(self, indexer: IndexedLoader) -> None:
        """Index the rest of the file a slice at a time, showing it as it comes."""
        self.indexer = indexer
        if indexer.finished:
            self._indexing_done()
            return
        self.complete = False
        # While indexing, the log follows its last row when the progress is said, not on
        # each batch of rows: each scroll repaints the table's rows (a fifth of the time).
        self._follow_tail = self.log_panel.autoscroll
        self.log_panel.autoscroll = False
        # Rows go in at the pace the progress is said (each insert repaints a table).
        for model in self._growing_models():
            model.flood_interval_ms = int(_PROGRESS_SECONDS * 1000)
        self.banner.progress.show()
        self._show_progress()
        self._ticker.start()

    def stop_indexing(self) -> None:
        """The view is closed: index no more."""
        self._ticker.stop()
        self.indexer = None

    def _index_more(self) -> None:
        indexer = self.indexer
        if indexer is None:
            return
        if time.monotonic() - self._progress_at >= _PROGRESS_SECONDS:
            # A turn of its own: the repaint it brings is not added to a slice's time.
            self._show_progress()
            self._ticker.start()
            return
        deadline = time.monotonic() + _SLICE_SECONDS
        finished = indexer.step()
        while not finished and time.monotonic() < deadline:
            finished = indexer.step()
        self._show_new_stderr()
        if finished:
            self._indexing_done()
        else:
            self._ticker.start()

    def _show_progress(self) -> None:
        indexer = self.indexer
        if indexer is None:
            return
        self._progress_at = time.monotonic()
        if self._follow_tail and not self.log_panel.pause_button.isChecked():
            self.log_panel.table.scrollToBottom()
        self.banner.progress.setText(
            f"Indexing the file… {indexer.fraction:.0%} "
            f"({len(self.offline.traffic):,} messages so far)"
        )
        self._retitle()

    def _show_new_stderr(self) -> None:
        lines = self.offline.stderr
        if len(lines) > self._stderr_shown:
            for line in lines[self._stderr_shown :]:
                self.console.append(line)
            self.console.flush()
            self._stderr_shown = len(lines)

    def _growing_models(self) -> list[BatchedTableModel]:
        """The tables that grow while the file is indexed."""
        return [self.log_panel.model, self.notifications.model, self.errors_panel.model]

    def _indexing_done(self) -> None:
        self.complete = True
        for model in self._growing_models():
            model.flood_interval_ms = FLOOD_INTERVAL_MS
        if self._follow_tail:  # (unless the Log menu paused it meanwhile)
            self._follow_tail = False
            self.log_panel.autoscroll = not self.log_panel.pause_button.isChecked()
        offline = self.offline
        self.banner.progress.setText(f"Indexed: {len(offline.traffic):,} messages")
        self.banner.progress.setVisible(self.indexer is not None and self.indexer.fraction > 0)
        self.banner.refresh()
        if offline.ready is not None:
            self.server_panel.show_ready(offline.ready)
        self.timeline = timeline_of(offline)
        old = self.timeline_panel
        self.timeline_panel = TimelinePanel(self.timeline, offline.actions)
        at = self.bottom.indexOf(old)
        shown = self.bottom.currentIndex()
        self.bottom.removeTab(at)
        self.bottom.insertTab(at, self.timeline_panel, "Timeline")
        self.bottom.setCurrentIndex(shown)
        old.deleteLater()
        self._retitle()
        self.log_panel.model.flush()
        if self.log_panel.autoscroll:
            self.log_panel.table.scrollToBottom()
        self.indexed.emit()

    def _retitle(self) -> None:
        offline = self.offline
        self.bottom.setTabText(1, f"Server console ({len(offline.stderr)})")
        self.bottom.setTabText(2, f"Notifications ({len(offline.messages)})")
        errors = len(offline.errors)
        self.bottom.setTabText(3, f"Errors ({errors})" if errors else "Errors")
        found = len(offline.lint)
        self.bottom.setTabText(4, f"Lint ({found})" if found else "Lint")
        self.bottom.setTabText(0, "Timeline" if self.complete else "Timeline (indexing…)")

    def show_conversation(self, index: int) -> ConversationDialog | None:
        """Every round of the operation `index` belongs to, in one window."""
        rounds = self.offline.rounds
        if rounds is None or not rounds.conversation(index):
            return None
        if self.conversation is not None:
            self.conversation.close()
        dialog = ConversationDialog(rounds, index, self.log_panel.select_entry, self)
        self.conversation = dialog
        dialog.finished.connect(lambda _code: setattr(self, "conversation", None))
        dialog.show()
        return dialog

    def _item_selected(self, item: CatalogItem | None) -> None:
        if item is None:
            self.definition.setPlainText("")
            return
        self.definition.setPlainText(json.dumps(item.raw, indent=2, ensure_ascii=False))

    def rows(self) -> int:
        self.log_panel.model.flush()
        return self.log_panel.model.rowCount()
