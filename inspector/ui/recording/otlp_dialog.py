"""File ▸ Export to OpenTelemetry…: where the spans go, an OTLP/HTTP endpoint (`URL/v1/traces`)
or an OTLP JSON file. The dialog only chooses and checks the target (remembered in the
settings); `SessionFiles` exports, through the same mapping as `export-otlp`."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from inspector.ui.widgets.dialog_buttons import ok_cancel_buttons
from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["OtlpExportDialog"]

_ENDPOINT = "otlp/endpoint"
_FILE = "otlp/file"
_DEFAULT_ENDPOINT = "http://localhost:4318"


class OtlpExportDialog(QDialog):
    chosen = Signal(object, object)  # (endpoint URL or None, file Path or None)

    def __init__(self, what: str, settings: QSettings, parent: QWidget | None = None) -> None:
        """`what`: a sentence saying what will be exported."""
        super().__init__(parent)
        self.setObjectName("otlpExportDialog")
        self.setWindowTitle("Export to OpenTelemetry")
        self.settings = settings
        self.what = PlainLabel(what, wrap=True)
        self.to_endpoint = QRadioButton("Send to an OTLP/HTTP endpoint (…/v1/traces below it)")
        self.endpoint = QLineEdit(str(settings.value(_ENDPOINT, _DEFAULT_ENDPOINT) or ""))
        self.endpoint.setPlaceholderText(_DEFAULT_ENDPOINT)
        self.to_file = QRadioButton("Write an OTLP JSON file")
        self.file = QLineEdit(str(settings.value(_FILE, "") or ""))
        self.file.setPlaceholderText("spans.otlp.json")
        self.browse = QPushButton("Browse…")
        self.browse.clicked.connect(self._browse)
        self.to_endpoint.setChecked(True)
        self.to_endpoint.toggled.connect(self._update)
        self.problem = PlainLabel("", wrap=True)
        self.problem.setObjectName("otlpProblem")
        self.buttons = ok_cancel_buttons(self, self.export)
        for edit in (self.endpoint, self.file):
            edit.textEdited.connect(lambda _text: self.problem.setText(""))
        file_row = QHBoxLayout()
        file_row.addWidget(self.file, 1)
        file_row.addWidget(self.browse)
        layout = QVBoxLayout(self)
        layout.addWidget(self.what)
        layout.addWidget(self.to_endpoint)
        layout.addWidget(self.endpoint)
        layout.addWidget(self.to_file)
        layout.addLayout(file_row)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self._update()

    def _update(self) -> None:
        endpoint = self.to_endpoint.isChecked()
        self.endpoint.setEnabled(endpoint)
        self.file.setEnabled(not endpoint)
        self.browse.setEnabled(not endpoint)

    def _browse(self) -> None:
        name, _ = QFileDialog.getSaveFileName(
            self, "OTLP JSON file", self.file.text(), "OTLP JSON (*.json);;All files (*)"
        )
        if name:
            self.file.setText(name)

    def export(self) -> None:
        """Check the target; when it is right, remember it, say it (`chosen`) and close."""
        if self.to_endpoint.isChecked():
            url = self.endpoint.text().strip()
            if not url.startswith(("http://", "https://")):
                self.problem.setText("The endpoint must be an http:// or https:// URL.")
                return
            self.settings.setValue(_ENDPOINT, url)
            self.chosen.emit(url, None)
        else:
            text = self.file.text().strip()
            if not text:
                self.problem.setText("Choose the file to write.")
                return
            path = Path(text).expanduser()
            if path.is_dir():
                self.problem.setText(f"{path} is a folder: name a file in it.")
                return
            self.settings.setValue(_FILE, str(path))
            self.chosen.emit(None, path)
        self.accept()
