"""What the server said about itself (serverInfo, capabilities, instructions), at the top of
the explorer. The header (name, version, protocol, era) always shows; capabilities and
instructions fold away. All of it is server text, shown as plain text only."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QFormLayout,
    QPlainTextEdit,
    QSizePolicy,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.protocol.machine.events import SessionReady
from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["ServerInfoPanel"]


def _server_text(text: str = "") -> PlainLabel:
    """Selectable, wrapped, and never setting the panel's minimum width (a long unbroken
    name would)."""
    label = PlainLabel(text, wrap=True, selectable=True)
    policy = label.sizePolicy()
    policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
    label.setSizePolicy(policy)
    return label


def _plain_box(placeholder: str) -> QPlainTextEdit:
    box = QPlainTextEdit()
    box.setReadOnly(True)
    box.setPlaceholderText(placeholder)
    return box


class ServerInfoPanel(QWidget):
    expanded_changed = Signal(bool)

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("serverInfoPanel")
        self.title = _server_text("Not connected")
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        self.title.setFont(font)
        self.version = _server_text()
        self.protocol = _server_text()
        self.era = _server_text()
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        form.setVerticalSpacing(1)
        form.addRow("Server version:", self.version)
        form.addRow("Protocol:", self.protocol)
        form.addRow("Era:", self.era)

        self.toggle = QToolButton()
        self.toggle.setObjectName("serverDetailsToggle")
        self.toggle.setText("Capabilities and instructions")
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setAutoRaise(True)
        self.toggle.toggled.connect(self.set_expanded)

        self.capabilities = _plain_box("Capabilities appear here after connecting.")
        self.capabilities.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.instructions = _plain_box("The server's instructions (if it gives any).")

        def section(title: str, widget: QWidget) -> QWidget:
            box = QWidget()
            layout = QVBoxLayout(box)
            layout.setContentsMargins(0, 2, 0, 0)
            layout.setSpacing(2)
            heading = PlainLabel(title)
            bold = heading.font()
            bold.setBold(True)
            heading.setFont(bold)
            layout.addWidget(heading)
            layout.addWidget(widget)
            return box

        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("serverSplitter")
        self.splitter.addWidget(section("Capabilities", self.capabilities))
        self.splitter.addWidget(section("Instructions", self.instructions))
        self.splitter.setMinimumHeight(160)
        self.splitter.setMaximumHeight(360)
        self.splitter.setVisible(False)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 2)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addLayout(form)
        layout.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.splitter)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.clear()

    @property
    def expanded(self) -> bool:
        return self.splitter.isVisibleTo(self)

    def set_expanded(self, on: bool) -> None:
        self.splitter.setVisible(on)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        if self.toggle.isChecked() != on:
            self.toggle.setChecked(on)
        self.expanded_changed.emit(on)

    def clear(self, title: str = "Not connected") -> None:
        self.title.setText(title)
        self.version.setText("–")
        self.protocol.setText("–")
        self.era.setText("–")
        self.capabilities.setPlainText("")
        self.instructions.setPlainText("")

    def show_ready(self, ready: SessionReady) -> None:
        info = ready.server_info if isinstance(ready.server_info, dict) else {}
        name = str(info.get("title") or info.get("name") or "(unnamed server)")
        self.title.setText(name)
        self.version.setText(f"{info.get('name', '?')} {info.get('version', '')}".strip())
        self.protocol.setText(ready.protocol_version)
        self.era.setText(ready.era.value)
        self.capabilities.setPlainText(json.dumps(ready.capabilities, indent=2, ensure_ascii=False))
        self.instructions.setPlainText(ready.instructions or "")
        self.toggle.setText(
            "Capabilities and instructions" if ready.instructions else "Capabilities"
        )
