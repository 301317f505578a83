""" "Tap this server" and "Remove tap" in the config import: rewrite one server entry of a
host's config (Claude Desktop, VS Code, Cursor) so the host launches it through the tap,
or put it back. The user sees the entry before and after, and confirms, before anything is
written; the file is backed up first (`inspector.tap.host_config`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.settings.config_import import FORMAT_LABELS
from inspector.tap.host_config import (
    ConfigEdit,
    ConfigEditError,
    apply_edit,
    plan_install,
    plan_uninstall,
)
from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["ConfigTapActions", "TapEditDialog"]


def _code(text: str) -> QPlainTextEdit:
    view = QPlainTextEdit(text)
    view.setReadOnly(True)
    view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    return view


class TapEditDialog(QDialog):
    """The entry before and after; Write makes the backup and writes."""

    def __init__(self, edit: ConfigEdit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = edit
        self.backup: Path | None = None
        self.error: str | None = None
        tapping = edit.action == "install"
        self.setWindowTitle("Tap this server" if tapping else "Remove tap")
        self.resize(900, 480)
        what = (
            f"“{edit.name}” will be launched through the tap (mcp-inspector-qt tap), "
            "which records its traffic for File ▸ Live Taps."
            if tapping
            else f"“{edit.name}” will be launched directly again, as before the tap."
        )
        facts = [
            what,
            f"{FORMAT_LABELS[edit.format]} config: {edit.path}",
            "Only this entry changes; a backup of the whole file is made first.",
        ]
        if edit.note:
            facts.append(f"Note: {edit.note}")
        self.facts = PlainLabel("\n".join(facts), wrap=True, selectable=True)
        self.before = _code(edit.before)
        self.before.setObjectName("tapBefore")
        self.after = _code(edit.after)
        self.after.setObjectName("tapAfter")
        sides = QHBoxLayout()
        for title, view in (("Before", self.before), ("After", self.after)):
            column = QVBoxLayout()
            column.addWidget(PlainLabel(title))
            column.addWidget(view, 1)
            sides.addLayout(column, 1)
        self.status = PlainLabel("", wrap=True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.write_button = buttons.addButton("Write", QDialogButtonBox.ButtonRole.AcceptRole)
        self.write_button.setObjectName("tapWrite")
        buttons.accepted.connect(self.write)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.facts)
        layout.addLayout(sides, 1)
        layout.addWidget(self.status)
        layout.addWidget(buttons)

    def write(self) -> Path | None:
        try:
            self.backup = apply_edit(self.edit)
        except ConfigEditError as exc:
            self.error = str(exc)
            self.status.setText(f"Not written: {exc}")
            return None
        self.accept()
        return self.backup


class ConfigTapActions:
    """The two buttons under the import preview. `selected()` gives the config file and
    the chosen server's name (None when nothing is chosen); `written(message)` runs after
    a write (the import dialog reloads the file and shows the message)."""

    def __init__(
        self,
        parent: QWidget,
        selected: Callable[[], tuple[Path, str, bool] | None],
        written: Callable[[str], None],
    ) -> None:
        self.parent = parent
        self.selected = selected
        self.written = written
        self.tap_button = QPushButton("Tap this server…")
        self.tap_button.setObjectName("tapServer")
        self.tap_button.setToolTip(
            "Launch this server through mcp-inspector-qt tap, so its traffic with the host "
            "is recorded and can be followed (File ▸ Live Taps)"
        )
        self.untap_button = QPushButton("Remove tap…")
        self.untap_button.setObjectName("untapServer")
        self.untap_button.setToolTip("Put the server's entry back as it was before the tap")
        self.tap_button.clicked.connect(lambda: self.open(install=True))
        self.untap_button.clicked.connect(lambda: self.open(install=False))
        self.dialog: TapEditDialog | None = None
        self.last_error: str | None = None
        self.update()

    def update(self) -> None:
        chosen = self.selected()
        self.tap_button.setEnabled(chosen is not None and not chosen[2])
        self.untap_button.setEnabled(chosen is not None and chosen[2])

    def plan(self, install: bool) -> ConfigEdit | None:
        chosen = self.selected()
        if chosen is None:
            return None
        path, name, _tapped = chosen
        try:
            return plan_install(path, name) if install else plan_uninstall(path, name)
        except ConfigEditError as exc:
            self.last_error = str(exc)
            self.written(f"Cannot change the config: {exc}")
            return None

    def open(self, install: bool) -> TapEditDialog | None:
        edit = self.plan(install)
        if edit is None:
            return None
        dialog = TapEditDialog(edit, self.parent)
        self.dialog = dialog

        def done() -> None:
            verb = "now runs through the tap" if install else "no longer runs through the tap"
            self.written(f"“{edit.name}” {verb}. Backup: {dialog.backup}")

        dialog.accepted.connect(done)
        dialog.open()
        return dialog
