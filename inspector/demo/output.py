"""The demo server's stdout: one JSON-RPC message per line, written whole by whichever
thread has something to say (the reader answers inline, tool calls answer from their
workers, timers send updates). A closed stdout drops the rest quietly: the client is gone.
The envelopes are the protocol's (`inspector.protocol.wire.jsonrpc`, stdlib only as well)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import BinaryIO

from inspector.demo import content
from inspector.demo.content import JSONObject
from inspector.demo.rpc import META_SERVER, Request, RequestId, RpcError
from inspector.protocol.wire import jsonrpc

_log = logging.getLogger("inspector.demo")

# Modern results that say how long a client may cache them.
CACHEABLE = {
    "server/discover",
    "tools/list",
    "resources/list",
    "resources/templates/list",
    "prompts/list",
    "resources/read",
}
# The hints those results carry; the command line may change them once, at start
# (`--ttl-ms`, `--cache-scope`), for trying a client's cache.
CACHE_HINTS: JSONObject = {"ttlMs": 0, "cacheScope": "public"}


class Output:
    """Writes to `stdout`, or hands each message to `sink` (the HTTP mode routes them)."""

    def __init__(
        self, stdout: BinaryIO | None = None, sink: Callable[[JSONObject], None] | None = None
    ) -> None:
        self._out = stdout
        self._sink = sink
        self._write_lock = threading.Lock()
        self._broken = False

    def send(self, message: jsonrpc.Message) -> None:
        if self._sink is not None:
            self._sink(message.to_dict())
            return
        assert self._out is not None
        data = (jsonrpc.encode(message) + "\n").encode()
        with self._write_lock:
            if self._broken:
                return
            try:
                self._out.write(data)
                self._out.flush()
            except (OSError, ValueError):
                self._broken = True
                _log.warning("stdout is closed; dropping further output")

    def notify(self, method: str, params: JSONObject) -> None:
        self.send(jsonrpc.Notification(method, params))

    def ask(self, request_id: RequestId, method: str, params: JSONObject) -> None:
        """A request of the server's own (sampling, elicitation, roots)."""
        self.send(jsonrpc.Request(request_id, method, params))

    def send_error(self, request_id: RequestId | None, error: RpcError) -> None:
        self.send(jsonrpc.ErrorResponse(request_id, error.code, error.message, error.data))

    def send_result(self, req: Request, result: JSONObject) -> None:
        """A result in the request's era: modern ones carry `resultType`, the server info
        and, where cacheable, their cache hints."""
        if req.modern:
            result = {"resultType": "complete", **result}
            result["_meta"] = {META_SERVER: content.SERVER_INFO, **result.get("_meta", {})}
            if req.method in CACHEABLE:
                for key, value in CACHE_HINTS.items():
                    result.setdefault(key, value)
        self.send(jsonrpc.Response(req.id, result))
