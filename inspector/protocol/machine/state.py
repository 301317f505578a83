"""The connection's lifecycle as one transition table, in the manner of h11's `_state.py`.

Every state change of a `ClientConnection` is a `Trigger` fired at its
`ConnectionStateMachine`, and `TRANSITIONS` alone says where each one leads. Reading the
table tells the whole lifecycle; a (state, trigger) pair missing from it is a bug in the
connection, so firing it raises `IllegalTransition` instead of drifting into a state
nobody planned for.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from inspector.protocol.wire.errors import LocalProtocolError

__all__ = [
    "TRANSITIONS",
    "ConnectionState",
    "ConnectionStateMachine",
    "IllegalTransition",
    "Trigger",
]


class ConnectionState(enum.StrEnum):
    IDLE = "idle"
    PROBING = "probing"  # auto era: server/discover sent, legacy fallback possible
    DISCOVERING = "discovering"  # modern era: server/discover sent
    INITIALIZING = "initializing"  # legacy: initialize sent
    READY = "ready"
    FAILED = "failed"
    CLOSED = "closed"


class Trigger(enum.StrEnum):
    """What happened to make the connection change state."""

    START_LEGACY = "start legacy"  # initialize sent
    START_MODERN = "start modern"  # server/discover sent
    START_AUTO = "start auto"  # server/discover sent as a probe
    INITIALIZE_ANSWERED = "initialize answered"
    DISCOVER_ANSWERED = "discover answered"
    DISCOVER_NOT_IMPLEMENTED = "discover not implemented"  # a MUST broken: go on without it
    FALLBACK_TO_LEGACY = "fallback to legacy"  # the probe failed: initialize sent
    # auto: initialize refused with -32022 for a modern version we speak (the probe timed
    # out on a server slow to start): server/discover sent again
    BACK_TO_MODERN = "back to modern"
    HANDSHAKE_FAILED = "handshake failed"
    CONNECTION_LOST = "connection lost"


_S = ConnectionState
_T = Trigger

TRANSITIONS: Final[Mapping[tuple[ConnectionState, Trigger], ConnectionState]] = MappingProxyType(
    {
        (_S.IDLE, _T.START_LEGACY): _S.INITIALIZING,
        (_S.IDLE, _T.START_MODERN): _S.DISCOVERING,
        (_S.IDLE, _T.START_AUTO): _S.PROBING,
        (_S.PROBING, _T.DISCOVER_ANSWERED): _S.READY,
        (_S.PROBING, _T.FALLBACK_TO_LEGACY): _S.INITIALIZING,
        (_S.PROBING, _T.HANDSHAKE_FAILED): _S.FAILED,
        (_S.DISCOVERING, _T.DISCOVER_ANSWERED): _S.READY,
        (_S.DISCOVERING, _T.DISCOVER_NOT_IMPLEMENTED): _S.READY,
        (_S.DISCOVERING, _T.HANDSHAKE_FAILED): _S.FAILED,
        (_S.INITIALIZING, _T.INITIALIZE_ANSWERED): _S.READY,
        (_S.INITIALIZING, _T.BACK_TO_MODERN): _S.DISCOVERING,
        (_S.INITIALIZING, _T.HANDSHAKE_FAILED): _S.FAILED,
        # The transport can end at any time; a failed connection stays failed, so the
        # reason it failed is the one that is shown.
        (_S.IDLE, _T.CONNECTION_LOST): _S.CLOSED,
        (_S.PROBING, _T.CONNECTION_LOST): _S.CLOSED,
        (_S.DISCOVERING, _T.CONNECTION_LOST): _S.CLOSED,
        (_S.INITIALIZING, _T.CONNECTION_LOST): _S.CLOSED,
        (_S.READY, _T.CONNECTION_LOST): _S.CLOSED,
        (_S.CLOSED, _T.CONNECTION_LOST): _S.CLOSED,
        (_S.FAILED, _T.CONNECTION_LOST): _S.FAILED,
    }
)


class IllegalTransition(LocalProtocolError):
    """A trigger fired in a state the table has no row for: a bug in the connection."""

    def __init__(self, state: ConnectionState, trigger: Trigger) -> None:
        super().__init__(f"illegal connection transition: {trigger} in state {state}")
        self.state = state
        self.trigger = trigger


class ConnectionStateMachine:
    """The current state, moved only through `TRANSITIONS`, and why the connection ended."""

    __slots__ = ("_failure", "_state")

    def __init__(self) -> None:
        self._state = ConnectionState.IDLE
        self._failure: str | None = None

    @property
    def state(self) -> ConnectionState:
        return self._state

    @property
    def failure(self) -> str | None:
        """Why the connection failed or closed; None while it works."""
        return self._failure

    def fire(self, trigger: Trigger, *, why: str | None = None) -> ConnectionState:
        """Move to the state the table gives for `trigger`; returns it.

        `why` explains a failure or a close. Once the connection has failed, later reasons
        (the transport closing after it) do not replace the one that made it fail.
        """
        old = self._state
        new = TRANSITIONS.get((old, trigger))
        if new is None:
            raise IllegalTransition(old, trigger)
        self._state = new
        if why is not None and old is not ConnectionState.FAILED:
            self._failure = why
        return new
