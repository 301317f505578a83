"""`save_call_button`: the one "Save call…" button the tool, prompt and resource views
share (its text and object name are how users and the collections feature know it)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.workspace.resource_reader import ResourceReader
from inspector.ui.workspace.save_menu import save_call_button


def test_the_button_saves_on_click(qapp: QApplication, qtbot: QtBot) -> None:
    clicks: list[None] = []
    button = save_call_button(lambda: clicks.append(None))
    qtbot.addWidget(button)
    assert button.text() == "Save call…"
    assert button.objectName() == "saveCallButton"
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    assert clicks == [None]
    button.setEnabled(False)
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    assert clicks == [None]  # a disabled button saves nothing


def test_a_view_s_button_saves_its_own_request(
    controller: ConnectionController, qtbot: QtBot
) -> None:
    reader = ResourceReader(controller)
    qtbot.addWidget(reader)
    saved: list[object] = []
    reader.save_call_requested.connect(saved.append)
    assert reader.save_button.objectName() == "saveCallButton"
    assert "resources/read" in reader.save_button.toolTip()
    reader.save_button.click()  # nothing read yet: nothing to save, and it says so
    assert saved == [] and reader.bar.status_label.text()
