"""`Responses`: pairs what the server answers with our requests, and routes each answer.

An answer finds its request by wire id. The handshake's answers go to the handshake; a
-32022 error gets a version retry; a modern `input_required` result starts an MRTR round;
everything else ends the request. An answer nobody waits for is named for what it is
(late, duplicate, unknown) from the ids the connection remembers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.protocol.machine.config import META_CLIENT_CAPS, META_PREFIX
from inspector.protocol.machine.events import (
    Event,
    InvalidFrame,
    LateResponse,
    ProtocolViolation,
    RequestFailed,
    UnmatchedResponse,
)
from inspector.protocol.machine.handshake import Handshake
from inspector.protocol.machine.mrtr import MrtrRounds
from inspector.protocol.machine.parts import ConnectionParts
from inspector.protocol.machine.pending import Pending
from inspector.protocol.machine.version_retry import supported_list
from inspector.protocol.wire.jsonrpc import (
    INVALID_REQUEST,
    PARSE_ERROR,
    UNSUPPORTED_PROTOCOL_VERSION,
    ErrorResponse,
    Invalid,
    Response,
)
from inspector.protocol.wire.versions import Era

__all__ = ["TASKS_EXTENSION", "Responses"]

TASKS_EXTENSION = META_PREFIX + "tasks"


@dataclass(slots=True, eq=False)
class Responses:
    """Routes the server's responses (valid or malformed) to the request they answer."""

    _parts: ConnectionParts
    _handshake: Handshake
    _mrtr: MrtrRounds

    def on_response(self, msg: Response | ErrorResponse, now: float) -> list[Event]:
        if msg.id is None:
            assert isinstance(msg, ErrorResponse)
            # Only a parse error or an invalid request says the server could not read one;
            # any other error with a null id answered something without an id: a notification.
            why = (
                "the server could not read a request"
                if msg.code in (PARSE_ERROR, INVALID_REQUEST)
                else "an answer to no request: the server answered a notification, or lost an id"
            )
            return [
                UnmatchedResponse(
                    None, "null id", f"error with null id ({why}): {msg.code} {msg.message}"
                )
            ]
        p = self._parts.pending.unbind_wire(msg.id)
        if p is None:
            return [self._unmatched(msg)]
        self._parts.answered.remember(msg.id, p.method)
        if p.internal is not None:
            return self._handshake.on_answer(p, msg, now)
        if isinstance(msg, ErrorResponse):
            return self._on_error(p, msg, now)
        return self._on_result(p, msg.result, now)

    def on_invalid(self, frame: Invalid) -> list[Event]:
        events: list[Event] = [InvalidFrame(frame)]
        value = frame.value
        if frame.id is not None and isinstance(value, dict) and "method" in value:
            # A malformed request from the server: answer it, or the server waits forever.
            self._parts.outbox.put(
                ErrorResponse(frame.id, INVALID_REQUEST, f"Invalid request: {frame.reason}")
            )
            return events
        p = self._parts.pending.on_wire(frame.id) if frame.id is not None else None
        # It looks like a response (value None: too deep to decode, but its id was read).
        if p is not None and (isinstance(value, dict) or value is None):
            self._parts.pending.forget(p)
            self._parts.answered.remember(p.wire_id, p.method)
            events.extend(self._parts.asks.withdraw_for(p, "malformed response"))
            events.append(
                RequestFailed(
                    p.key,
                    p.method,
                    "protocol",
                    f"{p.method}: the server's response was malformed ({frame.reason})",
                    wire_id=p.wire_id,
                )
            )
            if p.internal is not None:
                events.extend(self._handshake.fail(f"malformed {p.method} response"))
        return events

    def _unmatched(self, msg: Response | ErrorResponse) -> Event:
        assert msg.id is not None
        late = self._parts.given_up.get(msg.id)
        if late is not None:
            method, why = late
            return LateResponse(msg.id, method, why)
        earlier = self._parts.answered.get(msg.id)
        if earlier is not None:
            return UnmatchedResponse(
                msg.id,
                "duplicate",
                f"a second response to request {msg.id!r} ({earlier})",
            )
        return UnmatchedResponse(
            msg.id, "unknown id", f"a response to id {msg.id!r}, which was never sent"
        )

    def _on_error(self, p: Pending, err: ErrorResponse, now: float) -> list[Event]:
        if (
            err.code == UNSUPPORTED_PROTOCOL_VERSION
            and self._parts.negotiated.era is Era.MODERN
            and not p.raw
        ):
            supported = supported_list(err.data)
            retried = self._parts.versions.retry(p, supported, now, "server answered -32022")
            if retried is not None:
                return [retried]
            listed = ", ".join(supported) if supported else "no list given"
            return [
                self._parts.pending.fail_with_error(
                    p,
                    err,
                    f"{p.method}: the server does not support protocol version "
                    f"{self._parts.negotiated.protocol_version} (it supports: {listed})",
                )
            ]
        return [self._parts.pending.fail_with_error(p, err)]

    def _on_result(self, p: Pending, result: dict[str, Any], now: float) -> list[Event]:
        if self._parts.negotiated.era is not Era.MODERN or p.raw:
            return [self._parts.pending.complete(p, result)]
        result_type = result.get("resultType", "complete")  # spec: absent means "complete"
        if result_type == "complete":
            return [self._parts.pending.complete(p, result)]
        if result_type == "task" and p.method == "tools/call":
            # The io.modelcontextprotocol/tasks extension (SEP-2663): a CreateTaskResult, which
            # a server must only send when the request declared the extension.
            if _declares_tasks(self._parts.config.capabilities, p.params):
                return [self._parts.pending.complete(p, result)]
            return [
                ProtocolViolation(
                    "task-undeclared",
                    f"{p.method}: the server answered with a task, but this request did not "
                    "declare the io.modelcontextprotocol/tasks extension; shown as is",
                ),
                self._parts.pending.complete(p, result),
            ]
        if result_type != "input_required":
            return [
                ProtocolViolation(
                    "resultType", f"{p.method}: unknown resultType {result_type!r}; shown as is"
                ),
                self._parts.pending.complete(p, result),
            ]
        return self._mrtr.on_input_required(p, result, now)


def _declares_tasks(caps: dict[str, Any], params: dict[str, Any] | None) -> bool:
    """Did this request declare the tasks extension (the connection's caps or its own)?"""
    sources: list[Any] = [caps]
    meta = (params or {}).get("_meta")
    if isinstance(meta, dict):
        sources.append(meta.get(META_CLIENT_CAPS))
    for source in sources:
        extensions = source.get("extensions") if isinstance(source, dict) else None
        if isinstance(extensions, dict) and TASKS_EXTENSION in extensions:
            return True
    return False
