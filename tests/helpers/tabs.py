"""The current tab of a main window, for GUI tests.

The window forwards none of its tabs' parts: a test reaches the controller, the log panel,
the explorer, ... of the tab the user is looking at through that tab,
`current_tab(window).log_panel`."""

from __future__ import annotations

from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tabs.connection_tab import ConnectionTab

__all__ = ["current_tab"]


def current_tab(window: MainWindow) -> ConnectionTab:
    """The tab `window` shows now, looked up on each call (a new tab becomes current)."""
    return window.current_tab
