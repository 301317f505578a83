"""The well-formed messages the checks write themselves, beside the session (over a bare
pipe or HTTP client, or the probe's raw channel), built by the protocol's own types."""

from __future__ import annotations

from typing import Any, Final

from inspector.protocol.wire.jsonrpc import Request

__all__ = ["CHECK_CLIENT_INFO", "initialize_request"]

CHECK_CLIENT_INFO: Final = {"name": "mcp-inspector-qt check", "version": "1"}


def initialize_request(version: str) -> dict[str, Any]:
    """A legacy `initialize` (id 1) offering `version`, with no capabilities."""
    params = {"protocolVersion": version, "capabilities": {}, "clientInfo": dict(CHECK_CLIENT_INFO)}
    return Request(1, "initialize", params).to_dict()
