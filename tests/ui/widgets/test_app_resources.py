"""The app icon comes from the package (inspector/ui/resources/) through importlib.resources,
at any size; a missing file gives an empty icon, not an exception."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from inspector.ui.widgets import app_resources
from inspector.ui.widgets.app_resources import ICON_NAME, app_icon, resource
from tests.helpers.peers import REPO


def test_the_icon_ships_inside_the_package() -> None:
    icon = resource(ICON_NAME)
    assert icon.is_file()
    assert Path(str(icon)).is_relative_to(REPO / "inspector")
    assert icon.read_bytes().startswith(b"<?xml")


@pytest.mark.parametrize("size", [16, 48, 256])
def test_the_icon_renders_at_every_size(qapp: QApplication, size: int) -> None:
    icon = app_icon()
    assert not icon.isNull()
    image = icon.pixmap(size, size).toImage()
    assert (image.width(), image.height()) == (size, size)
    assert image.pixelColor(size // 2, size // 2).alpha() == 255  # drawn, not transparent


def test_a_missing_icon_is_an_empty_icon(
    qapp: QApplication, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(app_resources, "ICON_NAME", "no-such-icon.svg")
    assert app_icon().isNull()
    assert "no-such-icon.svg" in caplog.text
