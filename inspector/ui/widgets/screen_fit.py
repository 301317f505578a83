"""Size and place a window within the available geometry of its screen.

A window asks for the size that suits it; on a smaller screen it gets what fits (less a
margin for the window frame), and it is moved so that all of it is on the screen: no
window opens partly off a 1000 px screen.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QWidget

__all__ = ["fit_to_screen", "screen_of"]

_FRAME: Final = 40  # room left for the window manager's frame and title bar


def screen_of(widget: QWidget) -> QScreen | None:
    parent = widget.parentWidget()
    anchor = parent.window() if parent is not None else widget
    return anchor.screen() or QGuiApplication.primaryScreen()


def fit_to_screen(widget: QWidget, width: int, height: int) -> QRect:
    """Resize `widget` to `width`×`height`, or less when its screen's available area is
    smaller; centre it over its parent window (or the screen), kept inside that area.
    Returns the geometry given."""
    screen = screen_of(widget)
    if screen is None:
        widget.resize(width, height)
        return widget.geometry()
    area = screen.availableGeometry()
    w = max(200, min(width, area.width() - _FRAME))
    h = max(150, min(height, area.height() - _FRAME))
    widget.resize(w, h)
    parent = widget.parentWidget()
    centre = parent.window().geometry().center() if parent is not None else area.center()
    x = min(max(centre.x() - w // 2, area.left()), area.right() - w - _FRAME // 2)
    y = min(max(centre.y() - h // 2, area.top()), area.bottom() - h - _FRAME // 2)
    widget.move(QPoint(max(area.left(), x), max(area.top(), y)))
    return QRect(widget.pos(), widget.size())
