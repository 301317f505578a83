"""A splitter made in one call: its panes in order, how each grows, its first sizes."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QWidget

__all__ = ["split_panes"]


def split_panes(
    orientation: Qt.Orientation,
    panes: Sequence[QWidget],
    stretch: Sequence[int] = (),
    sizes: Sequence[int] | None = None,
    name: str = "",
) -> QSplitter:
    """A splitter holding `panes`; pane i grows by `stretch[i]` (panes past the end of
    `stretch` keep Qt's default), `sizes` are the first sizes, `name` its object name."""
    split = QSplitter(orientation)
    if name:
        split.setObjectName(name)
    for pane in panes:
        split.addWidget(pane)
    for index, factor in enumerate(stretch):
        split.setStretchFactor(index, factor)
    if sizes is not None:
        split.setSizes(list(sizes))
    return split
