"""The bundled demo MCP server: stdio, newline-delimited JSON-RPC 2.0, both protocol eras.

The era is decided per message. A request whose ``params._meta`` carries
``io.modelcontextprotocol/protocolVersion`` = 2026-07-28 is handled in the modern way (no
handshake, ``resultType`` on every result, ``input_required`` instead of server requests);
everything else follows the legacy ``initialize`` session.

Threads: the main thread reads stdin and answers most requests inline; every ``tools/call`` runs
in its own worker thread, so the reader keeps going while a tool waits for the client's answer
to a server request, sleeps, or is cancelled.

This module reads and dispatches, and answers the plain requests and the subscriptions;
the tool calls are ``tool_calls.ToolCalls``, the writer ``output.Output``, the vocabulary
of both eras ``rpc``.
"""

from __future__ import annotations

import functools
import json
import logging
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

from inspector.common.log_levels import LOG_LEVELS
from inspector.demo import content
from inspector.demo.content import JSONObject
from inspector.demo.output import Output
from inspector.demo.rpc import (
    ALL_VERSIONS,
    INVALID_PARAMS,
    INVALID_REQUEST,
    LATEST_LEGACY,
    LEGACY_VERSIONS,
    META_CAPS,
    META_CLIENT,
    META_LOG_LEVEL,
    META_SUBSCRIPTION,
    META_VERSION,
    METHOD_NOT_FOUND,
    MODERN_VERSIONS,
    PARSE_ERROR,
    RESOURCE_NOT_FOUND,
    UNSUPPORTED_VERSION,
    LegacySession,
    Request,
    RequestId,
    RpcError,
    request_key,
)
from inspector.demo.tool_calls import ToolCalls
from inspector.demo.tools import tool_specs

_log = logging.getLogger("inspector.demo")

CAPABILITIES: JSONObject = {
    "tools": {"listChanged": True},
    "resources": {"subscribe": True, "listChanged": True},
    "prompts": {"listChanged": True},
    "logging": {},
    "completions": {},
}
LEGACY_ONLY = {
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
}
MODERN_ONLY = {"server/discover", "subscriptions/listen"}
LIST_FILTERS = ("toolsListChanged", "resourcesListChanged", "promptsListChanged")
UPDATE_DELAY_S = 1.0


