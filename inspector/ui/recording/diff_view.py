"""A recorded answer and a new one side by side, drift highlighted: the changed paths
listed on top, the differing lines coloured (changed, removed on the left, added on the
right), both sides scrolling together. Lines come from the Qt-free
`inspector.recording.side_by_side`; the text is plain text, never rich text."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from inspector.recording.diff import Change
from inspector.recording.side_by_side import DiffLine, Mark, side_by_side
from inspector.ui.widgets.code_view import code_view
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["SideBySideView"]


def _heading(text: str) -> PlainLabel:
    label = PlainLabel(text)
    bold = label.font()
    bold.setBold(True)
    label.setFont(bold)
    return label


def mark_colors() -> dict[Mark, QColor]:
    c = colors()
    added = QColor(c.ok)
    added.setAlpha(70)
    filler = QColor(c.muted)
    filler.setAlpha(35)
    return {
        "changed": QColor(c.pair_bg),
        "removed": QColor(c.invalid_bg),
        "added": added,
        "filler": filler,
    }


class SideBySideView(QWidget):
    def __init__(
        self,
        changes_title: str = "Drift",
        no_changes: str = "No drift: the new answer matches the recorded one.",
        *,
        titles: tuple[str, str] = ("Recorded", "Now"),
        waiting: str = "",
    ) -> None:
        """`titles`: the two panes' headings (a replay's by default); `waiting`: what the
        changes list says before anything was compared (`no_changes` only after)."""
        super().__init__()
        self.titles = titles
        self.no_changes = no_changes
        self.waiting = waiting
        self.setObjectName("sideBySide")
        self.message = PlainLabel(wrap=True)
        self.message.setObjectName("diffMessage")
        self.paths = code_view("driftPaths")
        self.paths.setPlaceholderText(waiting or no_changes)
        self.paths.setMaximumHeight(self.paths.fontMetrics().height() * 7)
        self.left_title = _heading(titles[0])
        self.right_title = _heading(titles[1])
        self.left = code_view("recordedSide")
        self.right = code_view("newSide")
        for a, b in ((self.left, self.right), (self.right, self.left)):
            a.verticalScrollBar().valueChanged.connect(b.verticalScrollBar().setValue)
            a.horizontalScrollBar().valueChanged.connect(b.horizontalScrollBar().setValue)

        def column(title: QLabel, view: QPlainTextEdit) -> QWidget:
            box = QWidget()
            layout = QVBoxLayout(box)
            layout.setContentsMargins(0, 0, 0, 0)
            layout.addWidget(title)
            layout.addWidget(view, 1)
            return box

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(column(self.left_title, self.left))
        split.addWidget(column(self.right_title, self.right))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.message)
        layout.addWidget(_heading(changes_title))
        layout.addWidget(self.paths)
        layout.addWidget(split, 1)
        self.lines: tuple[list[DiffLine], list[DiffLine]] = ([], [])
        self.changes: list[Change] = []
        self.paths.cursorPositionChanged.connect(self._path_clicked)
        self.paths.setToolTip("Click a change to show it")

    def clear(self, message: str = "") -> None:
        self.show_diff(None, None, [], message=message)

    def show_diff(
        self,
        old: Any,
        new: Any,
        changes: list[Change],
        *,
        message: str = "",
        left_title: str | None = None,
        right_title: str | None = None,
    ) -> None:
        """Show `old` and `new` side by side with their `changes` (both None: nothing is
        compared, as before the first comparison)."""
        self.message.setText(message)
        self.message.setVisible(bool(message))
        self.left_title.setText(self.titles[0] if left_title is None else left_title)
        self.right_title.setText(self.titles[1] if right_title is None else right_title)
        nothing = (old, new) == (None, None) and not changes
        self.paths.setPlaceholderText(self.waiting if nothing and self.waiting else self.no_changes)
        self.paths.setPlainText("\n".join(c.describe() for c in changes))
        left, right = side_by_side(old, new, changes) if (old, new) != (None, None) else ([], [])
        self.lines = (left, right)
        self.changes = list(changes)
        self._fill(self.left, left)
        self._fill(self.right, right)
        marked = [
            i
            for side in (right, left)
            for i, line in enumerate(side)
            if line.mark and line.mark != "filler"
        ]
        first = min(marked) if marked else None
        self.scroll_to_row(first if first is not None else 0)

    def scroll_to_row(self, row: int) -> None:
        """Show `row` (both sides), a few lines below the top so its context shows."""
        for view in (self.left, self.right):
            view.verticalScrollBar().setValue(max(0, row - 3))
            view.horizontalScrollBar().setValue(0)

    def _path_clicked(self) -> None:
        """A line of the drift list: show where that change is."""
        number = self.paths.textCursor().blockNumber()
        if not 0 <= number < len(self.changes):
            return
        target = self.changes[number].path
        for lines in (self.lines[1], self.lines[0]):
            for row, line in enumerate(lines):
                if (
                    line.mark
                    and line.path is not None
                    and (line.path == target or line.path.startswith(target + "/"))
                ):
                    self.scroll_to_row(row)
                    return

    @staticmethod
    def _fill(view: QPlainTextEdit, lines: list[DiffLine]) -> None:
        view.setPlainText("\n".join(line.text for line in lines))
        palette = mark_colors()
        selections: list[QTextEdit.ExtraSelection] = []
        doc = view.document()
        for number, line in enumerate(lines):
            if not line.mark:
                continue
            selection = QTextEdit.ExtraSelection()
            selection.format.setBackground(palette[line.mark])
            selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            cursor = QTextCursor(doc.findBlockByNumber(number))
            selection.cursor = cursor
            selections.append(selection)
        view.setExtraSelections(selections)

    def marked(self, side: str = "right") -> list[str]:
        """The texts of the coloured lines of a side (for tests)."""
        lines = self.lines[1] if side == "right" else self.lines[0]
        return [line.text.strip() for line in lines if line.mark and line.mark != "filler"]
