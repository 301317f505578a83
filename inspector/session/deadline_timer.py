"""The one timer a session keeps: for the connection's next deadline (a request timeout, an
MRTR retry), re-armed only when that deadline moved."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

__all__ = ["DeadlineTimer"]


class DeadlineTimer:
    """Most frames leave the deadline where it was. Re-creating the timer per frame is
    costly under qasync: a cancelled timer (its Qt timer, handle and context) stays alive
    until its original deadline, so a flood of frames piled up one per frame."""

    def __init__(self, clock: Callable[[], float], on_due: Callable[[], None]) -> None:
        self._clock = clock
        self._on_due = on_due
        self._handle: asyncio.TimerHandle | None = None
        self._deadline: float | None = None  # what `_handle` is armed for

    def arm(self, deadline: float | None) -> None:
        """Fire `on_due` at `deadline` (None: never), unless it is armed for it already."""
        if self._handle is not None:
            if deadline == self._deadline:
                return
            self._handle.cancel()
            self._handle = None
        self._deadline = deadline
        if deadline is None:
            return
        delay = max(0.0, deadline - self._clock())
        self._handle = asyncio.get_running_loop().call_later(delay, self._fire)

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._handle = None
        self._deadline = None

    def _fire(self) -> None:
        self._handle = None
        self._deadline = None
        self._on_due()
