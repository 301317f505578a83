"""Render the app icon from its one source, inspector/ui/resources/mcp-inspector-qt.svg, into
the sizes the freedesktop icon theme spec expects (hicolor/NxN/apps/<id>.png plus
scalable/apps/<id>.svg), and a Windows .ico; a macOS .icns where Qt can write one.

Usage: python packaging/make_icons.py OUT_DIR   (packaging/build.sh runs it)
Needs only PySide6 (offscreen: no display).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QImageWriter, QPainter
from PySide6.QtSvg import QSvgRenderer

REPO = Path(__file__).resolve().parents[1]
SOURCE = REPO / "inspector" / "ui" / "resources" / "mcp-inspector-qt.svg"
APP_ID = "io.github.mcp_inspector_qt"
NAME = "mcp-inspector-qt"
# The hicolor theme's usual fixed sizes (the icon theme spec: 48x48 at least, and
# scalable/ for the SVG); AppStream wants 64x64 and 128x128 for a desktop application.
SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)


def render(renderer: QSvgRenderer, size: int) -> QImage:
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.stderr.write(__doc__ or "")
        return 2
    out = Path(argv[0])
    _app = QGuiApplication([])
    renderer = QSvgRenderer(str(SOURCE))
    if not renderer.isValid():
        sys.stderr.write(f"error: cannot read {SOURCE}\n")
        return 1
    hicolor = out / "hicolor"
    for size in SIZES:
        target = hicolor / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not render(renderer, size).save(str(target), "PNG"):
            sys.stderr.write(f"error: could not write {target}\n")
            return 1
    scalable = hicolor / "scalable" / "apps" / f"{APP_ID}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SOURCE, scalable)
    formats = {bytes(f.data()).decode() for f in QImageWriter.supportedImageFormats()}
    for suffix, size in (("ico", 256), ("icns", 512)):
        if suffix in formats:
            render(renderer, size).save(str(out / f"{NAME}.{suffix}"), suffix.upper())
    extra = sorted(formats & {"ico", "icns"})
    sys.stdout.write(f"icons: {len(SIZES)} PNG sizes, the scalable SVG, {extra} in {out}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
