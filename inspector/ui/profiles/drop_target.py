"""Drops of a config or server.json on a widget (the import dialog, the profiles list): a
local file is handed over by its path, dropped text as text. An event filter, so the widget
keeps its own class; anything else dropped (a web link, an image) is refused."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QMimeData, QObject
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QAbstractScrollArea, QWidget

__all__ = ["DropTarget", "dropped_file"]


def dropped_file(mime: QMimeData) -> Path | None:
    """The one local file in a drop (None: not exactly one local file)."""
    if not mime.hasUrls():
        return None
    files = [url.toLocalFile() for url in mime.urls() if url.isLocalFile()]
    return Path(files[0]) if len(files) == 1 and len(mime.urls()) == 1 else None


def _wanted(mime: QMimeData) -> bool:
    return dropped_file(mime) is not None or (not mime.hasUrls() and mime.hasText())


class DropTarget(QObject):
    """Makes `widget` (its viewport, for a list) take drops: `on_file(path)` for a dropped
    file, `on_text(text)` for dropped text."""

    def __init__(
        self,
        widget: QWidget,
        on_file: Callable[[Path], object],
        on_text: Callable[[str], object],
    ) -> None:
        super().__init__(widget)
        self._on_file = on_file
        self._on_text = on_text
        self.target = widget.viewport() if isinstance(widget, QAbstractScrollArea) else widget
        self.target.setAcceptDrops(True)
        self.target.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove) and isinstance(
            event, QDragEnterEvent | QDragMoveEvent
        ):
            if _wanted(event.mimeData()):
                event.acceptProposedAction()
            else:
                event.ignore()
            return True
        if kind == QEvent.Type.Drop and isinstance(event, QDropEvent):
            mime = event.mimeData()
            path = dropped_file(mime)
            if path is not None:
                event.acceptProposedAction()
                self._on_file(path)
            elif not mime.hasUrls() and mime.hasText():
                event.acceptProposedAction()
                self._on_text(mime.text())
            else:
                event.ignore()
            return True
        return False
