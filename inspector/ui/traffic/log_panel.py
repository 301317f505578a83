"""The live traffic log: filters, the table, search, and the detail pane."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Final

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QFontDatabase, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QMenu,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.lint.finding import LintStore
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.log import TrafficEntry, TrafficLog
from inspector.traffic.record import KINDS
from inspector.ui.traffic.detail_pane import DetailPane
from inspector.ui.traffic.log_find import LogFindBar
from inspector.ui.traffic.traffic_model import (
    COL_DIR,
    COL_ID,
    COL_KIND,
    COL_LATENCY,
    COL_METHOD,
    COL_SIZE,
    COL_SUMMARY,
    COL_TIME,
    TrafficLogModel,
)
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.split_panes import split_panes

__all__ = ["TrafficLogPanel"]

_DIRECTIONS: Final = (
    ("All directions", None),
    ("→ sent", "out"),
    ("← received", "in"),
    ("app ↔ host (MCP Apps)", "app"),  # both directions of an app's postMessage JSON-RPC
    ("app→host", "from-app"),
    ("host→app", "to-app"),
)
_APP_DIRECTIONS: Final = frozenset({"from-app", "to-app"})
# The least each column gets (the fonts in use may ask for more). The summary comes last and
# takes what is left: at the default 1280 px window beside the explorer and the detail pane
# every column is on screen with some 130 px of summary (issue 31).
_COLUMN_WIDTHS: Final = {
    COL_TIME: 88,
    COL_DIR: 36,  # "→", "←", or an MCP App's "app→" / "→app"
    COL_KIND: 76,  # "notification"; the rare "⚠ notification" elides
    COL_ID: 34,
    COL_METHOD: 96,
    COL_SUMMARY: 140,
    COL_SIZE: 56,
    COL_LATENCY: 68,
}


class _RowAction:
    """An action offered in a row's context menu by a feature above the log."""

    def __init__(
        self,
        text: str,
        applies: Callable[[TrafficEntry], bool],
        slot: Callable[[TrafficEntry], object],
    ) -> None:
        self.text = text
        self.applies = applies
        self.slot = slot


