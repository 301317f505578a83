"""The bundled demo MCP server: stdio, newline-delimited JSON-RPC 2.0, both protocol eras.

The era is decided per message. A request whose ``params._meta`` carries
``io.modelcontextprotocol/protocolVersion`` = 2026-07-28 is handled in the modern way (no
handshake, ``resultType`` on every result, ``input_required`` instead of server requests);
everything else follows the legacy ``initialize`` session.

Threads: the main thread reads stdin and answers most requests inline; every ``tools/call`` runs
in its own worker thread, so the reader keeps going while a tool waits for the client's answer
to a server request, sleeps, or is cancelled.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import functools
import itertools
import json
import logging
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from inspector.demo import content
from inspector.demo.content import JSONObject
from inspector.demo.tools import (
    AskFailed,
    Cancelled,
    MissingCapability,
    NeedInput,
    ToolFailure,
    ToolSpec,
    error_result,
    find_tool,
    tool_specs,
    validate,
)
from inspector.protocol.log_levels import LOG_LEVELS

_log = logging.getLogger("inspector.demo")

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

CAPABILITIES: JSONObject = {
    "tools": {"listChanged": True},
    "resources": {"subscribe": True, "listChanged": True},
    "prompts": {"listChanged": True},
    "logging": {},
    "completions": {},
}
CAPABILITY_FOR_METHOD = {"sampling/createMessage": "sampling", "elicitation/create": "elicitation"}
LEGACY_ONLY = {
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
}
MODERN_ONLY = {"server/discover", "subscriptions/listen"}
CACHEABLE = {
    "server/discover",
    "tools/list",
    "resources/list",
    "resources/templates/list",
    "prompts/list",
    "resources/read",
}
LIST_FILTERS = ("toolsListChanged", "resourcesListChanged", "promptsListChanged")
ASK_TIMEOUT_S = 600.0
UPDATE_DELAY_S = 1.0

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
class _Pending:
    event: threading.Event = field(default_factory=threading.Event)
    response: JSONObject = field(default_factory=dict)


def _key(request_id: Any) -> str:
    """A dict key that keeps 1 and "1" apart."""
    return json.dumps(request_id)


def encode_state(state: JSONObject) -> str:
    raw = json.dumps(state, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_state(token: str) -> JSONObject | None:
    try:
        value = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    except (binascii.Error, ValueError):
        return None
    return value if isinstance(value, dict) else None


class Call:
    """The ToolContext of one tools/call request."""

    def __init__(self, server: DemoServer, req: Request, responses: JSONObject) -> None:
        self.server = server
        self.req = req
        self.responses = responses
        self.modern = req.modern
        self.protocol_version = MODERN_VERSIONS[0] if req.modern else server.legacy_version

    def progress(self, progress: float, total: float | None, message: str | None) -> None:
        if self.req.progress_token is None:
            return
        params: JSONObject = {"progressToken": self.req.progress_token, "progress": progress}
        if total is not None:
            params["total"] = total
        if message is not None:
            params["message"] = message
        self.server.notify("notifications/progress", params)

    def log(self, level: str, data: Any, logger: str = "demo") -> None:
        threshold = self.req.log_level if self.modern else self.server.legacy_level
        if threshold is None or LOG_LEVELS.index(level) < LOG_LEVELS.index(threshold):
            return
        self.server.notify(
            "notifications/message", {"level": level, "logger": logger, "data": data}
        )

    def sleep(self, seconds: float) -> None:
        if self.req.cancel.wait(seconds) or self.server.closing:
            raise Cancelled()

    def ask(self, key: str, method: str, params: JSONObject) -> JSONObject:
        capability = CAPABILITY_FOR_METHOD[method]
        caps = self.req.client_caps if self.modern else self.server.legacy_caps
        if not isinstance(caps.get(capability), dict):
            raise MissingCapability(capability)
        if not self.modern:
            return self.server.ask_client(self.req, method, params)
        answer = self.responses.get(key)
        if isinstance(answer, dict):
            return answer
        raise NeedInput(key, method, params)

    def toggle_bonus_tool(self) -> bool:
        return self.server.toggle_bonus_tool()


class DemoServer:
    def __init__(self, stdin: BinaryIO, stdout: BinaryIO) -> None:
        self._in = stdin
        self._out = stdout
        self._write_lock = threading.Lock()
        self._lock = threading.Lock()
        self._broken = False
        self.closing = False
        self.legacy_version = LATEST_LEGACY
        self.legacy_caps: JSONObject = {}
        self.legacy_level = "info"
        self._initialized = False
        self._subscriptions: set[str] = set()
        self._inflight: dict[str, Request] = {}
        self._listens: dict[str, tuple[Request, JSONObject]] = {}
        self._pending: dict[str, _Pending] = {}
        self._workers: list[threading.Thread] = []
        self._server_ids = itertools.count(1)
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

    # ------------------------------------------------------------------ IO

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
        self._shutdown()
        return 0

    def send(self, message: JSONObject) -> None:
        data = (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
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
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def send_error(self, request_id: Any, error: RpcError) -> None:
        body: JSONObject = {"code": error.code, "message": error.message}
        if error.data is not None:
            body["data"] = error.data
        self.send({"jsonrpc": "2.0", "id": request_id, "error": body})

    def send_result(self, req: Request, result: JSONObject) -> None:
        if req.modern:
            result = {"resultType": "complete", **result}
            result["_meta"] = {META_SERVER: content.SERVER_INFO, **result.get("_meta", {})}
            if req.method in CACHEABLE:
                result.setdefault("ttlMs", 0)
                result.setdefault("cacheScope", "public")
        self.send({"jsonrpc": "2.0", "id": req.id, "result": result})

    # ------------------------------------------------------------------ dispatch

    def handle_line(self, raw: bytes) -> None:
        try:
            message = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            self.send_error(None, RpcError(PARSE_ERROR, f"Parse error: invalid UTF-8 ({exc})"))
            return
        except (json.JSONDecodeError, RecursionError) as exc:
            self.send_error(None, RpcError(PARSE_ERROR, f"Parse error: {exc}"))
            return
        if not isinstance(message, dict):
            what = "batches are not supported" if isinstance(message, list) else "not an object"
            self.send_error(None, RpcError(INVALID_REQUEST, f"Invalid Request: {what}"))
            return
        self.handle_message(message)

    def handle_message(self, msg: JSONObject) -> None:
        msg_id = msg.get("id")
        id_ok = isinstance(msg_id, int | str) and not isinstance(msg_id, bool)
        method = msg.get("method")
        if msg.get("jsonrpc") != "2.0":
            invalid = RpcError(INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"')
            self.send_error(msg_id if id_ok else None, invalid)
            return
        if method is None and "id" in msg and ("result" in msg or "error" in msg):
            self._on_response(msg)
            return
        if not isinstance(method, str) or ("id" in msg and not id_ok):
            detail = "bad id" if isinstance(method, str) else "missing or non-string method"
            self.send_error(
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
            self.send_error(msg_id, exc)

    def _make_request(self, msg_id: RequestId, method: str, params: JSONObject) -> Request:
        meta = params.get("_meta")
        meta = meta if isinstance(meta, dict) else {}
        token = meta.get("progressToken")
        version = meta.get(META_VERSION)
        if version is None or version in LEGACY_VERSIONS:
            return Request(msg_id, method, params, False, self.legacy_caps, None, token)
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
            self._start_tool(req)
        elif method == "subscriptions/listen":
            self._listen(req)
        elif method in self._handlers:
            self.send_result(req, self._handlers[method](req))
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

    def _on_response(self, msg: JSONObject) -> None:
        with self._lock:
            pending = self._pending.pop(_key(msg.get("id")), None)
        if pending is None:
            _log.warning("response to unknown request id %r ignored", msg.get("id"))
            return
        pending.response = msg
        pending.event.set()

    def _cancel(self, request_id: Any, reason: Any) -> None:
        key = _key(request_id)
        with self._lock:
            listen = self._listens.pop(key, None)
            req = self._inflight.get(key)
        if listen is not None:
            _log.info("subscription %s closed by the client", key)
            self.send_result(listen[0], {"_meta": {META_SUBSCRIPTION: listen[0].id}})
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
        self.legacy_version = requested if requested in LEGACY_VERSIONS else LATEST_LEGACY
        self.legacy_caps = caps
        client = req.params.get("clientInfo")
        _log.info("initialize from %s, protocol %s", client, self.legacy_version)
        return {
            "protocolVersion": self.legacy_version,
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
        self.legacy_level = str(level)
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
        if self.closing or not wanted:
            return
        params: JSONObject = {"uri": uri}
        if listen is not None:
            params["_meta"] = {META_SUBSCRIPTION: listen[0].id}
        self.notify("notifications/resources/updated", params)

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
        key = _key(req.id)
        with self._lock:
            self._listens[key] = (req, accepted)
        self.notify(
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
            self.notify("notifications/tools/list_changed", {})
        for listen in listens:
            self.notify(
                "notifications/tools/list_changed", {"_meta": {META_SUBSCRIPTION: listen.id}}
            )
        return shown

    # ------------------------------------------------------------------ tools

    def _start_tool(self, req: Request) -> None:
        name = req.params.get("name")
        arguments = req.params.get("arguments")
        arguments = {} if arguments is None else arguments
        if not isinstance(name, str) or not isinstance(arguments, dict):
            raise RpcError(INVALID_PARAMS, "Invalid params: name (string) and arguments (object)")
        spec = find_tool(name, self._bonus)
        if spec is None:
            raise RpcError(INVALID_PARAMS, f"Invalid params: unknown tool {name!r}")
        responses = req.params.get("inputResponses") if req.modern else None
        responses = {} if responses is None else responses
        if not isinstance(responses, dict):
            raise RpcError(INVALID_PARAMS, "Invalid params: inputResponses must be an object")
        state = req.params.get("requestState") if req.modern else None
        if state is not None:
            decoded = decode_state(state) if isinstance(state, str) else None
            if decoded is None or decoded.get("tool") != name:
                raise RpcError(
                    INVALID_PARAMS,
                    f"Invalid params: requestState was not issued for a call of {name!r}",
                )
        with self._lock:
            if _key(req.id) in self._inflight:
                raise RpcError(INVALID_REQUEST, f"Invalid Request: id {req.id!r} is in use")
            self._inflight[_key(req.id)] = req
            self._workers = [w for w in self._workers if w.is_alive()]
            worker = threading.Thread(
                target=self._run_tool,
                args=(req, spec, arguments, responses),
                name=f"tool-{name}-{req.id}",
                daemon=True,
            )
            self._workers.append(worker)
        worker.start()

    def _run_tool(
        self, req: Request, spec: ToolSpec, args: JSONObject, responses: JSONObject
    ) -> None:
        call = Call(self, req, responses)
        result: JSONObject | None = None
        error: RpcError | None = None
        try:
            problems = validate(spec.definition["inputSchema"], args)
            if problems:
                result = error_result("Invalid arguments: " + "; ".join(problems))
            else:
                result = spec.run(call, args)
        except Cancelled:
            _log.info("tool %s (request %r) was cancelled", spec.name, req.id)
        except NeedInput as need:
            request_state = encode_state({"tool": spec.name, "awaiting": need.key})
            result = {
                "resultType": "input_required",
                "inputRequests": {need.key: {"method": need.method, "params": need.params}},
                "requestState": request_state,
            }
        except MissingCapability as missing:
            if req.modern:
                error = RpcError(
                    MISSING_CAPABILITY,
                    f"Server requires the {missing.capability} capability for this request",
                    {"requiredCapabilities": {missing.capability: {}}},
                )
            else:
                result = error_result(
                    f"{spec.name} needs the client's {missing.capability!r} "
                    "capability, which was not declared in initialize."
                )
        except AskFailed as failed:
            result = error_result(str(failed))
        except ToolFailure as failure:
            error = RpcError(INTERNAL_ERROR, str(failure))
        except Exception:
            _log.exception("tool %s crashed", spec.name)
            error = RpcError(INTERNAL_ERROR, f"Internal error in tool {spec.name}")
        finally:
            with self._lock:
                self._inflight.pop(_key(req.id), None)
        if req.cancel.is_set():
            return
        if error is not None:
            self.send_error(req.id, error)
        elif result is not None:
            self.send_result(req, result)

    def ask_client(self, req: Request, method: str, params: JSONObject) -> JSONObject:
        """Legacy era: send a server request and block until the client answers it."""
        server_id = f"demo-srv-{next(self._server_ids)}"
        pending = _Pending()
        with self._lock:
            self._pending[_key(server_id)] = pending
        self.send({"jsonrpc": "2.0", "id": server_id, "method": method, "params": params})
        deadline = time.monotonic() + ASK_TIMEOUT_S
        while not pending.event.wait(0.05):
            cancelled = req.cancel.is_set() or self.closing
            if cancelled or time.monotonic() > deadline:
                with self._lock:
                    self._pending.pop(_key(server_id), None)
                reason = "the tool call ended" if cancelled else "no answer in time"
                self.notify("notifications/cancelled", {"requestId": server_id, "reason": reason})
                if cancelled:
                    raise Cancelled()
                raise AskFailed(f"The client did not answer {method} within {ASK_TIMEOUT_S:g} s.")
        answer = pending.response
        if "error" in answer:
            err = answer["error"] if isinstance(answer["error"], dict) else {}
            raise AskFailed(
                f"The client answered {method} with error {err.get('code')}: {err.get('message')}"
            )
        result = answer.get("result")
        if not isinstance(result, dict):
            raise AskFailed(f"The client's answer to {method} has no result object.")
        return result

    # ------------------------------------------------------------------ shutdown

    def _shutdown(self) -> None:
        """Let quick tool calls finish and answer, then cancel whatever is still running."""
        with self._lock:
            workers = list(self._workers)
        self._join(workers, 1.0)
        self.closing = True
        with self._lock:
            for req in self._inflight.values():
                req.cancel.set()
        self._join(workers, 1.0)

    @staticmethod
    def _join(workers: list[threading.Thread], seconds: float) -> None:
        deadline = time.monotonic() + seconds
        for worker in workers:
            worker.join(max(deadline - time.monotonic(), 0.0))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m inspector.demo",
        description="The mcp-inspector-qt demo MCP server (stdio, both protocol eras).",
    )
    parser.add_argument("--verbose", action="store_true", help="debug diagnostics on stderr")
    args = parser.parse_args(argv)
    logging.basicConfig(
        stream=sys.stderr,
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s demo %(levelname)s: %(message)s",
    )
    try:
        return DemoServer(sys.stdin.buffer, sys.stdout.buffer).run()
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
