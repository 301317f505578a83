"""A QAction made in one call: its text, what it triggers and its shortcut; added to a
window as well, its shortcut works with the menu bar hidden."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

__all__ = ["Shortcut", "make_action"]

Shortcut = QKeySequence | QKeySequence.StandardKey | str


def make_action(
    text: str,
    slot: Callable[[], object],
    parent: QWidget,
    shortcut: Shortcut | None = None,
    *,
    add_to_parent: bool = False,
) -> QAction:
    """An action owned by `parent`; `add_to_parent`: also one of `parent`'s actions (a
    window's), so its shortcut works even where no menu shows it."""
    action = QAction(text, parent)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    action.triggered.connect(slot)
    if add_to_parent:
        parent.addAction(action)
    return action
