"""Markdown from a server never reads a local file: an image with a relative or absolute
path, or a file: URL, renders as nothing (Qt's document falls back to reading local files
when the browser's loadResource gives no value; the browser must always give one)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QImage, QPixmap, QTextDocument
from PySide6.QtWidgets import QApplication

from inspector.ui.content.panes import SafeMarkdownBrowser

pytestmark = pytest.mark.timeout(60)


def _secret_png(tmp_path: Path) -> Path:
    image = QImage(64, 48, QImage.Format.Format_ARGB32)
    image.fill(0xFFFF0000)
    path = tmp_path / "secret.png"
    assert image.save(str(path))
    return path


@pytest.mark.parametrize("how", ["absolute", "file-url", "relative"])
def test_a_local_image_is_never_loaded(qapp: QApplication, tmp_path: Path, how: str) -> None:
    path = _secret_png(tmp_path)
    browser = SafeMarkdownBrowser()
    browser.document().setBaseUrl(QUrl.fromLocalFile(str(tmp_path) + "/"))
    target = {
        "absolute": str(path),
        "file-url": QUrl.fromLocalFile(str(path)).toString(),
        "relative": "secret.png",
    }[how]
    browser.set_markdown(f"# Look\n\n![x]({target})\n")
    browser.resize(400, 300)
    browser.show()
    for _ in range(5):
        QApplication.processEvents()
    loaded = browser.document().loadResource(
        QTextDocument.ResourceType.ImageResource.value, QUrl(target)
    )
    if isinstance(loaded, QPixmap | QImage):
        width = loaded.width()
    else:
        width = QImage.fromData(bytes(loaded or b"")).width()
    assert width != 64, "the server's Markdown read a local image file"
    browser.close()
