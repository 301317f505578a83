"""A layout saved before the connection tabs (the connection toolbar on the window itself)
must not leave an empty band above the tabs after an upgrade."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QToolBar

from inspector.settings.profiles import ProfileStore
from inspector.storage.secrets import SecretStore
from inspector.ui.shell.window_state import STATE_VERSION
from tests.helpers.gui import window_for


def _old_layout(tmp: Path) -> None:
    """What the single-connection window saved: a top toolbar named connectionToolbar."""
    old = QMainWindow()
    bar = QToolBar("Connection")
    bar.setObjectName("connectionToolbar")
    bar.addWidget(QLabel("Server:"))
    old.addToolBar(bar)
    old.setCentralWidget(QLabel("centre"))
    old.resize(1280, 800)
    old.show()
    QApplication.processEvents()
    settings = QSettings(str(tmp / "window.ini"), QSettings.Format.IniFormat)
    settings.setValue("windowState", old.saveState())  # version 0
    settings.sync()
    old.close()


def test_an_old_saved_layout_leaves_no_band_above_the_tabs(
    qapp: QApplication, tmp_path: Path
) -> None:
    _old_layout(tmp_path)
    window = window_for(ProfileStore(tmp_path / "profiles.json", SecretStore()), tmp_path)
    try:
        window.resize(1280, 800)
        window.show()
        window.new_tab()  # two tabs: the strip shows
        QApplication.processEvents()
        central = window.centralWidget()
        assert central is not None
        assert central.geometry().top() <= window.menuBar().geometry().bottom() + 1
        # What the window saves now carries the version, and is restored again.
        window.save_state()
        assert window.restoreState(window.saveState(STATE_VERSION), STATE_VERSION)
    finally:
        window.close()
