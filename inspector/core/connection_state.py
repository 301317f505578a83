"""The states one connection goes through, as the front ends show them.

A plain string enum, so that a Qt signal can carry the value and a widget can compare it
with the enum again.
"""

from __future__ import annotations

import enum

__all__ = ["ConnState"]


class ConnState(enum.StrEnum):
    DISCONNECTED = "disconnected"
    CONNECTING = "connecting"
    CONNECTED = "connected"
    DISCONNECTING = "disconnecting"
    FAILED = "failed"  # could not connect
    LOST = "lost"  # the server went away while connected (crash, exit)
