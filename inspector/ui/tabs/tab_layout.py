"""A tab's splitters: the first-run split, the split a new tab copies from the tab it opens
next to, and the splitters the window keeps between runs (by their settings keys).

Each tab keeps its own layout. While the app runs, every tab has its own splitters, and
switching tabs touches none of them: a user who widened the traffic log of the chatty
server's tab finds it so when coming back from another tab. Between runs, the window keeps
each remembered tab's splitter states with the tab (`layout_state`), and a tab reopened
from the Reopen bar gets the sizes it had (`restore_layout`), not the last current tab's:
a user arranges each server's tab for what is looked at there, and "reopen my tabs" means
"as they were". A tab that has no layout of its own (a new tab, or a remembered tab saved
by a version that kept none) copies the tab it opens next to, as before; the window's first
tab at start gets the splitters of the tab that was current at the last exit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from PySide6.QtCore import QByteArray
from PySide6.QtWidgets import QSplitter

from inspector.ui.tabs.connection_tab import ConnectionTab
from inspector.ui.tabs.panel_toggles import usable_sizes

__all__ = [
    "copy_layout",
    "default_layout",
    "layout_state",
    "restore_layout",
    "restore_splitter",
    "splitters_of",
]

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
    # 1280 px: 396 for the explorer (its tabs' counts fit), so the traffic table beside it
    # shows all its columns.
    left = max(360, min(440, width * 31 // 100))
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


def layout_state(tab: ConnectionTab) -> dict[str, bytes]:
    """The tab's splitter states under their settings keys (what is kept between runs)."""
    return {key: bytes(splitter.saveState().data()) for key, splitter in splitters_of(tab).items()}


def restore_layout(tab: ConnectionTab, states: Mapping[str, bytes]) -> None:
    """Put back the splitters `layout_state` gave (a key missing or unknown is left as is)."""
    splitters = splitters_of(tab)
    for key, state in states.items():
        splitter = splitters.get(key)
        if splitter is not None:
            restore_splitter(splitter, state)


def restore_splitter(splitter: QSplitter, value: object) -> bool:
    """`value` (a saved state) into `splitter`, unless it is not a state, is another
    splitter's (the other orientation) or leaves a shown pane no room (a pane is hidden
    from the View menu, never by a splitter dragged to zero). True if it was used."""
    if not isinstance(value, QByteArray | bytes) or not value:
        return False
    before = splitter.sizes()
    collapsible = splitter.childrenCollapsible()
    orientation = splitter.orientation()
    used = splitter.restoreState(QByteArray(value))
    # The state carries its own flag and orientation: ours stay.
    splitter.setChildrenCollapsible(collapsible)
    turned = splitter.orientation() != orientation
    splitter.setOrientation(orientation)
    if not used or turned or not usable_sizes(splitter):
        splitter.setSizes(before)
        return False
    return True
