"""The current tab's parts: the window forwards none of them; tests reach them through
`tests.helpers.tabs.current_tab`, and the window's own menus through its `current_tab`."""

from __future__ import annotations

from inspector.ui.shell.main_window import MainWindow
from tests.helpers.tabs import current_tab

# The parts of a tab that the window used to forward as its own attributes.
_TAB_PARTS = [
    "connection",
    "controller",
    "bar",
    "ping",
    "toolbar",
    "console",
    "composer",
    "explorer",
    "server_panel",
    "workspace",
    "log_panel",
    "notifications",
    "errors_panel",
    "stats_panel",
    "lint_panel",
    "auth_panel",
    "bottom",
    "centre",
    "main_split",
    "right_split",
    "errors_label",
    "client_features",
    "session_files",
    "collections",
    "watch_mode",
    "traffic",
    "messages",
    "errors",
]


def test_the_helper_is_the_current_tab_on_each_call(window: MainWindow) -> None:
    first = current_tab(window)
    assert first is window.current_tab
    second = window.new_tab()
    assert current_tab(window) is second  # a new tab becomes current
    window.tabs.setCurrentWidget(first)
    assert current_tab(window) is first
    assert current_tab(window).controller is first.controller
    assert current_tab(window).traffic is first.connection.traffic
    assert current_tab(window).messages is first.connection.messages
    assert current_tab(window).errors is first.connection.errors


def test_the_window_forwards_no_tab_part(window: MainWindow) -> None:
    tab = current_tab(window)
    for name in _TAB_PARTS:
        assert hasattr(tab, name), name  # the list is still the tab's parts
        assert not hasattr(window, name), name


def test_the_log_menu_acts_on_the_current_tab(window: MainWindow) -> None:
    first = current_tab(window)
    second = window.new_tab()
    window.pause_action.trigger()  # Log ▸ Pause autoscroll
    assert not second.log_panel.autoscroll and first.log_panel.autoscroll
    window.tabs.setCurrentWidget(first)
    assert not window.pause_action.isChecked()  # the menu shows the current tab's state
    window.tabs.setCurrentWidget(second)
    assert window.pause_action.isChecked()
    window.pause_action.trigger()
    assert second.log_panel.autoscroll


def test_the_window_shell_shows_the_current_tabs(window: MainWindow) -> None:
    first = current_tab(window)
    second = window.new_tab()
    assert window.central() is second.main_split and window.statusBar() is second.status
    window.tabs.setCurrentWidget(first)
    assert window.central() is first.main_split and window.statusBar() is first.status
