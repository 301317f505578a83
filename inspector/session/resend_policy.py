"""When a request whose response stream broke is sent again, and when to give up.

spec 2026-07-28 streamable HTTP: a broken response stream means re-sending the request
under a new id; a server that breaks every stream would make that loop forever, so a
request is re-sent at most `MAX_RESENDS` times within `WINDOW` seconds of the last one.
"""

from __future__ import annotations

from typing import Final

__all__ = ["MAX_RESENDS", "ResendPolicy"]

MAX_RESENDS: Final = 3
WINDOW: Final = 30.0


class ResendPolicy:
    def __init__(self) -> None:
        self._resends: dict[int, tuple[int, float]] = {}  # request key -> (count, last at)

    def may_resend(self, key: int, now: float) -> bool:
        """Count one more re-send of `key`; False once it has been re-sent too often."""
        count, last = self._resends.get(key, (0, now))
        count = count + 1 if now - last < WINDOW else 1
        if count > MAX_RESENDS:
            self._resends.pop(key, None)
            return False
        self._resends[key] = (count, now)
        return True

    def forget(self, key: int) -> None:
        """The request ended: its count starts again if its key is ever reused."""
        self._resends.pop(key, None)
