"""The states one connection goes through, as the front ends show them, and which profile
a front end's actions are about (`profile_in_use`).

A plain string enum, so that a Qt signal can carry the value and a widget can compare it
with the enum again.
"""

from __future__ import annotations

import enum
from collections.abc import Callable

from inspector.settings.profiles import Profile

__all__ = ["ConnState", "profile_in_use"]


class ConnState(enum.StrEnum):
    DISCONNECTED = "disconnected"
    CONNECTING = "connecting"
    CONNECTED = "connected"
    DISCONNECTING = "disconnecting"
    FAILED = "failed"  # could not connect
    LOST = "lost"  # the server went away while connected (crash, exit)


def profile_in_use(
    connected: Profile | None, state: ConnState, chosen: Callable[[], Profile | None]
) -> Profile | None:
    """The profile of the connection while it is up or coming up; else the one `chosen()`
    (picked in the connection bar), else the one last connected."""
    if connected is not None and state in (ConnState.CONNECTED, ConnState.CONNECTING):
        return connected
    return chosen() or connected
