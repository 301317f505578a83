"""The recording settings (QSettings) and their dialog: record every connection or not,
how old recordings are cleaned up (maximum total size, maximum age), whether new ones are
compressed (gzip, zstd) and when a long one goes on in a new part (size, hours)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from inspector.recording.retention import (
    DEFAULT_MAX_AGE_DAYS,
    DEFAULT_MAX_TOTAL_MB,
    RecordingSettings,
    list_sessions,
)
from inspector.ui.widgets.dialog_buttons import ok_cancel_buttons
from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["RecordingSettingsDialog", "load_recording_settings", "save_recording_settings"]

_ENABLED = "recording/enabled"
_MAX_MB = "recording/maxTotalMB"
_MAX_DAYS = "recording/maxAgeDays"
_COMPRESSION = "recording/compression"
_ROTATE_MB = "recording/rotateMB"
_ROTATE_HOURS = "recording/rotateHours"
# What the "Compress recordings" choice shows, by setting value.
COMPRESSION_CHOICES = {"none": "none", "gzip": "gzip (.jsonl.gz)", "zstd": "zstd (.jsonl.zst)"}


def _int(value: object, default: int) -> int:
    try:
        return max(0, int(str(value)))
    except (TypeError, ValueError):
        return default


def load_recording_settings(settings: QSettings) -> RecordingSettings:
    enabled = settings.value(_ENABLED, True)
    compression = str(settings.value(_COMPRESSION, "none"))
    return RecordingSettings(
        enabled=enabled if isinstance(enabled, bool) else str(enabled).lower() != "false",
        max_total_mb=_int(settings.value(_MAX_MB, DEFAULT_MAX_TOTAL_MB), DEFAULT_MAX_TOTAL_MB),
        max_age_days=_int(settings.value(_MAX_DAYS, DEFAULT_MAX_AGE_DAYS), DEFAULT_MAX_AGE_DAYS),
        compression=compression if compression in COMPRESSION_CHOICES else "none",
        rotate_mb=_int(settings.value(_ROTATE_MB, 0), 0),
        rotate_hours=_int(settings.value(_ROTATE_HOURS, 0), 0),
    )


def save_recording_settings(settings: QSettings, value: RecordingSettings) -> None:
    settings.setValue(_ENABLED, value.enabled)
    settings.setValue(_MAX_MB, value.max_total_mb)
    settings.setValue(_MAX_DAYS, value.max_age_days)
    settings.setValue(_COMPRESSION, value.compression)
    settings.setValue(_ROTATE_MB, value.rotate_mb)
    settings.setValue(_ROTATE_HOURS, value.rotate_hours)
    settings.sync()


def open_folder(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))


class RecordingSettingsDialog(QDialog):
    def __init__(
        self,
        current: RecordingSettings,
        folder: Path,
        clean_up: Callable[[RecordingSettings], list[Path]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Recording")
        self.folder = folder
        self._clean_up = clean_up
        self.enabled = QCheckBox("Record every connection (recommended)")
        self.enabled.setChecked(current.enabled)
        self.max_mb = QSpinBox()
        self.max_mb.setRange(0, 1_000_000)
        self.max_mb.setSuffix(" MB")
        self.max_mb.setSpecialValueText("no limit")
        self.max_mb.setValue(current.max_total_mb)
        self.max_days = QSpinBox()
        self.max_days.setRange(0, 36_500)
        self.max_days.setSuffix(" days")
        self.max_days.setSpecialValueText("no limit")
        self.max_days.setValue(current.max_age_days)
        self.compression = QComboBox()
        for key, label in COMPRESSION_CHOICES.items():
            self.compression.addItem(label, key)
        self.compression.setCurrentIndex(max(0, self.compression.findData(current.compression)))
        self.rotate_mb = QSpinBox()
        self.rotate_mb.setRange(0, 1_000_000)
        self.rotate_mb.setSuffix(" MB")
        self.rotate_mb.setSpecialValueText("never")
        self.rotate_mb.setValue(current.rotate_mb)
        self.rotate_hours = QSpinBox()
        self.rotate_hours.setRange(0, 24 * 365)
        self.rotate_hours.setSuffix(" hours")
        self.rotate_hours.setSpecialValueText("never")
        self.rotate_hours.setValue(current.rotate_hours)
        where = PlainLabel(str(folder), wrap=True, selectable=True)
        open_button = QPushButton("Open folder")
        open_button.clicked.connect(lambda: open_folder(self.folder))
        folder_row = QHBoxLayout()
        folder_row.addWidget(where, 1)
        folder_row.addWidget(open_button)
        self.usage = PlainLabel()
        clean = QPushButton("Clean up now")
        clean.clicked.connect(self._clean_now)
        usage_row = QHBoxLayout()
        usage_row.addWidget(self.usage, 1)
        usage_row.addWidget(clean)
        form = QFormLayout()
        form.addRow(self.enabled)
        form.addRow("Sessions folder:", folder_row)
        form.addRow("Keep at most:", self.max_mb)
        form.addRow("Delete after:", self.max_days)
        form.addRow("Compress recordings:", self.compression)
        form.addRow("New part after:", self.rotate_mb)
        form.addRow("New part every:", self.rotate_hours)
        form.addRow(usage_row)
        note = PlainLabel(
            "Each connection is written to its own file as it happens (JSON Lines; "
            "secrets are redacted). The oldest files go first; the one being recorded is "
            "never deleted. Compression and parts apply to the next recording; a long "
            "recording goes on in NAME.part2.jsonl, NAME.part3.jsonl... and opening any "
            "part opens them all.",
            wrap=True,
        )
        buttons = ok_cancel_buttons(self)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self._show_usage()

    def value(self) -> RecordingSettings:
        return RecordingSettings(
            enabled=self.enabled.isChecked(),
            max_total_mb=self.max_mb.value(),
            max_age_days=self.max_days.value(),
            compression=str(self.compression.currentData()),
            rotate_mb=self.rotate_mb.value(),
            rotate_hours=self.rotate_hours.value(),
        )

    def _show_usage(self, removed: int | None = None) -> None:
        files = list_sessions(self.folder)
        size = sum(f.size for f in files) / (1024 * 1024)
        text = f"{len(files)} recording(s), {size:.1f} MB"
        if removed is not None:
            text += f"; {removed} deleted just now"
        self.usage.setText(text)

    def _clean_now(self) -> None:
        removed = self._clean_up(self.value())
        self._show_usage(len(removed))
