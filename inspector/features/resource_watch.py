"""Resource subscriptions of one connection, Qt-free: who is watched, and when it changed.

Legacy: resources/subscribe and resources/unsubscribe, then notifications/resources/updated.
Modern (2026-07-28): one subscriptions/listen stream per watched URI with
`resourceSubscriptions: [uri]`; the server acknowledges it, updates arrive on it, and
cancelling the listen call ends it (there is no unsubscribe method).

The store outlives the views (a user subscribes, then looks at another item, and still
wants to see that the resource changed), so the controller owns it, one per window.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from inspector.common.listeners import Listeners, Unsubscribe
from inspector.protocol.machine.events import (
    NotificationReceived,
    ResourceUpdated,
    SubscriptionAcknowledged,
)
from inspector.protocol.wire.versions import Era
from inspector.session import Call, RequestCancelled, Session, SessionError, SessionItem
from inspector.transports.base import TransportClosed

__all__ = ["ResourceWatches", "Watch", "WatchState", "subscribe_supported"]

_WATCHED = frozenset(
    {"notifications/resources/updated", "notifications/subscriptions/acknowledged"}
)

log = logging.getLogger(__name__)

WatchState = Literal["subscribing", "active", "failed", "ended"]
Listener = Callable[[str], None]


@dataclass
class Watch:
    uri: str
    state: WatchState
    since: float  # wall clock of the subscribe
    last_updated: float | None = None  # wall clock of the last notifications/resources/updated
    updates: int = 0
    detail: str = ""  # why it failed or ended, or a note about the acknowledgement
    call: Call | None = None  # modern: the listen stream (cancel to stop)

    @property
    def watching(self) -> bool:
        return self.state in ("subscribing", "active")


def subscribe_supported(session: Session | None) -> tuple[bool, str]:
    """The server must declare capabilities.resources.subscribe (both eras)."""
    if session is None or not session.is_ready:
        return False, "not connected"
    resources = session.server_capabilities.get("resources")
    if isinstance(resources, dict) and resources.get("subscribe") is True:
        return True, ""
    return False, "the server does not declare resources.subscribe"


class ResourceWatches:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._session: Session | None = None
        self._watches: dict[str, Watch] = {}
        self._listeners: Listeners[[str]] = Listeners("watch listener")

    # ------------------------------------------------------------- observers
    def on_change(self, listener: Listener) -> Unsubscribe:
        """`listener(uri)` after any change of that URI's watch."""
        return self._listeners.add(listener)

    def _changed(self, uri: str) -> None:
        self._listeners.emit(uri)

    # ------------------------------------------------------------- state
    def get(self, uri: str, session: Session | None = None) -> Watch | None:
        """The watch of `uri` (of `session`, when given: other sessions' watches are gone)."""
        if session is not None and session is not self._session:
            return None
        return self._watches.get(uri)

    @property
    def watched(self) -> list[str]:
        return [uri for uri, w in self._watches.items() if w.watching]

    def _bind(self, session: Session) -> None:
        if session is self._session:
            return
        self._end_all("a new connection was made")
        self._watches.clear()
        self._session = session
        session.add_listener(functools.partial(self._on_item, session), notifications=_WATCHED)

    def _end_all(self, why: str) -> None:
        for watch in self._watches.values():
            if watch.watching:
                watch.state = "ended"
                watch.detail = why
                self._changed(watch.uri)

    # ------------------------------------------------------------- intents
    async def subscribe(self, session: Session, uri: str) -> Watch:
        """Start watching; returns when the server accepted it (legacy) or the stream is open
        (modern: acknowledgement follows as a notification). Failures are in the watch."""
        self._bind(session)
        current = self._watches.get(uri)
        if current is not None and current.watching:
            return current
        watch = Watch(uri, "subscribing", self._clock())
        self._watches[uri] = watch
        self._changed(uri)
        try:
            call = session.client.subscribe(uri)
        except SessionError as exc:
            self._fail(watch, str(exc))
            return watch
        if session.era is Era.MODERN:
            watch.call = call
            call.future.add_done_callback(lambda _f: self._listen_ended(watch, call))
            return watch
        try:
            await call.result()
        except SessionError as exc:
            self._fail(watch, str(exc))
            return watch
        if watch.state == "subscribing":
            watch.state = "active"
            self._changed(uri)
        return watch

    async def unsubscribe(self, uri: str) -> None:
        watch = self._watches.get(uri)
        session = self._session
        if watch is None or not watch.watching:
            return
        watch.state = "ended"
        watch.detail = "unsubscribed"
        self._changed(uri)
        if watch.call is not None:  # modern: end the listen stream
            watch.call.cancel("unsubscribed")
            return
        if session is None or not session.is_ready:
            return
        try:
            await session.client.unsubscribe(uri).result()
        except SessionError as exc:
            watch.detail = f"unsubscribe failed: {exc}"
            self._changed(uri)

    def _fail(self, watch: Watch, why: str) -> None:
        watch.state = "failed"
        watch.detail = why
        self._changed(watch.uri)

    def _listen_ended(self, watch: Watch, call: Call) -> None:
        """The modern listen call ended without our unsubscribe."""
        future = call.future
        exc = None if future.cancelled() else future.exception()  # retrieved, always
        if watch.call is not call or not watch.watching:
            return
        if exc is None or isinstance(exc, RequestCancelled):
            watch.state = "ended"
            watch.detail = str(exc) if exc is not None else "the server ended the subscription"
            self._changed(watch.uri)
        else:
            self._fail(watch, str(exc))

    # ------------------------------------------------------------- events
    def _on_item(self, session: Session, item: SessionItem) -> None:
        if session is not self._session:
            return
        if isinstance(item, NotificationReceived):
            if item.notification.method not in _WATCHED:
                return  # e.g. a log line: no typed view built for it
            typed = item.typed
            if isinstance(typed, ResourceUpdated):
                self._updated(typed.uri)
            elif isinstance(typed, SubscriptionAcknowledged):
                self._acknowledged(typed)
        elif isinstance(item, TransportClosed):
            self._end_all(f"the connection ended: {item.reason}")

    def _updated(self, uri: str) -> None:
        watch = self._watches.get(uri)
        if watch is None:
            log.info("resource update for %s, which is not watched", uri)
            return
        watch.last_updated = self._clock()
        watch.updates += 1
        if watch.state == "subscribing":
            watch.state = "active"
        self._changed(uri)

    def _acknowledged(self, ack: SubscriptionAcknowledged) -> None:
        for watch in self._watches.values():
            if watch.call is None or watch.call.key != ack.request_key:
                continue
            accepted = ack.notifications.get("resourceSubscriptions")
            if isinstance(accepted, list) and watch.uri not in accepted:
                watch.state = "failed"
                watch.detail = "the server acknowledged the stream without this URI"
                watch.call.cancel("the server did not accept the URI")
            elif watch.state == "subscribing":
                watch.state = "active"
            self._changed(watch.uri)
