"""`Negotiated`: what the handshake agreed with the server, read by every part of the connection.

The era and protocol version decide how each request is framed (`_meta` or not), which
methods and notifications exist, and whether the server may send requests. They change
during the handshake (the auto-era fallback) and after it (-32022 retries), so the parts
share this one record instead of each keeping a copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.protocol.machine.events import SessionReady
from inspector.protocol.wire.versions import Era

__all__ = ["Negotiated"]


@dataclass
class Negotiated:
    era: Era
    protocol_version: str | None = None  # None until agreed (legacy: until initialize answers)
    server_info: dict[str, Any] = field(default_factory=dict)
    server_capabilities: dict[str, Any] | None = None  # None until the handshake answers
    instructions: str | None = None
    handshake_result: dict[str, Any] | None = None  # the raw initialize / discover result
    initialized_sent: bool = False  # legacy: notifications/initialized is queued

    def record_server(self, result: dict[str, Any], server_info: Any) -> None:
        """Keep what the handshake's answer says about the server."""
        self.handshake_result = result
        self.server_info = server_info if isinstance(server_info, dict) else {}
        caps = result.get("capabilities")
        self.server_capabilities = caps if isinstance(caps, dict) else {}
        instructions = result.get("instructions")
        self.instructions = instructions if isinstance(instructions, str) else None

    def ready_event(self, result: dict[str, Any] | None) -> SessionReady:
        return SessionReady(
            era=self.era,
            protocol_version=self.protocol_version or "",
            server_info=self.server_info,
            capabilities=self.server_capabilities or {},
            instructions=self.instructions,
            result=result,
        )
