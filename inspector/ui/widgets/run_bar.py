"""The row under a request form: Run (or Get, Read), Cancel, and what the request is doing.

The tool, prompt and resource views each send one kind of request from a form; they share
this bar so that the button states, the elapsed time while a request runs and the status
colors behave the same everywhere. The bar only shows: the view decides when it may run
(`set_can_run`), when a request is in flight (`set_busy`) and what to say (`set_status`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final, Literal, TypeAlias

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QWidget

from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.plain_text import plain_tooltip
from inspector.ui.widgets.theme import colors

__all__ = ["RunBar", "StatusLevel"]

StatusLevel: TypeAlias = Literal["ok", "warn", "error"] | None  # None: muted, informative

_TICK_MS: Final = 100


class RunBar(QWidget):
    """[Run] [Cancel] [extra controls] status… [trailing controls].

    `run_requested` and `cancel_requested` fire on the buttons. While busy, Run is disabled,
    Cancel shows (when the bar has one) and, with a `busy_text`, the status counts the
    seconds ("Reading… 1.2 s"). Long statuses are elided; the tooltip has them in full.
    """

    run_requested = Signal()
    cancel_requested = Signal()

    def __init__(
        self,
        run_text: str,
        *,
        run_tip: str = "",
        busy_text: str = "",
        cancellable: bool = True,
        on_run: Callable[[], object] | None = None,
        on_cancel: Callable[[], object] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._run_tip = run_tip
        self._busy_text = busy_text
        self._busy = False
        self._can_run = False
        self._started = 0.0

        self.run_button = QPushButton(run_text)
        self.run_button.setDefault(True)
        self.run_button.setToolTip(plain_tooltip(run_tip))
        self.run_button.clicked.connect(self.run_requested)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.cancel_button.setVisible(False)
        self._cancellable = cancellable
        self.status_label = ElidedLabel()
        self.status_label.setObjectName("runStatus")

        self._row = QHBoxLayout(self)
        self._row.setContentsMargins(0, 0, 0, 0)
        self._row.addWidget(self.run_button)
        self._row.addWidget(self.cancel_button)  # hidden unless cancellable and busy
        self._row.addWidget(self.status_label, 1)

        self._ticker = QTimer(self)
        self._ticker.setInterval(_TICK_MS)
        self._ticker.timeout.connect(self._tick)
        if on_run is not None:
            self.run_requested.connect(lambda: on_run())
        if on_cancel is not None:
            self.cancel_requested.connect(lambda: on_cancel())

    # ------------------------------------------------------------ layout
    def name_parts(self, run: str, cancel: str, status: str) -> None:
        """Object names for the view's own parts (tests and screenshots find them by name)."""
        self.run_button.setObjectName(run)
        self.cancel_button.setObjectName(cancel)
        self.status_label.setObjectName(status)

    def add_control(self, widget: QWidget) -> None:
        """A control between the buttons and the status (run as task, Subscribe...)."""
        self._row.insertWidget(self._row.indexOf(self.status_label), widget)

    def add_trailing(self, widget: QWidget) -> None:
        """A control after the status (Copy messages, Clear results...)."""
        self._row.addWidget(widget)

    def align_status_right(self) -> None:
        """For a status that reads as a count beside the trailing controls ("2 running")."""
        self.status_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    # ------------------------------------------------------------ state
    @property
    def busy(self) -> bool:
        return self._busy

    @property
    def elapsed(self) -> float:
        """Seconds since the bar last became busy."""
        return time.monotonic() - self._started

    def set_can_run(self, can_run: bool, why: str = "") -> None:
        """Whether a request may start now; `why` (when it may not) becomes Run's tooltip."""
        self._can_run = can_run
        self.run_button.setToolTip(plain_tooltip(why or self._run_tip))
        self._show_buttons()

    def set_busy(self, busy: bool) -> None:
        self._busy = busy
        if busy:
            self._started = time.monotonic()
            if self._busy_text:
                self._ticker.start()
        else:
            self._ticker.stop()
        self._show_buttons()

    def set_status(self, text: str, level: StatusLevel = None) -> None:
        self.status_label.setText(text)
        self.status_label.setToolTip(plain_tooltip(text))
        c = colors()
        color = {"ok": c.ok, "warn": c.warn, "error": c.error}.get(level or "", c.muted)
        self.status_label.setStyleSheet(f"color: {color.name()}")

    def _show_buttons(self) -> None:
        self.run_button.setEnabled(self._can_run and not self._busy)
        self.cancel_button.setVisible(self._cancellable and self._busy)

    def _tick(self) -> None:
        self.set_status(f"{self._busy_text} {self.elapsed:.1f} s")
