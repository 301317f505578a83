"""`Listeners`: the one way a Qt-free store tells others that it changed.

Every store (the traffic log, the catalog, profiles, tasks...) keeps one `Listeners` per
kind of change. Subscribing returns the function that unsubscribes, the only unsubscribe
style in the app. A listener that raises is logged and skipped: one faulty adapter must not
stop the others from hearing about a change, nor break the store that emits it.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Generic, ParamSpec

__all__ = ["Listeners", "Unsubscribe"]

log = logging.getLogger(__name__)

P = ParamSpec("P")
Unsubscribe = Callable[[], None]


class Listeners(Generic[P]):
    """An ordered list of callbacks taking the same arguments."""

    __slots__ = ("_items", "_what")

    def __init__(self, what: str = "listener") -> None:
        # A tuple, replaced on subscribe and unsubscribe (rare), so emitting (often: once per
        # frame for the traffic log) needs no copy to survive a listener unsubscribing.
        self._items: tuple[Callable[P, object], ...] = ()
        self._what = what

    def add(self, listener: Callable[P, object]) -> Unsubscribe:
        """Call `listener` on every emit from now on; returns what unsubscribes it."""
        self._items = (*self._items, listener)

        def unsubscribe() -> None:
            self.remove(listener)

        return unsubscribe

    def remove(self, listener: Callable[P, object]) -> None:
        """Stop calling `listener` (nothing happens if it is not subscribed)."""
        items = list(self._items)
        with contextlib.suppress(ValueError):
            items.remove(listener)
            self._items = tuple(items)

    def clear(self) -> None:
        self._items = ()

    def emit(self, *args: P.args, **kwargs: P.kwargs) -> None:
        """Call every listener in subscription order. A listener may unsubscribe (itself or
        another) while it runs; the ones subscribed when the emit began are all called."""
        if kwargs:
            for listener in self._items:
                try:
                    listener(*args, **kwargs)
                except Exception:
                    log.exception("%s failed", self._what)
            return
        # Positional arguments only (every emit on a hot path): forwarding an empty **kwargs
        # costs as much again as the call itself.
        for listener in self._items:
            try:
                listener(*args)  # type: ignore[call-arg]
            except Exception:
                log.exception("%s failed", self._what)

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)
