"""The traffic log's Find bar: the next or previous row holding a needle, and which match of
how many it is ("match 2 of 7 · row 40 of 120", with the matches the filter hides said).

The log searches itself (a file-backed recording searches the file's bytes). A big log (a
million-message recording) is searched a slice at a time: the nearest match is found first,
so the window answers at once, and every match is counted after, a slice per event-loop
turn ("counting matches 40%"), so the count never freezes the window.
"""

from __future__ import annotations

import bisect

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QTableView, QToolButton, QWidget

from inspector.traffic.filter import TrafficFilter
from inspector.traffic.log import TrafficLog
from inspector.ui.traffic.traffic_model import TrafficLogModel
from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["LogFindBar"]


class LogFindBar(QWidget):
    """Find in the log: its field, Previous and Next, and what was found.

    Collaborators: the log it searches, the table model that says which entries the filter
    shows (and on which row), and the table (its current row is where a search starts). A
    match found is asked to be selected through `select_requested` (a signal, not a
    reference to the panel: a bar holding its panel would keep both alive in a reference
    cycle, deleted whenever the garbage collector runs)."""

    select_requested = Signal(int)  # the traffic index of the match to select

    def __init__(self, log: TrafficLog, model: TrafficLogModel, table: QTableView) -> None:
        super().__init__()
        self.log = log
        self.model = model
        self.table = table
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText("Find in log (Enter: next, Shift+Enter: previous)")
        self.edit.returnPressed.connect(self.find_next)
        self.previous_button = QToolButton()
        self.previous_button.setText("Previous")
        self.previous_button.clicked.connect(self.find_previous)
        self.next_button = QToolButton()
        self.next_button.setText("Next")
        self.next_button.clicked.connect(self.find_next)
        self.status = PlainLabel()
        close = QToolButton()
        close.setText("✕")
        close.setToolTip("Close the Find bar (Esc)")
        close.clicked.connect(self.hide_bar)
        escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        escape.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        escape.activated.connect(self.hide_bar)
        for keys in ("Shift+Return", "Shift+Enter"):  # as the field's placeholder says
            back = QShortcut(QKeySequence(keys), self.edit)
            back.setContext(Qt.ShortcutContext.WidgetShortcut)
            back.activated.connect(self.find_previous)
        self._found: int | None = None  # the traffic index last found
        self._match_cache: tuple[str, int, list[int]] | None = None  # needle, rows, matches
        # A big log's matches, counted a slice per event-loop turn: needle, next, so far.
        self._counting: tuple[str, int, list[int]] | None = None
        self._count_timer = QTimer(self)
        self._count_timer.setSingleShot(True)
        self._count_timer.setInterval(0)
        self._count_timer.timeout.connect(self._count_slice)
        row.addWidget(PlainLabel("Find:"))
        row.addWidget(self.edit, 1)
        row.addWidget(self.previous_button)
        row.addWidget(self.next_button)
        row.addWidget(self.status)
        row.addWidget(close)
        self.hide()

    def show_bar(self) -> None:
        self.show()
        self.update_found()
        self.edit.setFocus()
        self.edit.selectAll()

    def hide_bar(self) -> None:
        self.hide()
        self.table.setFocus()

    def after_reset(self) -> None:
        """The log was cleared or refiltered: forget what no longer exists."""
        if len(self.log) == 0:
            self._match_cache = None
            self._counting = None
        if self._found is not None and self._found >= len(self.log):
            self._found = None
            self.status.setText("")

    def update_found(self) -> None:
        """Keep what the bar says true while traffic arrives or the filter changes (shown
        again when the bar is shown: never a stale sentence)."""
        if self._found is None or not self.isVisible():
            return
        self.status.setText(self._found_text())

    def _found_text(self) -> str:
        found = self._found
        if found is None:
            return ""
        row = self.model.row_of(found)
        if row is None:
            if self.model.catching_up and found >= self.model.considered:
                return f"#{found} · filtering…"
            return f"#{found} is hidden by the filter"
        needle = self.edit.text()
        where = f"row {row + 1:,} of {self.model.rowCount():,}"
        if not self._counted(needle):
            done = self._start_counting(needle) * 100 // max(len(self.log), 1)
            return f"{where} · counting matches {done}%"
        shown, hidden = self._shown_matches(needle)
        at = bisect.bisect_left(shown, found)
        if at >= len(shown) or shown[at] != found:
            return where  # (the needle was edited since)
        text = f"match {at + 1:,} of {len(shown):,} · {where}"
        return text + (f" ({hidden:,} more hidden by the filter)" if hidden else "")

    def _matches(self, needle: str) -> list[int]:
        """The log's rows holding `needle` (smart case, as the text filter), in order;
        kept while the needle is the same, extended as the log grows."""
        cached = self._match_cache
        total = len(self.log)
        if cached is not None and cached[0] == needle and cached[1] <= total:
            if cached[1] == total:
                return cached[2]
            more = self.log.filter_indices(TrafficFilter(text=needle), start=cached[1])
            matches = cached[2] + more
        else:
            matches = self.log.filter_indices(TrafficFilter(text=needle))
        self._match_cache = (needle, total, matches)
        return matches

    def _shown_matches(self, needle: str) -> tuple[list[int], int]:
        """The matches the filter shows, and how many it hides."""
        matches = self._matches(needle)
        if not self.model.filtered:
            return matches, 0
        row_of = self.model.row_of
        shown = [i for i in matches if row_of(i) is not None]
        return shown, len(matches) - len(shown)

    # ---------------------------------------------------------------- a big log
    def _counted(self, needle: str) -> bool:
        """Are the needle's matches known (or cheap to know: a log that is not big)?"""
        if len(self.log) <= self.model.progressive_from:
            return True
        cached = self._match_cache
        return cached is not None and cached[0] == needle

    def _start_counting(self, needle: str) -> int:
        """Count the needle's matches in slices (going on if already); how far it got."""
        if self._counting is None or self._counting[0] != needle:
            self._counting = (needle, 0, [])
        self._count_timer.start()
        return self._counting[1]

    def _count_slice(self) -> None:
        counting = self._counting
        if counting is None:
            return
        needle, start, found = counting
        total = len(self.log)
        stop = min(total, start + self.model.slice_items)
        found.extend(self.log.filter_indices(TrafficFilter(text=needle), start=start, stop=stop))
        if stop >= total:
            self._counting = None
            self._match_cache = (needle, total, found)
        else:
            self._counting = (needle, stop, found)
            self._count_timer.start()
        self.update_found()

    def _nearest(self, needle: str, here: int | None, forward: bool) -> int | None:
        """The nearest shown match after (or before) entry `here`, wrapping around,
        searched a slice at a time from there."""
        total = len(self.log)
        text = TrafficFilter(text=needle)
        row_of = self.model.row_of
        step = self.model.slice_items
        if forward:
            begin = 0 if here is None else here + 1
            spans = [(a, min(a + step, total)) for a in range(begin, total, step)]
            spans += [(a, min(a + step, begin)) for a in range(0, begin, step)]
        else:
            end = total if here is None else here
            spans = [(max(0, b - step), b) for b in range(end, 0, -step)]
            spans += [(max(end, b - step), b) for b in range(total, end, -step)]
        for a, b in spans:
            hits = self.log.filter_indices(text, start=a, stop=b)
            shown = [i for i in hits if row_of(i) is not None]
            if shown:
                return shown[0] if forward else shown[-1]
        return None

    # ---------------------------------------------------------------- finding
    def find_next(self) -> bool:
        return self._find(forward=True)

    def find_previous(self) -> bool:
        return self._find(forward=False)

    def _here(self) -> int | None:
        current = self.table.currentIndex().row()
        return self.model.source_index(current) if current >= 0 else None

    def _find(self, forward: bool) -> bool:
        needle = self.edit.text()
        if not needle:
            return False
        self.model.flush()
        if self.model.rowCount() == 0:
            self.status.setText("no messages")
            return False
        if not self._counted(needle):
            nearest = self._nearest(needle, self._here(), forward)
            if nearest is None:
                self._found = None
                shown_only = " among the rows the filter shows" if self.model.filtered else ""
                self.status.setText(f"not found{shown_only}")
                return False
            return self._select(nearest)
        shown, hidden = self._shown_matches(needle)
        if not shown:
            self._found = None
            self.status.setText(
                f"not found ({hidden:,} hidden by the filter)" if hidden else "not found"
            )
            return False
        here = self._here()
        if forward:
            at = 0 if here is None else bisect.bisect_right(shown, here)
            at = 0 if at >= len(shown) else at
        else:
            at = len(shown) - 1 if here is None else bisect.bisect_left(shown, here) - 1
            at = len(shown) - 1 if at < 0 else at
        return self._select(shown[at])

    def _select(self, index: int) -> bool:
        self._found = index
        self.select_requested.emit(index)
        self.status.setText(self._found_text())
        return True
