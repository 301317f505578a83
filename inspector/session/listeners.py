"""`SessionListeners`: who hears what a session's frames meant.

A listener hears every item (protocol events, stderr lines, HTTP exchanges, the end),
except notifications it did not ask for: one that names the notification methods it
wants is not called for the others, so a flood of log lines costs it nothing. The
listeners of each method are worked out once and cached.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from inspector.common.listeners import Listeners, Unsubscribe
from inspector.protocol.machine.events import Event, NotificationReceived
from inspector.transports.base import HttpExchange, SessionExpired, StderrLine, TransportClosed

__all__ = ["SessionItem", "SessionListener", "SessionListeners"]

SessionItem = Event | StderrLine | TransportClosed | HttpExchange | SessionExpired
SessionListener = Callable[[SessionItem], None]


class SessionListeners:
    def __init__(self) -> None:
        self._all: Listeners[[SessionItem]] = Listeners("session listener")
        self._subscribers: tuple[tuple[SessionListener, frozenset[str] | None], ...] = ()
        self._by_method: dict[str, Listeners[[SessionItem]]] = {}

    def add(
        self, listener: SessionListener, notifications: Collection[str] | None = None
    ) -> Unsubscribe:
        """`notifications`: the methods it wants to hear of (None: every one)."""
        wanted = None if notifications is None else frozenset(notifications)
        self._subscribers = (*self._subscribers, (listener, wanted))
        unsubscribe = self._all.add(listener)
        self._by_method.clear()

        def remove() -> None:
            unsubscribe()
            self._subscribers = tuple(s for s in self._subscribers if s[0] is not listener)
            self._by_method.clear()

        return remove

    def emit(self, item: SessionItem) -> None:
        """Anything but a notification: every listener, in subscription order."""
        self._all.emit(item)

    def emit_notification(self, event: NotificationReceived) -> None:
        """The listeners that want this notification's method, in subscription order."""
        method = event.notification.method
        hearing = self._by_method.get(method)
        if hearing is None:
            hearing = Listeners("session listener")
            for listener, wanted in self._subscribers:
                if wanted is None or method in wanted:
                    hearing.add(listener)
            self._by_method[method] = hearing
        if hearing:
            hearing.emit(event)
