"""`tools/call` in the demo server: each call runs in a worker thread of its own, so the
reader keeps going while a tool sleeps, reports progress, is cancelled, or waits for the
client.

A tool that needs the client (sampling, elicitation) asks it the era's way: legacy sends
a server request and blocks until the answer comes back through `on_response`; modern
answers `input_required` with a `requestState` (the Multi Round-Trip Request), and the
client retries the call with `inputResponses`.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from inspector.common.log_levels import LOG_LEVELS
from inspector.demo.content import JSONObject
from inspector.demo.output import Output
from inspector.demo.rpc import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    MISSING_CAPABILITY,
    MODERN_VERSIONS,
    LegacySession,
    Request,
    RpcError,
    request_key,
)
from inspector.demo.tools import (
    AskFailed,
    Cancelled,
    MissingCapability,
    NeedInput,
    ToolFailure,
    ToolSpec,
    error_result,
    find_tool,
    validate,
)

__all__ = ["Call", "ToolCalls", "decode_state", "encode_state"]

_log = logging.getLogger("inspector.demo")

CAPABILITY_FOR_METHOD = {"sampling/createMessage": "sampling", "elicitation/create": "elicitation"}
ASK_TIMEOUT_S = 600.0


def encode_state(state: JSONObject) -> str:
    raw = json.dumps(state, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_state(token: str) -> JSONObject | None:
    try:
        value = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    except (binascii.Error, ValueError):
        return None
    return value if isinstance(value, dict) else None


@dataclass
class _Pending:
    event: threading.Event = field(default_factory=threading.Event)
    response: JSONObject = field(default_factory=dict)


class Call:
    """The ToolContext of one tools/call request."""

    def __init__(self, calls: ToolCalls, req: Request, responses: JSONObject) -> None:
        self.calls = calls
        self.req = req
        self.responses = responses
        self.modern = req.modern
        self.protocol_version = MODERN_VERSIONS[0] if req.modern else calls.legacy.version

    def progress(self, progress: float, total: float | None, message: str | None) -> None:
        if self.req.progress_token is None:
            return
        params: JSONObject = {"progressToken": self.req.progress_token, "progress": progress}
        if total is not None:
            params["total"] = total
        if message is not None:
            params["message"] = message
        self.calls.out.notify("notifications/progress", params)

    def log(self, level: str, data: Any, logger: str = "demo") -> None:
        threshold = self.req.log_level if self.modern else self.calls.legacy.level
        if threshold is None or LOG_LEVELS.index(level) < LOG_LEVELS.index(threshold):
            return
        self.calls.out.notify(
            "notifications/message", {"level": level, "logger": logger, "data": data}
        )

    def sleep(self, seconds: float) -> None:
        if self.req.cancel.wait(seconds) or self.calls.closing:
            raise Cancelled()

    def ask(self, key: str, method: str, params: JSONObject) -> JSONObject:
        capability = CAPABILITY_FOR_METHOD[method]
        caps = self.req.client_caps if self.modern else self.calls.legacy.caps
        if not isinstance(caps.get(capability), dict):
            raise MissingCapability(capability)
        if not self.modern:
            return self.calls.ask_client(self.req, method, params)
        answer = self.responses.get(key)
        if isinstance(answer, dict):
            return answer
        raise NeedInput(key, method, params)

    def toggle_bonus_tool(self) -> bool:
        return self.calls.toggle_bonus_tool()


class ToolCalls:
    """The calls in flight, their worker threads, and the server requests they wait on.

    Collaborators: `out` (where answers and notifications go), `legacy` (the handshake's
    version, client capabilities and log level, read when a call runs) and
    `toggle_bonus_tool` (the server's tool list, which one tool changes)."""

    def __init__(
        self, out: Output, legacy: LegacySession, toggle_bonus_tool: Callable[[], bool]
    ) -> None:
        self.out = out
        self.legacy = legacy
        self.toggle_bonus_tool = toggle_bonus_tool
        self.closing = False
        self._lock = threading.Lock()
        self._inflight: dict[str, Request] = {}
        self._pending: dict[str, _Pending] = {}
        self._workers: list[threading.Thread] = []
        self._server_ids = itertools.count(1)

    def start(self, req: Request, *, bonus: bool) -> None:
        """Check the call and start its worker; raises RpcError for a call that cannot run.
        `bonus`: whether the bonus tool is listed now."""
        name = req.params.get("name")
        arguments = req.params.get("arguments")
        arguments = {} if arguments is None else arguments
        if not isinstance(name, str) or not isinstance(arguments, dict):
            raise RpcError(INVALID_PARAMS, "Invalid params: name (string) and arguments (object)")
        spec = find_tool(name, bonus)
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
            if request_key(req.id) in self._inflight:
                raise RpcError(INVALID_REQUEST, f"Invalid Request: id {req.id!r} is in use")
            self._inflight[request_key(req.id)] = req
            self._workers = [w for w in self._workers if w.is_alive()]
            worker = threading.Thread(
                target=self._run,
                args=(req, spec, arguments, responses),
                name=f"tool-{name}-{req.id}",
                daemon=True,
            )
            self._workers.append(worker)
        worker.start()

    def running(self, key: str) -> Request | None:
        """The call in flight under this request key, if any."""
        with self._lock:
            return self._inflight.get(key)

    def _run(self, req: Request, spec: ToolSpec, args: JSONObject, responses: JSONObject) -> None:
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
                self._inflight.pop(request_key(req.id), None)
        if req.cancel.is_set():
            return
        if error is not None:
            self.out.send_error(req.id, error)
        elif result is not None:
            self.out.send_result(req, result)

    # ------------------------------------------------------------------ legacy asks

    def ask_client(self, req: Request, method: str, params: JSONObject) -> JSONObject:
        """Legacy era: send a server request and block until the client answers it."""
        server_id = f"demo-srv-{next(self._server_ids)}"
        pending = _Pending()
        with self._lock:
            self._pending[request_key(server_id)] = pending
        self.out.ask(server_id, method, params)
        deadline = time.monotonic() + ASK_TIMEOUT_S
        while not pending.event.wait(0.05):
            cancelled = req.cancel.is_set() or self.closing
            if cancelled or time.monotonic() > deadline:
                with self._lock:
                    self._pending.pop(request_key(server_id), None)
                reason = "the tool call ended" if cancelled else "no answer in time"
                self.out.notify(
                    "notifications/cancelled", {"requestId": server_id, "reason": reason}
                )
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

    def on_response(self, msg: JSONObject) -> None:
        """The client's answer to one of our server requests: wake the call waiting on it."""
        with self._lock:
            pending = self._pending.pop(request_key(msg.get("id")), None)
        if pending is None:
            _log.warning("response to unknown request id %r ignored", msg.get("id"))
            return
        pending.response = msg
        pending.event.set()

    # ------------------------------------------------------------------ shutdown

    def shutdown(self) -> None:
        """Let quick tool calls finish and answer, then cancel whatever is still running."""
        with self._lock:
            workers = list(self._workers)
        _join(workers, 1.0)
        self.closing = True
        with self._lock:
            for req in self._inflight.values():
                req.cancel.set()
        _join(workers, 1.0)


def _join(workers: list[threading.Thread], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    for worker in workers:
        worker.join(max(deadline - time.monotonic(), 0.0))
