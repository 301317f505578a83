"""A request in flight (`Call`), and the `RequestChannel` a client starts requests on.

`Call` is what every `start_*` method returns: await `result()`, or `cancel()` it. The
channel is the part of the session the MCP client needs (`inspector.session.client`), as a
Protocol, so the client is composed over the driver without importing it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from inspector.protocol.machine.events import ProgressUpdate
from inspector.protocol.wire.versions import Era

__all__ = ["Call", "ProgressCallback", "RequestChannel", "Timeout", "new_call_future"]

ProgressCallback = Callable[[ProgressUpdate], None]
# A request's timeout: seconds, the profile's default, or none at all (a listen stream).
Timeout = float | Literal["default"] | None


@dataclass
class Call:
    """One request in flight. Await `result()`; `cancel()` sends notifications/cancelled."""

    key: int
    method: str
    canceller: Callable[[int, str], None]
    future: asyncio.Future[dict[str, Any]]
    started: float

    async def result(self) -> dict[str, Any]:
        return await asyncio.shield(self.future)

    def cancel(self, reason: str = "cancelled by the user") -> None:
        if self.future.done():
            return  # over; its key may already belong to a newer request (re-initialize)
        self.canceller(self.key, reason)

    @property
    def done(self) -> bool:
        return self.future.done()


class RequestChannel(Protocol):
    """What the MCP client needs of a session: start requests, and know the era and wire."""

    @property
    def era(self) -> Era: ...

    @property
    def transport_kind(self) -> str: ...

    @property
    def max_pages(self) -> int: ...

    def start_request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        timeout: Timeout = "default",
        max_total: Timeout = "default",
        on_progress: ProgressCallback | None = None,
        override: bool = False,
    ) -> Call: ...

    def use_log_level(self, level: str | None) -> None:
        """Modern era: the level every later request carries in its _meta (None: none)."""
        ...


def new_call_future() -> asyncio.Future[dict[str, Any]]:
    """A call's future. Its failure counts as seen even if nobody awaits the call (a
    fire-and-forget request, or one still pending at disconnect): the failure reaches the
    user through the events, not through asyncio's "exception was never retrieved"."""
    future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    future.add_done_callback(_mark_seen)
    return future


def _mark_seen(future: asyncio.Future[dict[str, Any]]) -> None:
    if not future.cancelled():
        future.exception()
