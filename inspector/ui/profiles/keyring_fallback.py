"""With no keyring: asking whether secret values may stay in memory for this session only,
and storing profiles that way when the person says yes. Saving a profile and importing
profiles both go through `store_keeping_secrets`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from inspector.storage.secrets import NoKeyringError

__all__ = ["ask_session_only", "store_keeping_secrets"]

T = TypeVar("T")


def ask_session_only(parent: QWidget, message: str) -> bool:
    """The keyring's `message`, and whether to keep the secret values for this session."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("No keyring")
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(message)
    box.setInformativeText("Keep the secret values in memory for this session only?")
    box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel)
    return box.exec() == QMessageBox.StandardButton.Yes


def store_keeping_secrets(store: Callable[[bool], T], ask: Callable[[str], bool]) -> T | None:
    """`store(False)`: the secret values go to the keyring. With no keyring, `ask` (given the
    keyring's message) whether they may stay in memory for this session only: yes,
    `store(True)`; no, None (nothing stored). Other errors (ValueError) reach the caller."""
    try:
        return store(False)
    except NoKeyringError as exc:
        if not ask(str(exc)):
            return None
        return store(True)
