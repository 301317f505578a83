"""`CurrentTab`: the window's attributes that are its current tab's, read through a getter
typed by the tab (so the window does not spell the tab's types a second time)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from inspector.ui.shell.current_tab_attr import CurrentTab
from inspector.ui.shell.main_window import MainWindow


class _Window:
    """A stand-in window: its current tab is whatever the test says."""

    workspace = CurrentTab(lambda tab: tab.workspace)
    traffic = CurrentTab(lambda tab: tab.traffic)

    def __init__(self) -> None:
        self.tab: Any = SimpleNamespace(workspace="w1", traffic=["a"])

    @property
    def current_tab(self) -> Any:
        return self.tab


def test_each_read_is_the_current_tabs() -> None:
    stand_in = _Window()
    window: Any = stand_in  # the stand-in tabs are not ConnectionTabs
    assert window.workspace == "w1" and window.traffic == ["a"]
    stand_in.tab = SimpleNamespace(workspace="w2", traffic=[])
    assert window.workspace == "w2" and window.traffic == []


def test_on_the_class_it_is_the_descriptor() -> None:
    assert isinstance(_Window.workspace, CurrentTab)


def test_every_window_part_is_the_current_tabs(window: MainWindow) -> None:
    names = [n for n, v in vars(MainWindow).items() if isinstance(v, CurrentTab)]
    # the parts the menus and the tests reach through the window, and the stores
    assert {"workspace", "controller", "log_panel", "traffic", "messages", "errors"} <= set(names)
    first = window.current_tab
    second = window.new_tab()
    for tab in (second, first):
        window.tabs.setCurrentWidget(tab)
        assert window.current_tab is tab
        for name in names:
            assert getattr(window, name) is getattr(tab, name), name
        assert window.traffic is tab.connection.traffic
        assert window.messages is tab.connection.messages
        assert window.errors is tab.connection.errors
