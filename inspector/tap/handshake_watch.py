"""Spots the handshake the host and server make through the tap, for the `ready` line.

The tap is not a client: it learns the session's era, version and server info only by
watching an `initialize` (legacy) or `server/discover` (modern) request go out and its
result come back. The host's clientInfo and capabilities come from the same request.
"""

from __future__ import annotations

from typing import Any, Final

from inspector.protocol.machine.events import SessionReady
from inspector.protocol.wire.jsonrpc import Request, Response
from inspector.protocol.wire.versions import Era
from inspector.traffic.record import TrafficRecord

__all__ = ["HandshakeWatch"]

_HANDSHAKES: Final = {"initialize": Era.LEGACY, "server/discover": Era.MODERN}
_META_VERSION: Final = "io.modelcontextprotocol/protocolVersion"
_MAX_WATCHED: Final = 16


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


class HandshakeWatch:
    def __init__(self) -> None:
        self._pending: dict[Any, tuple[Era, dict[str, Any]]] = {}
        self.ready: SessionReady | None = None
        self.client_info: dict[str, Any] = {}

    def see(self, record: TrafficRecord) -> SessionReady | None:
        """The handshake's outcome when `record` completes it (once), else None."""
        frame = record.frame
        if isinstance(frame, Request) and record.direction == "out":
            era = _HANDSHAKES.get(frame.method)
            if era is not None and len(self._pending) < _MAX_WATCHED:
                params = _dict(frame.params)
                self._pending[_key(frame.id)] = (era, params)
                meta = _dict(params.get("_meta"))
                info = params.get("clientInfo") or meta.get("io.modelcontextprotocol/clientInfo")
                if isinstance(info, dict):
                    self.client_info = info
            return None
        if not isinstance(frame, Response) or record.direction != "in" or not self._pending:
            return None
        asked = self._pending.pop(_key(frame.id), None)
        if asked is None or self.ready is not None:
            return None
        era, params = asked
        result = _dict(frame.result)
        version = result.get("protocolVersion")
        if not isinstance(version, str):
            version = _dict(params.get("_meta")).get(_META_VERSION)
        instructions = result.get("instructions")
        self.ready = SessionReady(
            era=era,
            protocol_version=str(version or "?"),
            server_info=_dict(result.get("serverInfo")),
            capabilities=_dict(result.get("capabilities")),
            instructions=instructions if isinstance(instructions, str) else None,
            result=result,
        )
        return self.ready


def _key(value: Any) -> Any:
    """JSON-RPC ids compare by value and type (1 and "1" differ)."""
    return (type(value).__name__, value)
