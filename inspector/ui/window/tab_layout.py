"""A tab's splitters: the first-run split, the split a new tab copies from the tab it opens
next to, and the splitters the window keeps between runs (by their settings keys)."""

from __future__ import annotations

from typing import Final

from PySide6.QtWidgets import QSplitter

from inspector.ui.window.connection_tab import ConnectionTab

__all__ = ["copy_layout", "default_layout", "splitters_of"]

BOTTOM_HEIGHT: Final = 140  # the bottom panel's first height: the workspace gets the rest


def splitters_of(tab: ConnectionTab) -> dict[str, QSplitter]:
    """The tab's splitters under the window's settings keys."""
    return {
        "mainSplitter": tab.main_split,
        "rightSplitter": tab.right_split,
        "logSplitter": tab.log_panel.splitter,
        "serverSplitter": tab.server_panel.splitter,
    }


def default_layout(tab: ConnectionTab) -> None:
    """The first-run split: the explorer wide enough for its tab titles, a short bottom
    panel, the rest to the workspace."""
    width = max(tab.main_split.width(), 1280)
    left = max(360, min(440, width // 3))
    tab.main_split.setSizes([left, width - left])
    height = max(tab.right_split.height(), 700)
    tab.right_split.setSizes([height - BOTTOM_HEIGHT, BOTTOM_HEIGHT])
    tab.log_panel.splitter.setSizes([760, 280])


def copy_layout(like: ConnectionTab | None, tab: ConnectionTab) -> None:
    """A new tab's splitters: like the tab it opens next to (if that one was laid out),
    else the defaults."""
    default_layout(tab)
    if like is None:
        return
    theirs, mine = splitters_of(like), splitters_of(tab)
    for key, source in theirs.items():
        if source.width() > 0 and source.height() > 0:
            mine[key].setSizes(source.sizes())
