"""A warning box in plain text (server and file text is never rich text), window-modal
without blocking the event loop (`open`, not `exec`), deleted when closed."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

__all__ = ["open_warning"]


def open_warning(parent: QWidget, object_name: str, title: str, text: str) -> QMessageBox:
    """Open the box and return it (tests read it)."""
    box = QMessageBox(parent)
    box.setObjectName(object_name)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(title)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(text)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
