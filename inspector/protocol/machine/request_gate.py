"""`check_can_send`: may the caller send this request now, to this server?

The lifecycle allows no request before the handshake (except ping while a legacy
initialize is out), the agreed version has its own method table, and a method whose
server capability was not declared is refused. `override` skips the last two, for
debugging a server that behaves differently from what it declared.
"""

from __future__ import annotations

from typing import Any

from inspector.protocol.machine.config import CAPABILITY_FOR
from inspector.protocol.machine.negotiated import Negotiated
from inspector.protocol.machine.state import ConnectionState, ConnectionStateMachine
from inspector.protocol.wire.errors import CapabilityNotDeclared, LocalProtocolError
from inspector.protocol.wire.versions import Era, features

__all__ = ["check_can_send"]


def check_can_send(
    lifecycle: ConnectionStateMachine, negotiated: Negotiated, method: str, override: bool
) -> None:
    """Raise `LocalProtocolError` (or `CapabilityNotDeclared`) if `method` may not go out."""
    state = lifecycle.state
    if state in (ConnectionState.FAILED, ConnectionState.CLOSED):
        detail = f": {lifecycle.failure}" if lifecycle.failure else ""
        raise LocalProtocolError(f"the connection is {state}{detail}")
    if state is ConnectionState.IDLE:
        raise LocalProtocolError("connect first: the handshake has not been started")
    # spec 2025-06-18 lifecycle: no requests before initialize returns, except ping.
    if state is not ConnectionState.READY and not (
        state is ConnectionState.INITIALIZING and method == "ping"
    ):
        raise LocalProtocolError(
            f"cannot send {method} before the handshake completes (state {state})"
        )
    if override:
        return
    if method == "ping" and negotiated.era is Era.LEGACY:
        return  # every legacy version has ping, even before the version is agreed
    version = negotiated.protocol_version
    assert version is not None
    feats = features(version)
    if not feats.knows_client_request(method):
        raise LocalProtocolError(
            f"{method} is not a client request in protocol version {version}"
            " (send anyway with the override)"
        )
    cap = CAPABILITY_FOR.get(method)
    caps = negotiated.server_capabilities
    if cap is None or caps is None:
        return
    if cap == "completions" and not feats.completions_capability:
        return
    if not _has_capability(caps, cap):
        raise CapabilityNotDeclared(method, cap)


def _has_capability(caps: dict[str, Any], path: str) -> bool:
    node: Any = caps
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return node is not False and node is not None
