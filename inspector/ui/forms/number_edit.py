"""A number spinner that can be empty: QSpinBox always holds a value, which would send a
number the user never chose. This one starts empty (or at the schema's default), steps
within the schema's bounds, and keeps whatever the user typed for validation to judge."""

from __future__ import annotations

import math
import re
from typing import Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QValidator, QWheelEvent
from PySide6.QtWidgets import QAbstractSpinBox, QWidget

from inspector.features.forms.fields import format_number, parse_number

__all__ = ["NumberEdit"]

_PARTIAL: Final = re.compile(r"^[+-]?(\d*\.?\d*([eE][+-]?\d*)?)?$")


class NumberEdit(QAbstractSpinBox):
    textChanged = Signal(str)

    def __init__(
        self,
        integer: bool,
        minimum: float | None = None,
        maximum: float | None = None,
        step: float | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.integer = integer
        self.minimum = minimum
        self.maximum = maximum
        self.step = step if step is not None else 1.0
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # no wheel-stepping while scrolling by
        self.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToPreviousValue)
        self.setKeyboardTracking(True)
        self.lineEdit().textChanged.connect(self.textChanged)
        hint = []
        if minimum is not None:
            hint.append(f"≥ {format_number(_tidy(minimum, integer))}")
        if maximum is not None:
            hint.append(f"≤ {format_number(_tidy(maximum, integer))}")
        self.lineEdit().setPlaceholderText(" ".join(hint) or ("integer" if integer else "number"))

    def text(self) -> str:
        return self.lineEdit().text()

    def setText(self, text: str) -> None:
        self.lineEdit().setText(text)

    def clear(self) -> None:
        self.lineEdit().clear()

    # -- QAbstractSpinBox ------------------------------------------------------
    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        if _PARTIAL.match(text.strip()):
            value = parse_number(text, self.integer)
            if isinstance(value, str):
                return QValidator.State.Intermediate, text, pos
            return QValidator.State.Acceptable, text, pos
        return QValidator.State.Invalid, text, pos

    def fixup(self, text: str) -> str:
        return text  # keep what the user typed: validation says what is wrong

    def stepEnabled(self) -> QAbstractSpinBox.StepEnabledFlag:
        if self.isReadOnly() or not self.isEnabled():
            return QAbstractSpinBox.StepEnabledFlag.StepNone
        flags = QAbstractSpinBox.StepEnabledFlag.StepNone
        value = self._current()
        if self.maximum is None or value is None or value < self.maximum:
            flags |= QAbstractSpinBox.StepEnabledFlag.StepUpEnabled
        if self.minimum is None or value is None or value > self.minimum:
            flags |= QAbstractSpinBox.StepEnabledFlag.StepDownEnabled
        return flags

    def stepBy(self, steps: int) -> None:
        value = self._current()
        if value is None:  # the first step lands on a bound, or on zero
            if steps > 0 and self.minimum is not None:
                new = self.minimum
            elif steps < 0 and self.maximum is not None:
                new = self.maximum
            else:
                new = 0.0
        else:
            new = value + steps * self.step
        if self.minimum is not None:
            new = max(new, self.minimum)
        if self.maximum is not None:
            new = min(new, self.maximum)
        shown = _tidy(new, self.integer)
        self.setText(format_number(shown))
        self.lineEdit().selectAll()

    def wheelEvent(self, event: QWheelEvent) -> None:
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()  # let the form scroll

    def _current(self) -> float | None:
        value = parse_number(self.text(), self.integer)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        return None


def _tidy(value: float, integer: bool) -> int | float:
    if integer:
        return math.floor(value) if math.isfinite(value) else 0
    rounded = round(value, 10)
    return int(rounded) if rounded.is_integer() and abs(rounded) < 1e15 else rounded