class DemoServer:
    def __init__(self, stdin: BinaryIO, stdout: BinaryIO, output: Output | None = None) -> None:
        self._in = stdin
        self.out = output or Output(stdout)
        self.legacy = LegacySession()
        self._calls = ToolCalls(self.out, self.legacy, self.toggle_bonus_tool)
        # Guards the subscriptions, the listens and the bonus tool switch.
        self._lock = threading.Lock()
        self._initialized = False
        self._subscriptions: set[str] = set()
        self._listens: dict[str, tuple[Request, JSONObject]] = {}
        self._bonus = False
        self._handlers: dict[str, Callable[[Request], JSONObject]] = {
            "initialize": self._initialize,
            "ping": lambda req: {},
            "logging/setLevel": self._set_level,
            "server/discover": self._discover,
            "tools/list": lambda req: self._list(
                req, "tools", [t.definition for t in tool_specs(self._bonus)]
            ),
            "resources/list": lambda req: self._list(req, "resources", content.RESOURCES),
            "resources/templates/list": lambda req: self._list(
                req, "resourceTemplates", content.RESOURCE_TEMPLATES
            ),
            "prompts/list": lambda req: self._list(req, "prompts", content.PROMPTS),
            "resources/read": self._read,
            "resources/subscribe": self._subscribe,
            "resources/unsubscribe": self._unsubscribe,
            "prompts/get": self._get_prompt,
            "completion/complete": self._complete,
        }

    # ------------------------------------------------------------------ input

    def run(self) -> int:
        _log.info("demo server ready (protocols: %s)", ", ".join(ALL_VERSIONS))
        while True:
            try:
                line = self._in.readline()
            except (OSError, ValueError):
                break
            if not line:
                break
            if line.strip():
                try:
                    self.handle_line(line)
                except Exception:
                    _log.exception("internal error while handling a message")
        _log.info("stdin closed, shutting down")
        self.shutdown()
        return 0

    def shutdown(self) -> None:
        """End the tool calls still running (stdin closed, or the HTTP session ended)."""
        self._calls.shutdown()

    # ------------------------------------------------------------------ dispatch

    def handle_line(self, raw: bytes) -> None:
        try:
            message = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            self.out.send_error(None, RpcError(PARSE_ERROR, f"Parse error: invalid UTF-8 ({exc})"))
            return
        except (json.JSONDecodeError, RecursionError) as exc:
            self.out.send_error(None, RpcError(PARSE_ERROR, f"Parse error: {exc}"))
            return
        if not isinstance(message, dict):
            what = "batches are not supported" if isinstance(message, list) else "not an object"
            self.out.send_error(None, RpcError(INVALID_REQUEST, f"Invalid Request: {what}"))
            return
        self.handle_message(message)

    def handle_message(self, msg: JSONObject) -> None:
        msg_id = msg.get("id")
        id_ok = isinstance(msg_id, int | str) and not isinstance(msg_id, bool)
        method = msg.get("method")
        if msg.get("jsonrpc") != "2.0":
            invalid = RpcError(INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"')
            self.out.send_error(msg_id if id_ok else None, invalid)
            return
        if method is None and "id" in msg and ("result" in msg or "error" in msg):
            self._calls.on_response(msg)
            return
        if not isinstance(method, str) or ("id" in msg and not id_ok):
            detail = "bad id" if isinstance(method, str) else "missing or non-string method"
            self.out.send_error(
                msg_id if id_ok else None, RpcError(INVALID_REQUEST, f"Invalid Request: {detail}")
            )
            return
        params = msg.get("params")
        params = {} if params is None else params
        if "id" not in msg:
            if isinstance(params, dict):
                self._on_notification(method, params)
            return
        assert isinstance(msg_id, int | str)
        try:
            if not isinstance(params, dict):
                raise RpcError(INVALID_PARAMS, "Invalid params: params must be an object")
            self._dispatch(self._make_request(msg_id, method, params))
        except RpcError as exc:
            self.out.send_error(msg_id, exc)

    def _make_request(self, msg_id: RequestId, method: str, params: JSONObject) -> Request:
        meta = params.get("_meta")
        meta = meta if isinstance(meta, dict) else {}
        token = meta.get("progressToken")
        version = meta.get(META_VERSION)
        if version is None or version in LEGACY_VERSIONS:
            return Request(msg_id, method, params, False, self.legacy.caps, None, token)
        if version not in MODERN_VERSIONS:
            data = {"supported": ALL_VERSIONS, "requested": version}
            raise RpcError(UNSUPPORTED_VERSION, "Unsupported protocol version", data)
        caps = meta.get(META_CAPS)
        if not isinstance(caps, dict):
            raise RpcError(INVALID_PARAMS, f"Invalid params: _meta[{META_CAPS!r}] is required")
        level = meta.get(META_LOG_LEVEL)
        if level is not None and level not in LOG_LEVELS:
            raise RpcError(INVALID_PARAMS, f"Invalid params: unknown log level {level!r}")
        return Request(msg_id, method, params, True, caps, level, token)

    def _dispatch(self, req: Request) -> None:
        method = req.method
        if req.modern and method in LEGACY_ONLY:
            raise RpcError(
                METHOD_NOT_FOUND, f"Method not found: {method} is not part of protocol 2026-07-28"
            )
        if not req.modern and method in MODERN_ONLY:
            raise RpcError(
                INVALID_PARAMS, f"Invalid params: {method} needs params._meta[{META_VERSION!r}]"
            )
        if method == "tools/call":
            self._calls.start(req, bonus=self._bonus)
        elif method == "subscriptions/listen":
            self._listen(req)
        elif method in self._handlers:
            self.out.send_result(req, self._handlers[method](req))
        else:
            raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method}")

    def _on_notification(self, method: str, params: JSONObject) -> None:
        if method == "notifications/initialized":
            self._initialized = True
            _log.info("client sent notifications/initialized")
        elif method == "notifications/cancelled":
            self._cancel(params.get("requestId"), params.get("reason"))
        else:
            _log.info("notification %s", method)

    def _cancel(self, request_id: Any, reason: Any) -> None:
        key = request_key(request_id)
        with self._lock:
            listen = self._listens.pop(key, None)
        req = self._calls.running(key)
        if listen is not None:
            _log.info("subscription %s closed by the client", key)
            self.out.send_result(listen[0], {"_meta": {META_SUBSCRIPTION: listen[0].id}})
        elif req is not None:
            _log.info("cancelling request %s (%s)", key, reason or "no reason given")
            req.cancel.set()
        else:
            _log.info("cancellation for unknown or finished request %s ignored", key)

    # ------------------------------------------------------------------ plain handlers

    def _initialize(self, req: Request) -> JSONObject:
        requested = req.params.get("protocolVersion")
        caps = req.params.get("capabilities")
        if not isinstance(requested, str) or not isinstance(caps, dict):
            raise RpcError(INVALID_PARAMS, "Invalid params: protocolVersion and capabilities")
        self.legacy.version = requested if requested in LEGACY_VERSIONS else LATEST_LEGACY
        self.legacy.caps = caps
        client = req.params.get("clientInfo")
        _log.info("initialize from %s, protocol %s", client, self.legacy.version)
        return {
            "protocolVersion": self.legacy.version,
            "capabilities": CAPABILITIES,
            "serverInfo": content.SERVER_INFO,
            "instructions": content.INSTRUCTIONS,
        }

    def _set_level(self, req: Request) -> JSONObject:
        level = req.params.get("level")
        if level not in LOG_LEVELS:
            raise RpcError(
                INVALID_PARAMS, f"Invalid params: level must be one of {list(LOG_LEVELS)}"
            )
        self.legacy.level = str(level)
        return {}

    def _discover(self, req: Request) -> JSONObject:
        client = req.params.get("_meta", {}).get(META_CLIENT)
        _log.info("server/discover from %s", client)
        return {
            "supportedVersions": MODERN_VERSIONS,
            "capabilities": CAPABILITIES,
            "instructions": content.INSTRUCTIONS,
            "ttlMs": 60_000,
        }

    def _list(self, req: Request, key: str, items: list[JSONObject]) -> JSONObject:
        if "cursor" in req.params:
            cursor = req.params["cursor"]
            raise RpcError(INVALID_PARAMS, f"Invalid params: unknown cursor {cursor!r}")
        return {key: items}

    def _uri(self, req: Request) -> str:
        uri = req.params.get("uri")
        if not isinstance(uri, str):
            raise RpcError(INVALID_PARAMS, "Invalid params: uri must be a string")
        if not content.resource_exists(uri):
            raise RpcError(RESOURCE_NOT_FOUND, f"Resource not found: {uri}", {"uri": uri})
        return uri

    def _read(self, req: Request) -> JSONObject:
        contents = content.read_resource(self._uri(req))
        return {"contents": contents}

    def _subscribe(self, req: Request) -> JSONObject:
        uri = self._uri(req)
        with self._lock:
            self._subscriptions.add(uri)
        self._later(lambda: self._resource_updated(uri, None))
        return {}

    def _unsubscribe(self, req: Request) -> JSONObject:
        uri = req.params.get("uri")
        with self._lock:
            self._subscriptions.discard(str(uri))
        return {}

    def _get_prompt(self, req: Request) -> JSONObject:
        name = req.params.get("name")
        arguments = req.params.get("arguments") or {}
        if not isinstance(name, str) or not isinstance(arguments, dict):
            raise RpcError(INVALID_PARAMS, "Invalid params: name and arguments")
        try:
            return content.get_prompt(name, arguments)
        except KeyError:
            raise RpcError(INVALID_PARAMS, f"Invalid params: unknown prompt {name!r}") from None
        except ValueError as exc:
            raise RpcError(INVALID_PARAMS, f"Invalid params: {exc}") from None

    def _complete(self, req: Request) -> JSONObject:
        ref = req.params.get("ref")
        argument = req.params.get("argument")
        if not isinstance(ref, dict) or not isinstance(argument, dict):
            raise RpcError(INVALID_PARAMS, "Invalid params: ref and argument are required")
        values = content.complete(ref, str(argument.get("name")), str(argument.get("value", "")))
        if values is None:
            raise RpcError(INVALID_PARAMS, f"Invalid params: unknown reference {ref}")
        return {
            "completion": {
                "values": values[:100],
                "total": len(values),
                "hasMore": len(values) > 100,
            }
        }

    # ------------------------------------------------------------------ subscriptions

    def _later(self, action: Callable[[], None]) -> None:
        timer = threading.Timer(UPDATE_DELAY_S, action)
        timer.daemon = True
        timer.start()

    def _resource_updated(self, uri: str, listen_key: str | None) -> None:
        with self._lock:
            listen = self._listens.get(listen_key) if listen_key else None
            wanted = uri in self._subscriptions if listen_key is None else listen is not None
        if self._calls.closing or not wanted:
            return
        params: JSONObject = {"uri": uri}
        if listen is not None:
            params["_meta"] = {META_SUBSCRIPTION: listen[0].id}
        self.out.notify("notifications/resources/updated", params)

    def _listen(self, req: Request) -> None:
        wanted = req.params.get("notifications")
        if not isinstance(wanted, dict):
            raise RpcError(INVALID_PARAMS, "Invalid params: notifications must be an object")
        accepted: JSONObject = {k: True for k in LIST_FILTERS if wanted.get(k) is True}
        uris = wanted.get("resourceSubscriptions")
        if isinstance(uris, list):
            accepted["resourceSubscriptions"] = [
                u for u in uris if isinstance(u, str) and content.resource_exists(u)
            ]
        key = request_key(req.id)
        with self._lock:
            self._listens[key] = (req, accepted)
        self.out.notify(
            "notifications/subscriptions/acknowledged",
            {"_meta": {META_SUBSCRIPTION: req.id}, "notifications": accepted},
        )
        for uri in accepted.get("resourceSubscriptions", []):
            self._later(functools.partial(self._resource_updated, uri, key))

    def toggle_bonus_tool(self) -> bool:
        with self._lock:
            self._bonus = not self._bonus
            listens = [r for r, f in self._listens.values() if f.get("toolsListChanged")]
            shown = self._bonus
        if self._initialized:
            self.out.notify("notifications/tools/list_changed", {})
        for listen in listens:
            self.out.notify(
                "notifications/tools/list_changed", {"_meta": {META_SUBSCRIPTION: listen.id}}
            )
        return shown
