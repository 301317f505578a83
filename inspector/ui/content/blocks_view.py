"""ContentBlocksView: a list of content blocks (a tool result, a prompt message...), each
in its own card: text, image, audio, resource link (a click asks to read it), embedded
resource (text or blob) and, for a type we do not know, the raw JSON with a warning.

The view does not scroll by itself: put it in the scroll area of the page that shows it.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from inspector.features.content_blocks import BlockInfo, describe_blocks
from inspector.features.resource_content import BlobDecodeError
from inspector.ui.content.panes import AudioPane, BinaryPane, ImagePane, TextPane
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip, short
from inspector.ui.widgets.theme import colors

__all__ = ["BlockCard", "ContentBlocksView"]


class BlockCard(QFrame):
    """One block: a header (kind, size, annotations), its problems, and its pane."""

    read_resource_requested = Signal(str)

    def __init__(self, info: BlockInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.info = info
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setObjectName("blockCard")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 8)
        layout.setSpacing(4)
        header = QHBoxLayout()
        self.kind_label = PlainLabel(f"#{info.index + 1}  {info.header()}")
        font = self.kind_label.font()
        font.setBold(True)
        self.kind_label.setFont(font)
        header.addWidget(self.kind_label)
        header.addStretch(1)
        if info.annotations:
            note = PlainLabel(short(info.annotations, 80))
            note.setStyleSheet(f"color: {colors().muted.name()};")
            note.setToolTip(plain_tooltip(info.annotations))
            header.addWidget(note)
        layout.addLayout(header)
        self.problem_label = PlainLabel("", wrap=True)
        self.problem_label.setStyleSheet(f"color: {colors().warn.name()};")
        self.problem_label.setVisible(False)
        layout.addWidget(self.problem_label)
        self.pane: QWidget | None = None
        self._show_problems(info.problems)
        self._build(layout)

    def _show_problems(self, problems: list[str]) -> None:
        if problems:
            self.problem_label.setText("⚠ " + "; ".join(short(p, 200) for p in problems[:5]))
            self.problem_label.show()

    def _build(self, layout: QVBoxLayout) -> None:
        info = self.info
        if info.kind == "text":
            self.pane = TextPane(info.text or "", None, self)
        elif info.kind == "image":
            self.pane = ImagePane(info.data or "", info.mime_type, "image", self)
        elif info.kind == "audio":
            self.pane = AudioPane(info.data or "", info.mime_type, self)
        elif info.kind == "resource_link":
            self.pane = self._link()
        elif info.kind == "resource":
            self.pane = self._embedded()
        else:
            self.pane = TextPane(_raw_json(info.raw), "application/json", self)
        layout.addWidget(self.pane)

    def _link(self) -> QWidget:
        info = self.info
        box = QWidget(self)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        line = QHBoxLayout()
        name = info.title or info.name or "(no name)"
        title = PlainLabel(short(name, 120))
        line.addWidget(title)
        line.addStretch(1)
        self.read_button = QPushButton("Read", box)
        self.read_button.setToolTip(plain_tooltip(f"resources/read {info.uri or ''}"))
        self.read_button.setEnabled(bool(info.uri))
        self.read_button.clicked.connect(self._read)
        line.addWidget(self.read_button)
        layout.addLayout(line)
        uri = PlainLabel(info.uri or "(no uri)", wrap=True, selectable=True)
        uri.setStyleSheet(f"color: {colors().out.name()};")
        uri.setCursor(Qt.CursorShape.PointingHandCursor)
        uri.mousePressEvent = lambda _event: self._read()  # type: ignore[method-assign]
        self.uri_label = uri
        layout.addWidget(uri)
        if info.description:
            description = PlainLabel(short(info.description, 400), wrap=True)
            description.setStyleSheet(f"color: {colors().muted.name()};")
            description.setToolTip(plain_tooltip(info.description))
            layout.addWidget(description)
        return box

    def _read(self) -> None:
        if self.info.uri:
            self.read_resource_requested.emit(self.info.uri)

    def _embedded(self) -> QWidget:
        info = self.info
        part = info.part
        box = QWidget(self)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        uri = PlainLabel(info.uri or "(no uri)", wrap=True, selectable=True)
        uri.setStyleSheet(f"color: {colors().muted.name()};")
        layout.addWidget(uri)
        if part is None or part.kind == "invalid":
            layout.addWidget(TextPane(_raw_json(info.raw), "application/json", box))
            return box
        if part.kind == "text":
            layout.addWidget(TextPane(part.text or "", part.mime_type, box))
            return box
        try:
            data = part.decode()
        except BlobDecodeError as exc:
            self._show_problems([f"the blob is not valid base64: {exc}"])
            return box
        name = info.uri or "resource"
        if part.image_format() is not None:
            layout.addWidget(ImagePane(data, part.mime_type, name, box))
        else:
            layout.addWidget(BinaryPane(data, part.mime_type, name, box))
        return box


class ContentBlocksView(QWidget):
    read_resource_requested = Signal(str)  # a resource_link was clicked: its uri

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(6)
        self.cards: list[BlockCard] = []
        self.notice = PlainLabel("", wrap=True)
        self.notice.setStyleSheet(f"color: {colors().warn.name()};")
        self.notice.hide()
        self._layout.addWidget(self.notice)
        self.empty = PlainLabel("(no content)")
        self.empty.setStyleSheet(f"color: {colors().muted.name()};")
        self._layout.addWidget(self.empty)
        self._layout.addStretch(1)

    def set_blocks(self, blocks: list[dict[str, Any]]) -> None:
        for card in self.cards:
            self._layout.removeWidget(card)
            card.hide()
            card.deleteLater()
        self.cards = []
        infos, problems = describe_blocks(blocks)
        self.notice.setText("; ".join(problems))
        self.notice.setVisible(bool(problems))
        for info in infos:
            card = BlockCard(info, self)
            card.read_resource_requested.connect(self.read_resource_requested)
            self._layout.insertWidget(self._layout.count() - 1, card)
            self.cards.append(card)
        self.empty.setVisible(not infos)

    def summary(self) -> str:
        """ "2 blocks: text, image" (for a collapsed header)."""
        kinds = [c.info.kind for c in self.cards]
        if not kinds:
            return "no content"
        return f"{len(kinds)} block{'s' if len(kinds) != 1 else ''}: {', '.join(kinds)}"


def _raw_json(value: Any) -> str:
    try:
        return json.dumps(value, indent=2, ensure_ascii=False, default=repr)
    except (TypeError, ValueError):
        return repr(value)
