"""What the demo server's messages are made of: the protocol versions of both eras, the
`_meta` keys, the JSON-RPC error codes, a request as parsed (with its era), and the state
the legacy `initialize` handshake leaves. Shared by the dispatcher (server.py), the
writer (output.py) and the tool calls (tool_calls.py).

Stdlib only: the demo runs as `python -m inspector.demo` with nothing installed."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Any

from inspector.demo.content import JSONObject

MODERN_VERSIONS = ["2026-07-28"]
LEGACY_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
ALL_VERSIONS = MODERN_VERSIONS + LEGACY_VERSIONS
LATEST_LEGACY = LEGACY_VERSIONS[0]

META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPS = "io.modelcontextprotocol/clientCapabilities"
META_CLIENT = "io.modelcontextprotocol/clientInfo"
META_LOG_LEVEL = "io.modelcontextprotocol/logLevel"
META_SERVER = "io.modelcontextprotocol/serverInfo"
META_SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId"

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
RESOURCE_NOT_FOUND = -32002
MISSING_CAPABILITY = -32021
UNSUPPORTED_VERSION = -32022

RequestId = int | str


class RpcError(Exception):
    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


@dataclass
class Request:
    id: RequestId
    method: str
    params: JSONObject
    modern: bool
    client_caps: JSONObject
    log_level: str | None
    progress_token: Any = None
    cancel: threading.Event = field(default_factory=threading.Event)


@dataclass
class LegacySession:
    """What `initialize` and `logging/setLevel` settled (the modern era has no session:
    each request carries its own)."""

    version: str = LATEST_LEGACY
    caps: JSONObject = field(default_factory=dict)
    level: str = "info"


def request_key(request_id: Any) -> str:
    """A dict key that keeps 1 and "1" apart."""
    return json.dumps(request_id)
