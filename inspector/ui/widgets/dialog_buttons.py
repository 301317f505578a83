"""A dialog's Ok and Cancel buttons, wired: Ok accepts (or does what the dialog says),
Cancel rejects."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QDialog, QDialogButtonBox

__all__ = ["ok_cancel_buttons"]


def ok_cancel_buttons(
    dialog: QDialog, on_ok: Callable[[], object] | None = None
) -> QDialogButtonBox:
    """Ok and Cancel for `dialog`: Ok calls `on_ok` (by default `dialog.accept`), Cancel
    `dialog.reject`. The caller places the box."""
    buttons = QDialogButtonBox(
        QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
    )
    buttons.accepted.connect(on_ok if on_ok is not None else dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons
