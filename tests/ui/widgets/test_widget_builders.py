"""The widgets made in one call (ui/widgets): a splitter, a per-method table, an action,
Ok and Cancel for a dialog."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTableWidgetItem,
    QWidget,
)

from inspector.ui.widgets.actions import make_action
from inspector.ui.widgets.dialog_buttons import ok_cancel_buttons
from inspector.ui.widgets.method_table import method_table, row_texts
from inspector.ui.widgets.split_panes import split_panes

pytestmark = pytest.mark.timeout(60)


def test_split_panes_holds_its_panes_in_order_with_their_stretch(qapp: QApplication) -> None:
    first, second = QLabel("a"), QLabel("b")
    split = split_panes(Qt.Orientation.Vertical, [first, second], (1, 3), name="demoSplit")
    assert split.orientation() is Qt.Orientation.Vertical
    assert [split.widget(0), split.widget(1)] == [first, second]
    assert split.objectName() == "demoSplit"
    assert split.widget(1).sizePolicy().verticalStretch() == 3


def test_method_table_reads_a_row_back_by_its_first_cell(qapp: QApplication) -> None:
    table = method_table("stats", ("Method", "Count"), rows=1)
    assert table.objectName() == "stats"
    assert table.columnCount() == 2 and table.rowCount() == 1
    assert not table.verticalHeader().isVisible()
    table.setItem(0, 0, QTableWidgetItem("tools/list"))
    table.setItem(0, 1, QTableWidgetItem("3"))
    assert row_texts(table, "tools/list") == ["tools/list", "3"]
    assert row_texts(table, "ping") is None


def test_make_action_triggers_its_slot_and_may_join_its_window(qapp: QApplication) -> None:
    window = QWidget()
    fired: list[str] = []
    shared = make_action("Go", lambda: fired.append("go"), window, "Ctrl+G", add_to_parent=True)
    own = make_action("Stay", lambda: fired.append("stay"), window)
    assert shared.shortcut() == QKeySequence("Ctrl+G")
    assert shared in window.actions() and own not in window.actions()
    shared.trigger()
    own.trigger()
    assert fired == ["go", "stay"]


def test_ok_cancel_buttons_accept_or_do_what_the_dialog_says(qapp: QApplication) -> None:
    dialog = QDialog()
    buttons = ok_cancel_buttons(dialog)
    buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert dialog.result() == QDialog.DialogCode.Accepted
    saved: list[bool] = []
    other = QDialog()
    custom = ok_cancel_buttons(other, lambda: saved.append(True))
    custom.button(QDialogButtonBox.StandardButton.Ok).click()
    assert saved == [True]
    custom.button(QDialogButtonBox.StandardButton.Cancel).click()
    assert other.result() == QDialog.DialogCode.Rejected
