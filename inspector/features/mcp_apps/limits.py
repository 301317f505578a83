"""The app's message budget: a token bucket (a burst, then a steady rate). Messages over it
are not handled (a request gets a -32000 "rate limited" error, a notification is dropped);
the host logs the first one of a flood and then one summary per second with the count."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

__all__ = ["MessageBudget"]

RATE: Final = 100.0  # messages per second, steady
BURST: Final = 300.0  # messages at once


class MessageBudget:
    def __init__(
        self,
        rate: float = RATE,
        burst: float = BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = burst
        self._last = clock()
        self.dropped = 0  # over the budget since the last summary
        self.dropped_total = 0
        self._flood_since: float | None = None
        self._last_summary = 0.0

    def take(self) -> bool:
        """One message: True when it may be handled."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        self.dropped += 1
        self.dropped_total += 1
        return False

    def summary_due(self) -> int:
        """The count of dropped messages to report now (at most once a second), or 0."""
        now = self._clock()
        if self.dropped and now - self._last_summary >= 1.0:
            count, self.dropped = self.dropped, 0
            self._last_summary = now
            return count
        return 0
