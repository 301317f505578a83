"""The left area: what the server said about itself (serverInfo, capabilities,
instructions) and its tools. All of it is server text, shown as plain text only."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QFormLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from inspector.protocol.events import SessionReady

__all__ = ["ServerInfoPanel", "plain_label"]


def plain_label(text: str = "") -> QLabel:
    """A label that can never render markup: server text is untrusted."""
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setWordWrap(True)
    # A long unbroken name must not set the panel's minimum width.
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
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("serverInfoPanel")
        self.title = plain_label("Not connected")
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.title.setFont(font)
        self.version = plain_label()
        self.protocol = plain_label()
        self.era = plain_label()
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow("Server version:", self.version)
        form.addRow("Protocol:", self.protocol)
        form.addRow("Era:", self.era)
        header = QWidget()
        header_layout = QVBoxLayout(header)
        header_layout.setContentsMargins(0, 0, 0, 0)
        header_layout.addWidget(self.title)
        header_layout.addLayout(form)

        self.capabilities = _plain_box("Capabilities appear here after connecting.")
        self.capabilities.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.instructions = _plain_box("The server's instructions (if it gives any).")
        self.tools_label = plain_label("Tools")
        self.tools = QListWidget()
        self.tools.setObjectName("toolsList")
        self.tools.setUniformItemSizes(True)
        self.tool_detail = _plain_box("Select a tool to read its description and schema.")
        self.tools.currentItemChanged.connect(self._tool_selected)

        def section(title: str, *widgets: QWidget) -> QWidget:
            box = QWidget()
            layout = QVBoxLayout(box)
            layout.setContentsMargins(0, 4, 0, 0)
            heading = QLabel(title)
            heading.setTextFormat(Qt.TextFormat.PlainText)
            bold = heading.font()
            bold.setBold(True)
            heading.setFont(bold)
            layout.addWidget(heading)
            for w in widgets:
                layout.addWidget(w)
            return box

        tools_box = QWidget()
        tools_layout = QVBoxLayout(tools_box)
        tools_layout.setContentsMargins(0, 4, 0, 0)
        bold = self.tools_label.font()
        bold.setBold(True)
        self.tools_label.setFont(bold)
        tools_layout.addWidget(self.tools_label)
        tools_layout.addWidget(self.tools, 2)
        tools_layout.addWidget(self.tool_detail, 1)

        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("serverSplitter")
        self.splitter.addWidget(section("Capabilities", self.capabilities))
        self.splitter.addWidget(section("Instructions", self.instructions))
        self.splitter.addWidget(tools_box)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setStretchFactor(2, 4)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(header)
        layout.addWidget(self.splitter, 1)
        self._tools: list[dict[str, Any]] = []
        self.clear()

    def clear(self, title: str = "Not connected") -> None:
        self.title.setText(title)
        self.version.setText("–")
        self.protocol.setText("–")
        self.era.setText("–")
        self.capabilities.setPlainText("")
        self.instructions.setPlainText("")
        self.set_tools(None)

    def show_ready(self, ready: SessionReady) -> None:
        info = ready.server_info if isinstance(ready.server_info, dict) else {}
        name = str(info.get("title") or info.get("name") or "(unnamed server)")
        self.title.setText(name)
        self.version.setText(f"{info.get('name', '?')} {info.get('version', '')}".strip())
        self.protocol.setText(ready.protocol_version)
        self.era.setText(ready.era.value)
        self.capabilities.setPlainText(json.dumps(ready.capabilities, indent=2, ensure_ascii=False))
        self.instructions.setPlainText(ready.instructions or "")

    def set_tools(self, tools: list[dict[str, Any]] | None, error: str | None = None) -> None:
        self._tools = list(tools or [])
        self.tools.clear()
        self.tool_detail.setPlainText("")
        if tools is None:
            self.tools_label.setText("Tools")
            return
        self.tools_label.setText(f"Tools ({len(self._tools)})" + (f" — {error}" if error else ""))
        for tool in self._tools:
            name = str(tool.get("title") or tool.get("name") or "?")
            description = str(tool.get("description") or "").strip().splitlines()
            first = description[0] if description else ""
            item = QListWidgetItem(f"{name} — {first}" if first else name)
            self.tools.addItem(item)

    def _tool_selected(self, current: QListWidgetItem | None, _previous: object) -> None:
        row = self.tools.row(current) if current is not None else -1
        if not 0 <= row < len(self._tools):
            self.tool_detail.setPlainText("")
            return
        tool = self._tools[row]
        text = str(tool.get("description") or "(no description)")
        schema = json.dumps(tool.get("inputSchema", {}), indent=2, ensure_ascii=False)
        self.tool_detail.setPlainText(f"{tool.get('name')}\n\n{text}\n\ninputSchema:\n{schema}")

    def tool_names(self) -> list[str]:
        return [str(t.get("name")) for t in self._tools]
