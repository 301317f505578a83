"""An image with a zoom, for resource blobs."""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPixmap, QResizeEvent
from PySide6.QtWidgets import QScrollArea

from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["ImageView"]


class ImageView(QScrollArea):
    """An image with a zoom: "Fit" scales to the view (tiny icons up to 8×, with crisp
    pixels), or a fixed percentage."""

    ZOOMS: Final = ("Fit", "50%", "100%", "200%", "400%", "800%")

    def __init__(self) -> None:
        super().__init__()
        self.label = PlainLabel()
        self.label.setObjectName("partImage")
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWidget(self.label)
        self.setWidgetResizable(True)
        self.image: QImage | None = None
        self.zoom = "Fit"
        self.scale = 1.0

    def set_image(self, image: QImage) -> None:
        self.image = image
        self._render()

    def set_zoom(self, zoom: str) -> None:
        self.zoom = zoom
        self._render()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.zoom == "Fit":
            self._render()

    def _render(self) -> None:
        image = self.image
        if image is None or image.isNull():
            return
        if self.zoom == "Fit":
            room = self.viewport().size()
            fit = min(
                (room.width() - 8) / max(1, image.width()),
                (room.height() - 8) / max(1, image.height()),
            )
            scale = min(8.0, fit) if fit >= 1 else max(fit, 0.01)
            if scale >= 1:
                scale = float(int(scale))  # whole multiples keep pixels square
        else:
            scale = int(self.zoom.rstrip("%")) / 100
        self.scale = scale
        mode = (
            Qt.TransformationMode.FastTransformation
            if scale >= 1
            else Qt.TransformationMode.SmoothTransformation
        )
        size = image.size() * scale
        pixmap = QPixmap.fromImage(image)
        if scale != 1:
            pixmap = pixmap.scaled(size, Qt.AspectRatioMode.KeepAspectRatio, mode)
        self.label.setPixmap(pixmap)
