"""Watch mode's two dialogs: the results of every run (a list, and the chosen run's
details: what changed on disk, the catalog's changes, each call, the stderr of a failed
start), and the settings of a profile's watch mode (paths and globs, debounce, the
collection re-run after each restart)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from inspector.ui.widgets.dialog_buttons import ok_cancel_buttons
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

if TYPE_CHECKING:  # the watch machinery loads when watch mode is first used
    from inspector.watch.report import RunReport

__all__ = ["WatchResultsDialog", "WatchSettings", "WatchSettingsDialog"]


@dataclass
class WatchSettings:
    """A profile's watch mode: what to watch (empty: the server's folder), the debounce,
    the collection to re-run (empty: none)."""

    paths: list[str]
    debounce: float = 0.5
    collection: str = ""


class WatchResultsDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Watch mode results")
        self.setObjectName("watchResults")
        self.runs = QListWidget()
        self.runs.setObjectName("watchRuns")
        self.text = QPlainTextEdit()
        self.text.setObjectName("watchDetails")
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        split = QSplitter()
        split.addWidget(self.runs)
        split.addWidget(self.text)
        split.setSizes([260, 640])
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(split, 1)
        layout.addWidget(buttons)
        self.reports: list[RunReport] = []
        self.runs.currentRowChanged.connect(self._show)
        self.resize(960, 520)

    def set_reports(self, reports: list[RunReport]) -> None:
        """Every run, the latest first (and selected)."""
        self.reports = list(reversed(reports))
        self.runs.clear()
        c = colors()
        for report in self.reports:
            item = QListWidgetItem(f"{report.title()} · {'passed' if report.passed else 'failed'}")
            item.setForeground(c.ok if report.passed else c.error)
            self.runs.addItem(item)
        if self.reports:
            self.runs.setCurrentRow(0)
        else:
            self.text.setPlainText("No run yet.")

    def _show(self, row: int) -> None:
        if 0 <= row < len(self.reports):
            self.text.setPlainText(self.reports[row].details())


class WatchSettingsDialog(QDialog):
    def __init__(self, settings: WatchSettings, base: Path, parent: QWidget | None = None):
        """`base`: the folder paths are relative to (the server's cwd or script folder)."""
        super().__init__(parent)
        self.setWindowTitle("Watch mode settings")
        self.base = base
        self.paths = QPlainTextEdit("\n".join(settings.paths))
        self.paths.setObjectName("watchPaths")
        self.paths.setPlaceholderText(f"(empty: all of {base})\nsrc/**/*.py\nconfig.toml")
        self.paths.setFixedHeight(110)
        self.debounce = QDoubleSpinBox()
        self.debounce.setRange(0.05, 30.0)
        self.debounce.setSingleStep(0.1)
        self.debounce.setSuffix(" s")
        self.debounce.setValue(settings.debounce)
        self.collection = QLineEdit(settings.collection)
        self.collection.setObjectName("watchCollection")
        self.collection.setPlaceholderText("(none: the collection open in the Collections tab)")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.collection, 1)
        row.addWidget(browse)
        form = QFormLayout()
        form.addRow(PlainLabel(f"Files, folders or globs, one per line, relative to {base}:"))
        form.addRow(self.paths)
        form.addRow(
            PlainLabel(
                ".git, __pycache__, node_modules, virtualenvs, editor swap files and the "
                "inspector's own files never count.",
                wrap=True,
            )
        )
        form.addRow("Debounce:", self.debounce)
        form.addRow("Collection to re-run:", row)
        buttons = ok_cancel_buttons(self)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.resize(560, 320)

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Collection to re-run", str(self.base), "Collections (*.json);;All files (*)"
        )
        if path:
            self.collection.setText(path)

    def value(self) -> WatchSettings:
        lines = [line.strip() for line in self.paths.toPlainText().splitlines()]
        return WatchSettings(
            [line for line in lines if line], self.debounce.value(), self.collection.text().strip()
        )
