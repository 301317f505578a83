"""A request form above, what came back below: the split the tool, prompt and template
views share.

The form gets the height it asks for, up to a share of the view, when the view is first
shown; after that the user's split is kept, and a taller window grows the result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QSplitter, QWidget

__all__ = ["FormSplitter"]

_MIN_TOTAL: Final = 400  # before the first layout the splitter may not know its height


class FormSplitter(QSplitter):
    def __init__(
        self,
        form: QWidget,
        result: QWidget,
        *,
        wanted: Callable[[], int],
        share: float,
        stretch: tuple[int, int] = (0, 1),
    ) -> None:
        super().__init__(Qt.Orientation.Vertical)
        self._wanted = wanted
        self._share = share
        self._sized = False
        self.setChildrenCollapsible(False)
        self.addWidget(form)
        self.addWidget(result)
        self.setStretchFactor(0, stretch[0])
        self.setStretchFactor(1, stretch[1])

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._sized:
            self._sized = True
            self.fit()

    def fit(self) -> None:
        """Give the form what it wants (at most `share` of the height), the result the rest."""
        total = max(self.height(), _MIN_TOTAL)
        top = min(self._wanted(), int(total * self._share))
        self.setSizes([top, total - top])
