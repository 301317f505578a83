"""File ▸ New Tab: what the new tab connects to, a saved profile, a stdio command line or
a URL. A bad command line or URL is said in the dialog, which stays open."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLineEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from inspector.settings.profile_labels import distinct_labels
from inspector.settings.profiles import Profile
from inspector.settings.targets import stdio_profile, url_profile
from inspector.ui.widgets.dialog_buttons import ok_cancel_buttons
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["NewTabDialog"]


class NewTabDialog(QDialog):
    chosen = Signal(object)  # Profile: the new tab connects to it

    def __init__(self, profiles: list[Profile], recent: list[str], parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("newTabDialog")
        self.setWindowTitle("New tab")
        self.profile_choice = QRadioButton("Saved &profile")
        self.stdio_choice = QRadioButton("&Command (stdio)")
        self.url_choice = QRadioButton("&URL (HTTP)")
        group = QButtonGroup(self)
        for button in (self.profile_choice, self.stdio_choice, self.url_choice):
            group.addButton(button)
        self.profile_combo = QComboBox()
        self.profiles = list(profiles)
        for profile, label in zip(self.profiles, distinct_labels(self.profiles), strict=True):
            self.profile_combo.addItem(label, profile.id)
        first = next((i for i in recent if any(p.id == i for p in self.profiles)), None)
        if first is not None:
            self.profile_combo.setCurrentIndex(self.profile_combo.findData(first))
        self.stdio_edit = QLineEdit()
        self.stdio_edit.setPlaceholderText("node dist/index.js stdio")
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText("http://127.0.0.1:3001/mcp")
        self.problem = PlainLabel(wrap=True)
        self.problem.setStyleSheet(f"color: {colors().error.name()}")
        self.problem.hide()
        grid = QGridLayout()
        grid.addWidget(self.profile_choice, 0, 0)
        grid.addWidget(self.profile_combo, 0, 1)
        grid.addWidget(self.stdio_choice, 1, 0)
        grid.addWidget(self.stdio_edit, 1, 1)
        grid.addWidget(self.url_choice, 2, 0)
        grid.addWidget(self.url_edit, 2, 1)
        grid.setColumnStretch(1, 1)
        buttons = ok_cancel_buttons(self)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Open tab")
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.stdio_edit.textEdited.connect(lambda _t: self.stdio_choice.setChecked(True))
        self.url_edit.textEdited.connect(lambda _t: self.url_choice.setChecked(True))
        self.profile_combo.activated.connect(lambda _i: self.profile_choice.setChecked(True))
        (self.profile_choice if self.profiles else self.stdio_choice).setChecked(True)
        self.resize(560, self.sizeHint().height())

    def target(self) -> Profile:
        """The profile the tab opens with. Raises ValueError for a bad command or URL."""
        if self.profile_choice.isChecked():
            profile_id = self.profile_combo.currentData()
            profile = next((p for p in self.profiles if p.id == profile_id), None)
            if profile is None:
                raise ValueError("Choose a profile.")
            return profile
        if self.stdio_choice.isChecked():
            return stdio_profile(self.stdio_edit.text())
        return url_profile(self.url_edit.text())

    def accept(self) -> None:
        try:
            profile = self.target()
        except ValueError as exc:
            self.problem.setText(str(exc))
            self.problem.show()
            return
        super().accept()
        self.chosen.emit(profile)
