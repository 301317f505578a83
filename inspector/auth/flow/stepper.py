"""Qt-free pieces for the GUI's Auth panel.

* `AuthTimeline`: the events of one connection's flow, in order, with change callbacks
  (a Qt item model adapts it; it is also an `AuthListener`). A failing callback is logged
  and the others still hear the event: one broken view must not hide the flow from another.
* `StepGate`: the "step through" hook. When enabled, the flow stops before each step
  (discovery, registration, authorization, token exchange...) until `advance()`; `stop()`
  aborts the login with `AuthCancelled`. Disabling it releases a waiting step.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from inspector.auth.failures import AuthCancelled
from inspector.auth.flow.events import AuthEvent, AuthStep
from inspector.common.listeners import Listeners, Unsubscribe

__all__ = ["AuthTimeline", "StepGate"]


class AuthTimeline:
    def __init__(self, limit: int = 10_000) -> None:
        self.events: list[AuthEvent] = []
        self.limit = limit
        self._listeners: Listeners[[AuthEvent]] = Listeners("an auth timeline listener")

    def __call__(self, event: AuthEvent) -> None:
        self.events.append(event)
        if len(self.events) > self.limit:
            del self.events[: len(self.events) - self.limit]
        self._listeners.emit(event)

    def add_listener(self, listener: Callable[[AuthEvent], None]) -> Unsubscribe:
        return self._listeners.add(listener)

    def remove_listener(self, listener: Callable[[AuthEvent], None]) -> None:
        self._listeners.remove(listener)

    def clear(self) -> None:
        self.events.clear()

    def errors(self) -> list[AuthEvent]:
        return [e for e in self.events if e.level == "error"]


class StepGate:
    def __init__(
        self,
        *,
        enabled: bool = False,
        on_waiting: Callable[[AuthStep | None], None] | None = None,
    ) -> None:
        self.enabled = enabled
        self.waiting: AuthStep | None = None
        self.on_waiting = on_waiting
        self._future: asyncio.Future[None] | None = None

    async def __call__(self, step: AuthStep) -> None:
        if not self.enabled:
            return
        self._future = asyncio.get_running_loop().create_future()
        self._set_waiting(step)
        try:
            await self._future
        finally:
            self._future = None
            self._set_waiting(None)

    def _set_waiting(self, step: AuthStep | None) -> None:
        self.waiting = step
        if self.on_waiting is not None:
            self.on_waiting(step)

    def advance(self) -> None:
        """Run the step that is waiting."""
        if self._future is not None and not self._future.done():
            self._future.set_result(None)

    def stop(self, reason: str = "stopped by the user") -> None:
        """Abort the login at the waiting step."""
        if self._future is not None and not self._future.done():
            self._future.set_exception(AuthCancelled(reason))

    def set_enabled(self, enabled: bool) -> None:
        self.enabled = enabled
        if not enabled:
            self.advance()
