"""Pure JSON-RPC 2.0 framing: one frame of text or bytes in, one message out.

`parse_frame` never raises. A debugger must show whatever the peer sent, so
anything that is not a well-formed JSON-RPC 2.0 message becomes `Invalid`,
carrying the raw text (or bytes) and a reason a person can read.

No asyncio, httpx or Qt here (tests enforce it).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias

from inspector.protocol.wire.json_text import JSON_WHITESPACE, dumps, excerpt, top_level_member

__all__ = [
    "ALREADY_SUBSCRIBED_DEPRECATED",
    "HEADER_MISMATCH",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "MISSING_REQUIRED_CLIENT_CAPABILITY",
    "PARSE_ERROR",
    "RESOURCE_NOT_FOUND",
    "UNSUPPORTED_PROTOCOL_VERSION",
    "URL_ELICITATION_REQUIRED",
    "USER_REJECTED",
    "ErrorResponse",
    "Invalid",
    "Message",
    "Notification",
    "ParsedFrame",
    "Request",
    "RequestId",
    "Response",
    "encode",
    "error_name",
    "parse_frame",
]

RequestId: TypeAlias = str | int

# JSON-RPC 2.0 standard codes.
PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
METHOD_NOT_FOUND: Final = -32601
INVALID_PARAMS: Final = -32602
INTERNAL_ERROR: Final = -32603
# MCP codes.
RESOURCE_NOT_FOUND: Final = -32002
URL_ELICITATION_REQUIRED: Final = -32042
HEADER_MISMATCH: Final = -32020
MISSING_REQUIRED_CLIENT_CAPABILITY: Final = -32021
UNSUPPORTED_PROTOCOL_VERSION: Final = -32022
# spec 2025-06-18 client/sampling: "user rejected sampling request" uses code -1.
USER_REJECTED: Final = -1
ALREADY_SUBSCRIBED_DEPRECATED: Final = -32001

_ERROR_NAMES: Final[dict[int, str]] = {
    PARSE_ERROR: "Parse error",
    INVALID_REQUEST: "Invalid request",
    METHOD_NOT_FOUND: "Method not found",
    INVALID_PARAMS: "Invalid params",
    INTERNAL_ERROR: "Internal error",
    RESOURCE_NOT_FOUND: "Resource not found",
    URL_ELICITATION_REQUIRED: "URL elicitation required",
    HEADER_MISMATCH: "Header mismatch",
    MISSING_REQUIRED_CLIENT_CAPABILITY: "Missing required client capability",
    UNSUPPORTED_PROTOCOL_VERSION: "Unsupported protocol version",
    USER_REJECTED: "Rejected by user",
}


def error_name(code: int) -> str:
    """A short human name for an error code, including the server-error range."""
    if code in _ERROR_NAMES:
        return _ERROR_NAMES[code]
    if -32099 <= code <= -32000:
        return "Server error"
    return "Application error"


@dataclass(frozen=True, slots=True)
class Request:
    id: RequestId
    method: str
    params: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"jsonrpc": "2.0", "id": self.id, "method": self.method}
        if self.params is not None:
            d["params"] = self.params
        return d


@dataclass(frozen=True, slots=True)
class Notification:
    method: str
    params: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"jsonrpc": "2.0", "method": self.method}
        if self.params is not None:
            d["params"] = self.params
        return d


@dataclass(frozen=True, slots=True)
class Response:
    id: RequestId
    result: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": self.id, "result": self.result}


@dataclass(frozen=True, slots=True)
class ErrorResponse:
    """An error response. `id` is None when the peer could not read the request id."""

    id: RequestId | None
    code: int
    message: str
    data: Any = None

    def to_dict(self) -> dict[str, Any]:
        err: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            err["data"] = self.data
        return {"jsonrpc": "2.0", "id": self.id, "error": err}


Message: TypeAlias = Request | Notification | Response | ErrorResponse


@dataclass(frozen=True, slots=True)
class Invalid:
    """A frame that is not a JSON-RPC 2.0 message.

    `raw` is exactly what was received (str, or bytes when it was not UTF-8).
    `id` is set when the frame was a JSON object with a usable id, so the
    protocol layer can still fail the matching request.
    """

    raw: str | bytes
    reason: str
    id: RequestId | None = None
    value: Any = field(default=None, compare=False)


ParsedFrame: TypeAlias = Message | Invalid


def _is_valid_id(value: Any) -> bool:
    # bool is an int subclass; JSON true/false is not a valid id. Floats are
    # discouraged by JSON-RPC and disallowed by MCP ("string or integer").
    return isinstance(value, str | int) and not isinstance(value, bool)


def _json_error(exc: ValueError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    return str(exc)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"non-standard JSON constant {name}")


# One decoder for every frame: json.loads(..., parse_constant=...) builds a new one per call.
_DECODER: Final = json.JSONDecoder(parse_constant=_reject_constant)


# The decoder's scanner, called directly by the fast path (no whitespace regex around it).
_SCAN: Final[Callable[[str, int], tuple[Any, int]]] = _DECODER.scan_once  # type: ignore[attr-defined]


def parse_frame(frame: str | bytes) -> ParsedFrame:
    """Decode one frame. Never raises; returns `Invalid` with a reason instead."""
    if type(frame) is str and frame[:1] == "{":
        # The fast path for the common frame (compact text, a plain notification or
        # result, the same decoder): anything else, or any doubt, takes the full rules.
        try:
            value, end = _SCAN(frame, 0)
        except Exception:  # StopIteration, ValueError, RecursionError: _parse says why
            value = end = None
        if end == len(frame) and type(value) is dict:
            common = _common(value)
            if common is not None:
                return common
    try:
        return _parse(frame)
    except Exception as exc:  # defensive: the contract is "never raises", and keeps the id
        return Invalid(
            frame,
            f"unexpected parser failure: {type(exc).__name__}: {exc}",
            id=_salvaged_id(frame),
        )


def _salvaged_id(frame: str | bytes) -> RequestId | None:
    """The top-level id of a frame that could not be decoded whole (e.g. nested too deeply
    elsewhere), read without decoding the rest; None when there is no usable one."""
    text = frame.decode("utf-8", "replace") if isinstance(frame, bytes | bytearray) else frame
    found, value = top_level_member(text, "id")
    return value if found and _is_valid_id(value) else None


def _parse(frame: str | bytes) -> ParsedFrame:
    if isinstance(frame, bytes | bytearray):
        raw_bytes = bytes(frame)
        try:
            text = raw_bytes.decode("utf-8")
        except UnicodeDecodeError as exc:
            return _salvage(raw_bytes, f"invalid UTF-8 at byte {exc.start}: {exc.reason}")
    else:
        text = frame
    stripped = text.strip(JSON_WHITESPACE)  # RFC 8259: str.strip() would take \x85, \u2028...
    if not stripped:
        return Invalid(text, "empty frame")
    try:
        # raw_decode on stripped text: decode() would match leading/trailing space again.
        value, end = _DECODER.raw_decode(stripped)
    except RecursionError:
        return Invalid(text, "not JSON: nested too deeply to decode", id=_salvaged_id(stripped))
    except ValueError as exc:
        # Not JSON as a whole (NaN, a cut line...), but a readable top-level id still
        # names the request it answers, which then fails at once instead of timing out.
        return Invalid(text, f"not JSON: {_json_error(exc)}", id=_salvaged_id(stripped))
    if end != len(stripped):
        rid = value.get("id") if isinstance(value, dict) else None
        return Invalid(
            text,
            f"not JSON: extra data after the value at column {end + 1}",
            id=rid if _is_valid_id(rid) else None,
        )
    if isinstance(value, list):
        return Invalid(
            text,
            f"JSON-RPC batch of {len(value)} messages (batches exist only in 2025-03-26)",
            value=value,
        )
    if not isinstance(value, dict):
        return Invalid(text, f"not a JSON object but {_json_type(value)}", value=value)
    return _classify(text, value)


def _common(obj: dict[str, Any]) -> Notification | Response | None:
    """A plain notification or a plain result, or None to let the full rules judge."""
    if obj.get("jsonrpc") != "2.0" or "error" in obj:
        return None
    if "method" in obj:
        method = obj["method"]
        params = obj.get("params")
        if (
            type(method) is not str
            or "id" in obj
            or "result" in obj
            or ("params" in obj and type(params) is not dict)
        ):
            return None
        return Notification(method, params)
    result = obj.get("result")
    msg_id = obj.get("id")
    if type(result) is not dict or (type(msg_id) is not int and type(msg_id) is not str):
        return None
    return Response(msg_id, result)


def _salvage(raw_bytes: bytes, reason: str) -> Invalid:
    """Invalid UTF-8 is still Invalid, but keep its id so the request it answers can fail."""
    readable = _parse(raw_bytes.decode("utf-8", "replace"))
    # An id with a replaced character is not what the server sent: never echo it.
    rid = None if isinstance(readable, Notification) else readable.id
    if isinstance(rid, str) and "\ufffd" in rid:
        rid = None
    if isinstance(readable, Invalid):
        return Invalid(raw_bytes, reason, id=rid, value=readable.value)
    return Invalid(raw_bytes, reason, id=rid, value=readable.to_dict())


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _classify(text: str, obj: dict[str, Any]) -> ParsedFrame:
    raw_id = obj.get("id")
    usable_id: RequestId | None = raw_id if _is_valid_id(raw_id) else None

    def bad(reason: str) -> Invalid:
        return Invalid(text, reason, id=usable_id, value=obj)

    version = obj.get("jsonrpc")
    if version != "2.0":
        if "jsonrpc" not in obj:
            return bad('missing "jsonrpc": "2.0"')
        return bad(f'"jsonrpc" must be "2.0", got {excerpt(version)}')

    has_method = "method" in obj
    has_result = "result" in obj
    has_error = "error" in obj

    if has_method:
        method = obj["method"]
        if not isinstance(method, str):
            return bad('"method" must be a string')
        if has_result or has_error:
            return bad('a message cannot have both "method" and "result"/"error"')
        params = obj.get("params")
        if "params" in obj and not isinstance(params, dict):
            # MCP always uses by-name params; positional arrays are a peer bug.
            return bad(f'"params" must be an object, got {_json_type(params)}')
        if "id" not in obj:
            return Notification(method, params)
        if usable_id is None:
            return bad(f"request id must be a string or integer, got {_describe_id(raw_id)}")
        return Request(usable_id, method, params)

    if has_result and has_error:
        return bad('a response cannot have both "result" and "error"')
    if has_result:
        if usable_id is None:
            return bad(f"response id must be a string or integer, got {_describe_id(raw_id)}")
        result = obj["result"]
        if not isinstance(result, dict):
            return bad(f'"result" must be an object, got {_json_type(result)}')
        return Response(usable_id, result)
    if has_error:
        if raw_id is not None and not _is_valid_id(raw_id):
            return bad(f"error id must be a string, integer or null, got {_describe_id(raw_id)}")
        err = obj["error"]
        if not isinstance(err, dict):
            return bad(f'"error" must be an object, got {_json_type(err)}')
        code = err.get("code")
        if not isinstance(code, int) or isinstance(code, bool):
            return bad('"error.code" must be an integer')
        message = err.get("message")
        if not isinstance(message, str):
            return bad('"error.message" must be a string')
        return ErrorResponse(usable_id, code, message, err.get("data"))
    return bad('neither a request ("method") nor a response ("result" or "error")')


def _describe_id(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return "a non-finite number"
    return f"{_json_type(value)} ({excerpt(value)})"


def encode(message: Message) -> str:
    """Serialize a message as one compact line of JSON (no trailing newline).

    Always valid UTF-8 and strict JSON that parses back to the same message: lone
    surrogates are written as their ASCII escape, an infinity (decoded from 1e400) as
    1e999; NaN raises ValueError (JSON has none)."""
    return dumps(message.to_dict())
