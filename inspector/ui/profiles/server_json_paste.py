"""The import dialog's server.json box: type or paste a server.json (or fill it from the
clipboard), list its servers, and see its problems; clicking a problem selects its place in
the text (`inspector.registry.json_place`)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QFontDatabase, QGuiApplication, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.registry.json_place import place_of
from inspector.registry.schema import MAX_BYTES, SchemaProblem
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip

__all__ = ["ServerJsonPasteBox"]


class ServerJsonPasteBox(QWidget):
    """`read(text, source)` is called with the box's text when the user asks for it;
    `show_problems` lists what it found wrong; `edited()` is called at the first change typed
    after the text was read (what was listed from it is no longer what the box holds)."""

    def __init__(
        self,
        read: Callable[[str, str], None],
        parent: QWidget | None = None,
        *,
        edited: Callable[[], None] = lambda: None,
    ) -> None:
        super().__init__(parent)
        self._read = read
        self._edited = edited
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("serverJsonBox")
        self.editor.setPlaceholderText(
            "Paste or type a server.json here (one, an array of them, or a registry entry), "
            "or drop a .json file on this dialog."
        )
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.editor.setAcceptDrops(False)  # a drop goes to the dialog, which reads files too
        self.editor.document().modificationChanged.connect(self._modified)
        self.paste_button = QPushButton("Paste a server.json")
        self.paste_button.setToolTip("Put the clipboard's text in the box and list its servers")
        self.paste_button.clicked.connect(self.paste_clipboard)
        self.read_button = QPushButton("List its servers")
        self.read_button.setToolTip("Read the box's server.json and list its servers")
        self.read_button.clicked.connect(self.read_box)
        self.problems = QListWidget()
        self.problems.setMaximumHeight(80)
        self.problems.itemClicked.connect(self._problem_chosen)
        self.problems.itemActivated.connect(self._problem_chosen)
        self.problems_label = PlainLabel("Problems (click one to see its place):")
        buttons = QHBoxLayout()
        buttons.addWidget(self.paste_button)
        buttons.addWidget(self.read_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.editor, 3)
        layout.addLayout(buttons)
        layout.addWidget(self.problems_label)
        layout.addWidget(self.problems)
        self.show_problems([])

    def paste_clipboard(self) -> None:
        self.set_text(QGuiApplication.clipboard().text(), "the clipboard")

    def read_box(self) -> None:
        self.editor.document().setModified(False)
        self._read(self.editor.toPlainText(), "the box")

    def _modified(self, modified: bool) -> None:
        if modified:
            self._edited()

    def set_text(self, text: str, source: str) -> None:
        """Show text that came from elsewhere (the clipboard, a drop) and read it. Text too
        big to be a server.json is not put in the box (it would stall it): reading it says
        how big it is."""
        if len(text) <= MAX_BYTES:
            self.editor.setPlainText(text)  # not a modification
        self._read(text, source)

    def show_problems(self, problems: list[SchemaProblem]) -> None:
        self.problems.clear()
        for problem in problems:
            item = QListWidgetItem(str(problem))
            item.setToolTip(plain_tooltip(str(problem)))
            self.problems.addItem(item)
        self._problems = list(problems)
        self.problems.setVisible(bool(problems))
        self.problems_label.setVisible(bool(problems))

    def _problem_chosen(self, item: QListWidgetItem) -> None:
        row = self.problems.row(item)
        if 0 <= row < len(self._problems):
            self.select_place(self._problems[row])

    def select_place(self, problem: SchemaProblem) -> bool:
        """Select the problem's value in the box (its first line when it spans several)."""
        text = self.editor.toPlainText()
        span = place_of(text, problem.pointer, problem.sentence)
        if span is None:
            return False
        start, end = span
        newline = text.find("\n", start, end)
        if newline != -1:
            end = newline
        cursor = self.editor.textCursor()
        cursor.setPosition(_utf16(text, start))  # Qt counts UTF-16 units, Python code points
        cursor.setPosition(_utf16(text, end), QTextCursor.MoveMode.KeepAnchor)
        self.editor.setTextCursor(cursor)
        self.editor.centerCursor()
        self.editor.setFocus()
        return True


def _utf16(text: str, offset: int) -> int:
    return len(text[:offset].encode("utf-16-le")) // 2
