"""`CurrentTab[T]`: a window attribute that is the current tab's (`window.workspace` is the
workspace of the tab the user is looking at). One line per attribute instead of a property
each; read-only, and typed by the tab itself: `CurrentTab(lambda tab: tab.workspace)` is of
whatever type `ConnectionTab.workspace` is, so the window never spells the tab's types again."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar, overload

if TYPE_CHECKING:
    from inspector.ui.tabs.connection_tab import ConnectionTab

__all__ = ["CurrentTab"]

T = TypeVar("T")


class _HasCurrentTab(Protocol):
    @property
    def current_tab(self) -> ConnectionTab: ...


class CurrentTab(Generic[T]):
    """A read-only attribute of the window: `part` of its current tab, looked up on each read."""

    def __init__(self, part: Callable[[ConnectionTab], T]) -> None:
        self._part = part

    @overload
    def __get__(self, window: None, owner: type | None = None) -> CurrentTab[T]: ...
    @overload
    def __get__(self, window: _HasCurrentTab, owner: type | None = None) -> T: ...
    def __get__(
        self, window: _HasCurrentTab | None, owner: type | None = None
    ) -> T | CurrentTab[T]:
        if window is None:
            return self
        return self._part(window.current_tab)
