"""A request form above, what came back below: the split the tool, prompt and template
views share.

The form gets the height it asks for, up to a share of the view (a larger share while
there is no result yet: the empty result pane needs little), and follows the view's height
until the user drags the handle; after that the user's split is kept. A form that fits in
half the view is always shown whole: results scroll in their own pane, and a two-field form
with a scrollbar of its own is of no use (issue 31, item 9).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QSplitter, QWidget

__all__ = ["FormSplitter"]

_EMPTY_SHARE: Final = 0.8
_MIN_FORM_SHARE: Final = 0.2
_WHOLE_SHARE: Final = 0.5  # a form up to this share of the height is never cut
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
        empty: Callable[[], bool] = lambda: False,
        empty_share: float = _EMPTY_SHARE,
        result_wanted: Callable[[], int] | None = None,
    ) -> None:
        """`empty()`: nothing is shown below yet, so the form may take `empty_share`;
        `result_wanted()`: the height the result asks for (the form then gives up room
        for it, down to `_MIN_FORM_SHARE` of the height)."""
        super().__init__(Qt.Orientation.Vertical)
        self._wanted = wanted
        self._share = share
        self._empty = empty
        self._empty_share = empty_share
        self._result_wanted = result_wanted
        self._sized = False
        self.user_split = False
        self.splitterMoved.connect(self._moved)
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

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._sized and not self.user_split:
            self.fit()

    def _moved(self, _pos: int, _index: int) -> None:
        self.user_split = True

    def fit(self) -> None:
        """Give the form what it wants (at most its share of the height, or half of it for
        a form that fits there), the result the rest."""
        total = max(self.height(), _MIN_TOTAL)
        empty = self._empty()
        share = self._empty_share if empty else self._share
        wanted = self._wanted()
        top = min(wanted, int(total * share))
        if not empty and self._result_wanted is not None:
            top = min(top, max(total - self._result_wanted(), int(total * _MIN_FORM_SHARE)))
        if wanted <= int(total * _WHOLE_SHARE):
            top = max(top, wanted)
        self.setSizes([top, total - top])
