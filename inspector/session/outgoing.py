"""What a transport needs to know about a message it sends, without parsing it again:
its kind, method and id, the era and version, and (modern HTTP) the request-metadata
headers: `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` for arguments marked x-mcp-header."""

from __future__ import annotations

from typing import Literal

from inspector.protocol.wire.http_headers import request_headers
from inspector.protocol.wire.jsonrpc import (
    ErrorResponse,
    Invalid,
    Message,
    Notification,
    Request,
    Response,
)
from inspector.protocol.wire.versions import LATEST_MODERN, Era
from inspector.session.tool_headers import ToolHeaderRegistry
from inspector.transports.base import Outgoing

__all__ = ["outgoing_for"]


def outgoing_for(
    frame: Message | Invalid, era: Era, version: str | None, tool_headers: ToolHeaderRegistry
) -> Outgoing:
    wire_era: Literal["legacy", "modern"] = "modern" if era is Era.MODERN else "legacy"
    if isinstance(frame, Request):
        headers: dict[str, str] = {}
        if wire_era == "modern":
            name = (frame.params or {}).get("name")
            spec = tool_headers.spec_for(name) if isinstance(name, str) else None
            headers = request_headers(frame.method, frame.params, version or LATEST_MODERN, spec)
        return Outgoing("request", frame.method, frame.id, wire_era, version, headers)
    if isinstance(frame, Notification):
        cancels = None
        if frame.method == "notifications/cancelled":
            rid = (frame.params or {}).get("requestId")
            cancels = rid if isinstance(rid, str | int) else None
        return Outgoing("notification", frame.method, None, wire_era, version, cancels=cancels)
    if isinstance(frame, Response):
        return Outgoing("response", None, frame.id, wire_era, version)
    if isinstance(frame, ErrorResponse):
        return Outgoing("error", None, frame.id, wire_era, version)
    return Outgoing("notification", None, frame.id, wire_era, version)
