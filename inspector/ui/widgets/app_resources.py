"""The files the app ships beside its code (inspector/ui/resources/), found through
importlib.resources so they load the same from a checkout, an installed wheel, a zip
import or a PyInstaller bundle; never through a path relative to the checkout."""

from __future__ import annotations

import logging
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Final

from PySide6.QtCore import QByteArray
from PySide6.QtGui import QIcon, QPixmap

__all__ = ["ICON_NAME", "app_icon", "resource"]

log = logging.getLogger(__name__)

ICON_NAME: Final = "mcp-inspector-qt.svg"
_PACKAGE: Final = "inspector.ui"
_FOLDER: Final = "resources"


def resource(name: str) -> Traversable:
    """One shipped file by name (it may not exist: check `.is_file()`)."""
    return files(_PACKAGE).joinpath(_FOLDER, name)


def app_icon() -> QIcon:
    """The app's icon, drawn from the one SVG source at any size; an empty icon (and a
    logged warning) if the file is missing, never an exception."""
    source = resource(ICON_NAME)
    if isinstance(source, Path) and source.is_file():
        return QIcon(str(source))  # a real file: Qt's SVG icon engine scales it
    try:
        data = source.read_bytes()
    except OSError as exc:
        log.warning("the app icon %s is missing: %s", ICON_NAME, exc)
        return QIcon()
    pixmap = QPixmap()
    pixmap.loadFromData(QByteArray(data), "SVG")  # packed (e.g. a zip): one rendering
    return QIcon(pixmap)