class TrafficLogPanel(QWidget):
    count_changed = Signal(int, int)  # total, shown

    def __init__(self, log: TrafficLog) -> None:
        super().__init__()
        self.log = log
        self._row_actions: list[_RowAction] = []
        self.row_menu_shown: QMenu | None = None  # the last context menu (tests read it)
        self.model = TrafficLogModel(log)
        self.autoscroll = True
        self._build_filters()
        self._build_table()
        self.detail = DetailPane()
        self.detail.jump_to_pair.connect(self.reveal_entry)
        self.detail.set_pair_lookup(log.pair_of)
        self.splitter = split_panes(
            Qt.Orientation.Horizontal,
            [self.table, self.detail],
            (3, 1),
            (760, 280),
            name="logSplitter",
        )
        self._build_search()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.filter_row)
        layout.addWidget(self.search_bar)
        layout.addWidget(self.splitter, 1)
        self.model.batch_inserted.connect(self._after_batch)
        self.model.reset_done.connect(self._after_reset)
        self.model.filtering.connect(self._filter_progress)
        self._pending_select: int | None = None  # to select once a sliced filter reaches it
        self._update_count()

    def set_lint(self, store: LintStore, lint_now: Callable[[int], None] | None = None) -> None:
        """Lint findings: a badge on their rows, the detail pane's Lint tab."""
        self.model.set_lint(store)
        self.detail.set_lint(store, lint_now)

    # ---------------------------------------------------------------- building
    def _build_filters(self) -> None:
        self.direction_combo = QComboBox()
        for label, value in _DIRECTIONS:
            self.direction_combo.addItem(label, value)
        self.kind_button = QToolButton()
        self.kind_button.setText("All kinds")
        self.kind_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.kind_button)
        self.kind_actions: dict[str, QAction] = {}
        for kind in KINDS:
            action = menu.addAction(kind)
            action.setCheckable(True)
            action.setChecked(True)
            action.toggled.connect(self._filters_edited)
            self.kind_actions[kind] = action
        self.kind_button.setMenu(menu)
        self.method_edit = QLineEdit()
        self.method_edit.setPlaceholderText("Method")
        self.method_edit.setClearButtonEnabled(True)
        self.text_edit = QLineEdit()
        self.text_edit.setPlaceholderText("Filter text (lower case ignores case)")
        self.text_edit.setClearButtonEnabled(True)
        self.hide_noise = QCheckBox("Hide pings/progress")
        self.pause_button = QToolButton()
        self.pause_button.setText("Pause autoscroll")
        self.pause_button.setCheckable(True)
        self.pause_button.toggled.connect(self.set_paused)
        self.clear_button = QToolButton()
        self.clear_button.setText("Clear")
        self.clear_button.clicked.connect(self.clear)
        self.count_label = PlainLabel()  # the main window shows it in its status bar
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(150)
        self._debounce.timeout.connect(self.apply_filters)
        self.direction_combo.currentIndexChanged.connect(self._filters_edited)
        self.method_edit.textChanged.connect(self._filters_edited)
        self.text_edit.textChanged.connect(self._filters_edited)
        self.hide_noise.toggled.connect(self._filters_edited)
        row = QHBoxLayout()
        row.addWidget(self.direction_combo)
        row.addWidget(self.kind_button)
        row.addWidget(self.method_edit, 1)
        row.addWidget(self.text_edit, 2)
        row.addWidget(self.hide_noise)
        row.addWidget(self.pause_button)
        row.addWidget(self.clear_button)
        self.filter_row = row

    def _build_table(self) -> None:
        table = QTableView()
        table.setObjectName("trafficTable")
        table.setModel(self.model)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setWordWrap(False)
        table.setShowGrid(False)
        table.setAlternatingRowColors(False)
        table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        vheader = table.verticalHeader()
        vheader.setVisible(False)
        # Fixed row heights: a million rows must not be measured one by one.
        vheader.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vheader.setDefaultSectionSize(table.fontMetrics().height() + 6)
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        # Widths from the fonts in use, so times and numbers are never cut off.
        mono = QFontMetrics(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        plain = table.fontMetrics()
        for col, sample, metrics, pad in (
            (COL_TIME, "00:00:00.000", mono, 8),
            (COL_DIR, "app→", plain, 8),
            (COL_KIND, "notification", plain, 8),
            (COL_ID, "9999", mono, 8),
            (COL_SIZE, "999,999", mono, 8),
            (COL_LATENCY, "9999.9 ms", mono, 8),
        ):
            table.setColumnWidth(
                col, max(_COLUMN_WIDTHS[col], metrics.horizontalAdvance(sample) + pad)
            )
        table.setColumnWidth(COL_SUMMARY, _COLUMN_WIDTHS[COL_SUMMARY])
        table.setColumnWidth(COL_METHOD, _COLUMN_WIDTHS[COL_METHOD])  # longer ones elide
        # The summary comes last and takes what is left, elided: Size and Latency stay on
        # screen in a narrow window.
        header.moveSection(header.visualIndex(COL_SUMMARY), header.count() - 1)
        header.setSectionResizeMode(COL_SUMMARY, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(24)
        table.selectionModel().currentRowChanged.connect(self._current_changed)
        table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        table.customContextMenuRequested.connect(self._context_menu)
        self.table = table

    def _build_search(self) -> None:
        self.find_bar = LogFindBar(self.log, self.model, self.table)
        self.find_bar.select_requested.connect(self.select_entry)
        # The names the window's menus and the tests know the Find bar's parts by.
        self.search_bar = self.find_bar
        self.search_edit = self.find_bar.edit
        self.search_status = self.find_bar.status
        self.search_prev = self.find_bar.previous_button
        self.search_next = self.find_bar.next_button
        self.show_search = self.find_bar.show_bar
        self.hide_search = self.find_bar.hide_bar
        self.find_next = self.find_bar.find_next
        self.find_previous = self.find_bar.find_previous

    # ---------------------------------------------------------------- filters
    def _filters_edited(self) -> None:
        checked = [k for k, a in self.kind_actions.items() if a.isChecked()]
        self.kind_button.setText(
            "All kinds" if len(checked) == len(KINDS) else f"{len(checked)} kinds"
        )
        self._debounce.start()

    def current_filter(self) -> TrafficFilter:
        direction = self.direction_combo.currentData()
        checked = frozenset(k for k, a in self.kind_actions.items() if a.isChecked())
        return TrafficFilter(
            directions=(
                _APP_DIRECTIONS
                if direction == "app"
                else frozenset({direction})
                if direction
                else None
            ),
            kinds=None if len(checked) == len(KINDS) else checked,
            method=self.method_edit.text().strip(),
            text=self.text_edit.text(),
            hide_noise=self.hide_noise.isChecked(),
        )

    def apply_filters(self) -> None:
        self._debounce.stop()
        selected = self.detail.entry
        self.model.set_filter(self.current_filter())
        if selected is not None:
            self.select_entry(selected.index, scroll=True)

    # ---------------------------------------------------------------- context menu
    def add_row_action(
        self,
        text: str,
        applies: Callable[[TrafficEntry], bool],
        slot: Callable[[TrafficEntry], object],
    ) -> None:
        """Offer `text` in the context menu of the rows where `applies(entry)` is true;
        `slot(entry)` runs when it is chosen (features above the log add their own)."""
        self._row_actions.append(_RowAction(text, applies, slot))

    def row_menu(self, entry: TrafficEntry) -> QMenu:
        """The context menu of `entry`'s row: copy, jump to the pair, then what features
        added (each shown only where it applies)."""
        menu = QMenu(self.table)
        menu.setObjectName("trafficRowMenu")
        detail = self.detail
        menu.addAction("Copy as JSON", detail.copy_json)
        pair = self.log.pair_of(entry)
        jump = menu.addAction("Jump to pair")
        if pair is not None:
            target = pair.index
            jump.triggered.connect(lambda: self.reveal_entry(target))
        jump.setEnabled(pair is not None)
        extra = [a for a in self._row_actions if _applies(a, entry)]
        if extra:
            menu.addSeparator()
        for action in extra:
            item = menu.addAction(action.text)
            item.triggered.connect(_caller(action.slot, entry))
        return menu

    def _context_menu(self, pos: QPoint) -> None:
        index = self.table.indexAt(pos)
        entry = self.model.entry_at(index.row()) if index.isValid() else None
        if entry is None:
            return
        self.select_entry(entry.index, scroll=False)
        menu = self.row_menu(entry)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.row_menu_shown = menu
        menu.popup(self.table.viewport().mapToGlobal(pos))

    # ---------------------------------------------------------------- selection
    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        entry = self.model.entry_at(current.row()) if current.isValid() else None
        self.detail.show_entry(entry)
        self.model.set_highlight(self._pair_set(entry))

    @staticmethod
    def _pair_set(entry: TrafficEntry | None) -> set[int]:
        if entry is None or entry.pair < 0:
            return set()
        return {entry.pair}

    def reveal_entry(self, index: int) -> bool:
        """Select entry `index`; when the filter hides it, clear the filter first and say
        so (Jump to pair must never do nothing)."""
        if self.select_entry(index):
            return True
        if not 0 <= index < len(self.log):
            self.detail.say(f"#{index} is no longer in the log.")
            return False
        self.clear_filters()
        shown = self.select_entry(index)
        if shown:
            self.detail.say(f"The filter hid #{index}; it was cleared to show it.")
        return shown

    def clear_filters(self) -> None:
        for edit in (self.method_edit, self.text_edit):
            edit.blockSignals(True)
            edit.clear()
            edit.blockSignals(False)
        self.direction_combo.blockSignals(True)
        self.direction_combo.setCurrentIndex(0)
        self.direction_combo.blockSignals(False)
        for action in self.kind_actions.values():
            action.blockSignals(True)
            action.setChecked(True)
            action.blockSignals(False)
        self.kind_button.setText("All kinds")
        self.hide_noise.blockSignals(True)
        self.hide_noise.setChecked(False)
        self.hide_noise.blockSignals(False)
        self.apply_filters()

    def select_entry(self, index: int, scroll: bool = True) -> bool:
        """Select the row of traffic entry `index` (if the filter shows it). While a big
        log's filter is still being applied, an entry it has not reached yet is selected
        when it does (if the filter shows it)."""
        self.model.flush()
        row = self.model.row_of(index)
        if row is None:
            if self.model.catching_up and index >= self.model.considered:
                self._pending_select = index
            return False
        model_index = self.model.index(row, 0)
        self.table.selectionModel().setCurrentIndex(
            model_index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        if scroll:
            self.table.scrollTo(model_index, QAbstractItemView.ScrollHint.PositionAtCenter)
        return True

    def selected_entry(self) -> TrafficEntry | None:
        return self.detail.entry

    # ---------------------------------------------------------------- search
    # ---------------------------------------------------------------- live
    def set_paused(self, paused: bool) -> None:
        self.autoscroll = not paused
        self.pause_button.setChecked(paused)
        self.pause_button.setText("Resume autoscroll" if paused else "Pause autoscroll")
        if not paused:
            self.table.scrollToBottom()

    def clear(self) -> None:
        self.detail.show_entry(None)
        self.log.clear()

    def _after_batch(self, _added: int) -> None:
        if self.autoscroll:
            self.table.scrollToBottom()
        self._update_count()
        self.find_bar.update_found()

    def _after_reset(self) -> None:
        if self.detail.entry is not None and self.detail.entry.index >= len(self.log):
            self.detail.show_entry(None)
        self.find_bar.after_reset()
        self._update_count()
        self.find_bar.update_found()

    def _filter_progress(self, seen: int, total: int) -> None:
        """A big log's filter got this far: the count says so; an entry waiting to be
        selected is selected once it is reached."""
        pending = self._pending_select
        if pending is not None and (pending < seen or seen >= total):
            self._pending_select = None
            self.select_entry(pending)
        self._update_count()

    def _update_count(self) -> None:
        total = len(self.log)
        shown = self.model.rowCount()
        if self.model.catching_up:
            done = self.model.considered * 100 // max(total, 1)
            self.count_label.setText(f"{shown:,} of {total:,} messages · filtering {done}%")
        elif self.model.filtered:
            self.count_label.setText(f"{shown:,} of {total:,} messages")
        else:
            self.count_label.setText(f"{total:,} messages")
        self.count_changed.emit(total, shown)


def _applies(action: _RowAction, entry: TrafficEntry) -> bool:
    try:
        return bool(action.applies(entry))
    except Exception:  # a feature's check must never take the log's menu down
        logging.getLogger(__name__).exception("row action %r failed its check", action.text)
        return False


def _caller(slot: Callable[[TrafficEntry], object], entry: TrafficEntry) -> Callable[[], None]:
    def call() -> None:
        slot(entry)

    return call
