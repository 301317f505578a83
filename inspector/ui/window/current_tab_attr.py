"""`CurrentTab[T]`: a window attribute that is the current tab's (`window.workspace` is the
workspace of the tab the user is looking at). One line per attribute instead of a property
each; typed, read-only."""

from __future__ import annotations

from typing import Any, Generic, Protocol, TypeVar, overload

__all__ = ["CurrentTab"]

T = TypeVar("T")


class _HasCurrentTab(Protocol):
    @property
    def current_tab(self) -> Any: ...


class CurrentTab(Generic[T]):
    """A read-only attribute of the window, looked up on its current tab by the same name."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, window: None, owner: type | None = None) -> CurrentTab[T]: ...
    @overload
    def __get__(self, window: _HasCurrentTab, owner: type | None = None) -> T: ...
    def __get__(
        self, window: _HasCurrentTab | None, owner: type | None = None
    ) -> T | CurrentTab[T]:
        if window is None:
            return self
        value: T = getattr(window.current_tab, self.name)
        return value
