"""View ▸ panels: show and hide the explorer, the bottom panel and the traffic detail pane,
each with a shortcut; "Reset layout" brings the first-run layout back.

A splitter never hides a panel by being dragged to zero (its children are not collapsible);
hiding is a checked menu item, kept between runs, so a hidden panel always has a way back.
A saved splitter state that gives a shown panel no room is not restored.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QSplitter, QWidget

__all__ = ["Panel", "PanelToggles", "usable_sizes"]


@dataclass(frozen=True)
class Panel:
    key: str  # the settings key, "panels/<key>"
    label: str  # the View menu's text
    widgets: Callable[[], Sequence[QWidget]]  # the panel in every tab of the window
    shortcut: str


def _bool(value: object, default: bool) -> bool:
    if value is None:
        return default
    if isinstance(value, str):
        return value.lower() in ("true", "1")
    return bool(value)


def usable_sizes(splitter: QSplitter) -> bool:
    """Every shown child of `splitter` has some room (a restored state may not hide one)."""
    shown = [
        size
        for index, size in enumerate(splitter.sizes())
        if (child := splitter.widget(index)) is not None and not child.isHidden()
    ]
    return all(size > 0 for size in shown)


class PanelToggles:
    def __init__(
        self,
        menu: QMenu,
        settings: QSettings,
        panels: Sequence[Panel],
        make_action: Callable[[str, Callable[[], object], str], QAction],
        reset: Callable[[], None],
    ) -> None:
        """`make_action(text, slot, shortcut)` makes a window action (its shortcut works
        with the menu bar hidden); `reset` puts the splitters back to their defaults."""
        self.settings = settings
        self.panels = list(panels)
        self.actions: dict[str, QAction] = {}
        self._reset = reset
        for panel in self.panels:
            action = make_action(
                panel.label, functools.partial(self._toggled, panel.key), panel.shortcut
            )
            action.setCheckable(True)
            action.setChecked(True)
            menu.addAction(action)
            self.actions[panel.key] = action
        menu.addSeparator()
        self.reset_action = make_action("Reset &layout", self.reset_layout, "")
        menu.addAction(self.reset_action)

    def restore(self) -> None:
        for panel in self.panels:
            self.set_shown(panel.key, _bool(self.settings.value(f"panels/{panel.key}"), True))

    def is_shown(self, key: str) -> bool:
        return self.actions[key].isChecked()

    def set_shown(self, key: str, shown: bool) -> None:
        panel = next(p for p in self.panels if p.key == key)
        self.actions[key].setChecked(shown)
        for widget in panel.widgets():
            widget.setVisible(shown)
        self.settings.setValue(f"panels/{key}", shown)

    def apply(self) -> None:
        """Show or hide the panels as checked (a new tab follows the View menu)."""
        for panel in self.panels:
            shown = self.actions[panel.key].isChecked()
            for widget in panel.widgets():
                widget.setVisible(shown)

    def _toggled(self, key: str) -> None:
        self.set_shown(key, self.actions[key].isChecked())

    def reset_layout(self) -> None:
        for panel in self.panels:
            self.set_shown(panel.key, True)
        self._reset()
