"""A recorded session as plain span records, ready for OpenTelemetry (no SDK here).

One `SpanRecord` per JSON-RPC request in the recording, in both directions: from the
request's frame to its response's (or error's) frame, with the recorded wall-clock times.
A request the server sent during a call of ours (a sampling, elicitation or roots ask) is a
child of that call: the one whose HTTP stream carried the ask (`via.xid`), else the one
whose progress token the ask carries, else the newest of our requests still waiting for
its answer when the ask came (a `tools/call` first).

The names follow OpenTelemetry's semantic conventions for MCP (Development status), in the
GenAI conventions repository: https://github.com/open-telemetry/semantic-conventions-genai
`docs/gen-ai/mcp.md` (formerly `docs/gen-ai/mcp.md` of open-telemetry/semantic-conventions):

- span name `{mcp.method.name} {target}`, the target being `gen_ai.tool.name` or
  `gen_ai.prompt.name` when there is one; kind CLIENT for our requests, SERVER for the
  server's (the client handles them);
- `mcp.method.name`, `jsonrpc.request.id` (the id as a string), `mcp.protocol.version`,
  `mcp.session.id` (the `Mcp-Session-Id` header as recorded, possibly shortened by
  redaction), `mcp.resource.uri`, `gen_ai.tool.name` with `gen_ai.operation.name =
  execute_tool`, `gen_ai.prompt.name`, `network.transport` (`pipe` for stdio, `tcp` for
  HTTP), `network.protocol.name` (`http`), `jsonrpc.protocol.version` when it is not 2.0;
- on failure `error.type` (the JSON-RPC error code as a string, or `tool_error` for a
  tool result with `isError: true`), `rpc.response.status_code` (the JSON-RPC code) and an
  ERROR status whose description is the error's message.

A modern-era call of several rounds (MRTR: answered `input_required`, then retried with
`inputResponses`/`requestState` under a new id) is one operation: a parent span from the
first request to the final answer (`mcp_inspector.operation.rounds`, `.server_time` and
`.user_time` in seconds), whose children are its rounds (`mcp_inspector.round`) and, between
them, the user's waits (`user input {target}`, kind INTERNAL, `mcp_inspector.input.keys`).
The rounds are matched from the frames alone (`traffic.operations.RetryMatcher`), as the
recorded-session view groups them.

The records come from a session file or, through `otlp.live.live_session`, from a live
tab's traffic log made into the same lines the recorder writes.

What the conventions do not name is under `mcp_inspector.`: `request.size` and
`response.size` (bytes of the frames as sent), `era` (legacy or modern), `session.file`
(the recording's file name) and `response.missing` (no answer in the recording: the span
ends at the recording's last event, with `error.type = no_response`). A request its sender
cancelled (`notifications/cancelled`) ends at the cancellation, with `error.type =
cancelled`.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from inspector.recording.reader import RecordedEvent, RecordedSession
from inspector.traffic.operations import RetryMatcher

__all__ = ["SpanRecord", "session_resource", "session_spans"]

# the methods whose params name a tool, a prompt, a resource
_TOOL_METHODS = frozenset({"tools/call"})
_PROMPT_METHODS = frozenset({"prompts/get"})
_RESOURCE_METHODS = frozenset({"resources/read", "resources/subscribe", "resources/unsubscribe"})


@dataclass(slots=True)
class SpanRecord:
    """One request and its answer, as a span: times are Unix nanoseconds (wall clock)."""

    index: int
    name: str
    kind: str  # "client" (our request) | "server" (the server's request to us) | "internal"
    start: int
    end: int
    attributes: dict[str, str | int | float | bool] = field(default_factory=dict)
    error: str | None = None  # the status description when the request failed
    parent: int | None = None  # the index of the span this one is a child of

    @property
    def duration(self) -> float:
        """In seconds."""
        return (self.end - self.start) / 1e9


@dataclass(slots=True)
class _Open:
    record: SpanRecord
    xid: int | None
    progress_token: str | None
    params: dict[str, Any] | None = None  # our request's params (to match its retries)


@dataclass(slots=True)
class _Rounds:
    """The MRTR rounds found so far: span index of the first round -> every round's."""

    matcher: RetryMatcher[int] = field(default_factory=RetryMatcher)
    groups: dict[int, list[int]] = field(default_factory=dict)
    first_of: dict[int, int] = field(default_factory=dict)
    asked: dict[int, str] = field(default_factory=dict)  # round -> the inputRequests keys

    def request(self, record: SpanRecord, params: dict[str, Any]) -> None:
        method = str(record.attributes.get("mcp.method.name", ""))
        earlier = self.matcher.match(method, params)
        if earlier is None:
            return
        first = self.first_of.get(earlier, earlier)
        self.groups.setdefault(first, [first]).append(record.index)
        self.first_of[record.index] = first

    def answer(self, opened: _Open, message: dict[str, Any]) -> None:
        result = message.get("result")
        if opened.params is None or not isinstance(result, dict):
            return
        if result.get("resultType") != "input_required":
            return
        record = opened.record
        method = str(record.attributes.get("mcp.method.name", ""))
        params = opened.params
        self.matcher.asked(record.index, method, lambda: params, result)
        asks = result.get("inputRequests")
        self.asked[record.index] = ", ".join(map(str, asks)) if isinstance(asks, dict) else ""


def session_spans(recorded: RecordedSession) -> list[SpanRecord]:
    """The session's requests as span records, in the order the requests were made."""
    base = _time_base(recorded)
    common = _common_attributes(recorded)
    records: list[SpanRecord] = []
    pending: dict[tuple[str, str], _Open] = {}  # (request's direction, id) -> its span
    last_t = recorded.duration
    session_id: str | None = None
    rounds = _Rounds()
    for event in recorded.events:
        if event.type == "http":
            session_id = _session_id(event) or session_id
            _claim_exchange(event, pending)
            continue
        if event.type != "frame" or event.direction not in ("in", "out"):
            continue
        if event.kind == "invalid" or (event.kind == "notification" and not _cancel(event)):
            continue  # not parsed: a log flood costs little
        message = _message(event)
        if message is None:
            continue
        at = base + _ns(event.t)
        if message.get("method") == "notifications/cancelled":
            _cancelled(message, event.direction, at, pending)
            continue
        if isinstance(message.get("method"), str) and "id" in message:
            record = _start(len(records), message, event, at, common, session_id)
            opened = _Open(record, _xid(event), _progress_token(message))
            if event.direction == "in":
                record.parent = _parent_of(opened, message, pending)
            else:
                params = message.get("params")
                opened.params = params if isinstance(params, dict) else {}
                rounds.request(record, opened.params)
            records.append(record)
            pending[(event.direction, _id_text(message["id"]))] = opened
        elif "id" in message and ("result" in message or "error" in message):
            asked_by = "out" if event.direction == "in" else "in"
            found = pending.pop((asked_by, _id_text(message["id"])), None)
            if found is not None:
                _finish(found.record, message, event, at)
                if asked_by == "out":
                    rounds.answer(found, message)
    for opened in pending.values():
        record = opened.record
        record.end = max(record.start, base + _ns(last_t))
        record.attributes["mcp_inspector.response.missing"] = True
        record.attributes["error.type"] = "no_response"
        record.error = "no response in the recording"
    return _operations(records, rounds) if rounds.groups else records


# what a round has that its operation has not
_PER_ROUND = frozenset(
    {
        "jsonrpc.request.id",
        "mcp_inspector.request.size",
        "mcp_inspector.response.size",
        "mcp_inspector.response.missing",
        "error.type",
        "rpc.response.status_code",
    }
)


def _operations(records: list[SpanRecord], rounds: _Rounds) -> list[SpanRecord]:
    """The records with each MRTR operation's parent span before its first round, its
    rounds as children, and the user's waits between them (see the module's docstring)."""
    next_index = len(records)
    parent_of_first: dict[int, SpanRecord] = {}
    extra_after: dict[int, list[SpanRecord]] = {}
    for first, members in rounds.groups.items():
        spans = [records[i] for i in members]
        head = spans[0]
        parent = SpanRecord(
            index=next_index,
            name=head.name,
            kind="client",
            start=head.start,
            end=max(s.end for s in spans),
            attributes={k: v for k, v in head.attributes.items() if k not in _PER_ROUND},
            error=spans[-1].error,
        )
        next_index += 1
        server = user = 0
        for number, (span, following) in enumerate(zip(spans, [*spans[1:], None], strict=True), 1):
            span.parent = parent.index
            span.attributes["mcp_inspector.round"] = number
            server += span.end - span.start
            if following is None:
                continue
            wait_start, wait_end = span.end, max(span.end, following.start)
            user += wait_end - wait_start
            target = head.name.partition(" ")[2]
            wait = SpanRecord(
                index=next_index,
                name=f"user input {target}".rstrip(),
                kind="internal",
                start=wait_start,
                end=wait_end,
                attributes={"mcp_inspector.input.keys": rounds.asked.get(span.index, "")},
                parent=parent.index,
            )
            next_index += 1
            extra_after.setdefault(span.index, []).append(wait)
        parent.attributes["mcp_inspector.operation.rounds"] = len(spans)
        parent.attributes["mcp_inspector.operation.server_time"] = server / 1e9
        parent.attributes["mcp_inspector.operation.user_time"] = user / 1e9
        for key in ("error.type", "rpc.response.status_code"):
            if key in spans[-1].attributes:
                parent.attributes[key] = spans[-1].attributes[key]
        parent_of_first[first] = parent
    out: list[SpanRecord] = []
    for record in records:
        operation = parent_of_first.get(record.index)
        if operation is not None:
            out.append(operation)
        out.append(record)
        out.extend(extra_after.get(record.index, ()))
    return out


def session_resource(recorded: RecordedSession) -> dict[str, str]:
    """The OpenTelemetry resource: the client that made the session (its `service.name`;
    a tap's header names none) and the server it talked to."""
    resource = {"service.name": "mcp-client"}
    client = recorded.header.get("client_info")
    if isinstance(client, dict) and isinstance(client.get("name"), str) and client["name"]:
        resource["service.name"] = client["name"]
        if isinstance(client.get("version"), str):
            resource["service.version"] = client["version"]
    server = (recorded.ready or {}).get("server_info")
    if isinstance(server, dict):
        for key in ("name", "version"):
            if isinstance(server.get(key), str):
                resource[f"mcp_inspector.server.{key}"] = server[key]
    return resource


def _cancel(event: RecordedEvent) -> bool:
    text = event.data.get("text")
    return isinstance(text, str) and '"notifications/cancelled"' in text


def _cancelled(
    message: dict[str, Any], direction: str, at: int, pending: dict[tuple[str, str], _Open]
) -> None:
    """A request its sender cancelled ends there, as failed with `error.type = cancelled`."""
    params = message.get("params")
    params = params if isinstance(params, dict) else {}
    if "requestId" not in params:
        return
    found = pending.pop((direction, _id_text(params["requestId"])), None)
    if found is None:
        return
    record = found.record
    record.end = max(record.start, at)
    record.attributes["error.type"] = "cancelled"
    reason = params.get("reason")
    record.error = f"cancelled: {reason}" if isinstance(reason, str) else "cancelled"


def _claim_exchange(event: RecordedEvent, pending: dict[tuple[str, str], _Open]) -> None:
    """A POST's `http` line follows the request frame it carried: give its xid to our newest
    request still without one, so an ask arriving on that POST's stream finds its call."""
    xid = event.data.get("xid")
    exchange = event.data.get("exchange")
    if not isinstance(xid, int) or not isinstance(exchange, dict):
        return
    if exchange.get("method") != "POST" or exchange.get("status") != 200:
        return  # a 202 carried a notification or a response: no answer comes on it
    if any(opened.xid == xid for opened in pending.values()):
        return
    waiting = [o for (d, _), o in pending.items() if d == "out" and o.xid is None]
    if waiting:
        max(waiting, key=lambda o: o.record.start).xid = xid


def _ns(seconds: float) -> int:
    return round(seconds * 1_000_000_000)


def _time_base(recorded: RecordedSession) -> int:
    """Unix time (ns) of the recording's t = 0: the first event's wall clock less its t (the
    durations then come from the monotonic t), else the header's `created`."""
    for event in recorded.events:
        wall = event.data.get("wall")
        if isinstance(wall, int | float) and not isinstance(wall, bool) and "t" in event.data:
            return _ns(float(wall)) - _ns(event.t)
    created = recorded.header.get("created")
    if isinstance(created, str):
        try:
            return _ns(datetime.fromisoformat(created).timestamp())
        except ValueError:
            pass
    return 0


def _common_attributes(recorded: RecordedSession) -> dict[str, str | int | float | bool]:
    attributes: dict[str, str | int | float | bool] = {
        "mcp_inspector.era": recorded.era,
        "mcp_inspector.session.file": recorded.path.name,
    }
    if recorded.protocol_version:
        attributes["mcp.protocol.version"] = recorded.protocol_version
    transport = recorded.connection.get("transport")
    if transport == "stdio":
        attributes["network.transport"] = "pipe"
    elif transport == "http":
        attributes["network.transport"] = "tcp"
        attributes["network.protocol.name"] = "http"
    return attributes


def _start(
    index: int,
    message: dict[str, Any],
    event: RecordedEvent,
    at: int,
    common: dict[str, str | int | float | bool],
    session_id: str | None,
) -> SpanRecord:
    method = message["method"]
    params = message.get("params")
    params = params if isinstance(params, dict) else {}
    attributes: dict[str, str | int | float | bool] = dict(common)
    attributes["mcp.method.name"] = method
    attributes["jsonrpc.request.id"] = _id_text(message["id"])
    version = message.get("jsonrpc")
    if isinstance(version, str) and version != "2.0":
        attributes["jsonrpc.protocol.version"] = version
    attributes["mcp_inspector.request.size"] = _size(event)
    if session_id:
        attributes["mcp.session.id"] = session_id
    target = None
    name = params.get("name")
    if method in _TOOL_METHODS and isinstance(name, str):
        attributes["gen_ai.tool.name"] = name
        attributes["gen_ai.operation.name"] = "execute_tool"
        target = name
    elif method in _PROMPT_METHODS and isinstance(name, str):
        attributes["gen_ai.prompt.name"] = name
        target = name
    uri = params.get("uri")
    if method in _RESOURCE_METHODS and isinstance(uri, str):
        attributes["mcp.resource.uri"] = uri
    return SpanRecord(
        index=index,
        name=f"{method} {target}" if target else method,
        kind="client" if event.direction == "out" else "server",
        start=at,
        end=at,
        attributes=attributes,
    )


def _finish(record: SpanRecord, message: dict[str, Any], event: RecordedEvent, at: int) -> None:
    record.end = max(record.start, at)
    record.attributes["mcp_inspector.response.size"] = _size(event)
    error = message.get("error")
    if "error" in message:
        code = error.get("code") if isinstance(error, dict) else None
        text = error.get("message") if isinstance(error, dict) else None
        code_text = str(code) if isinstance(code, int | str) and not isinstance(code, bool) else ""
        record.attributes["error.type"] = code_text or "_OTHER"
        if code_text:
            record.attributes["rpc.response.status_code"] = code_text
        record.error = text if isinstance(text, str) else "JSON-RPC error"
        return
    result = message.get("result")
    if isinstance(result, dict) and result.get("isError") is True:
        record.attributes["error.type"] = "tool_error"
        record.error = _tool_error_text(result)


def _tool_error_text(result: dict[str, Any]) -> str:
    content = result.get("content")
    if isinstance(content, list):
        for block in content:
            if isinstance(block, dict) and isinstance(block.get("text"), str):
                return str(block["text"])[:500]
    return "the tool reported an error (isError)"


def _parent_of(
    ask: _Open, message: dict[str, Any], pending: dict[tuple[str, str], _Open]
) -> int | None:
    """The call of ours a server request came in during (see the module's docstring)."""
    ours = [opened for (direction, _), opened in pending.items() if direction == "out"]
    if not ours:
        return None
    if ask.xid is not None:
        for opened in ours:
            if opened.xid == ask.xid:
                return opened.record.index
    if ask.progress_token is not None:
        for opened in ours:
            if opened.progress_token == ask.progress_token:
                return opened.record.index
    calls = [o for o in ours if o.record.attributes.get("mcp.method.name") == "tools/call"]
    newest = max(calls or ours, key=lambda o: o.record.start)
    return newest.record.index


def _message(event: RecordedEvent) -> dict[str, Any] | None:
    raw = event.raw
    if event.data.get("truncated"):
        return _truncated_head(raw)
    try:
        value = json.loads(raw)
    except (ValueError, TypeError):
        return None
    return value if isinstance(value, dict) else None


def _truncated_head(raw: str | bytes) -> dict[str, Any] | None:
    """A frame cut at the size limit is not JSON; its id and method are still at its head
    in the common case (`{"jsonrpc":"2.0","id":3,"result":...`), read without parsing."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    head: dict[str, Any] = {}
    decoder = json.JSONDecoder()
    for key in ("id", "method"):
        marker = f'"{key}":'
        at = text.find(marker, 0, 200)
        if at < 0:
            continue
        try:
            head[key], _ = decoder.raw_decode(text, at + len(marker))
        except ValueError:
            continue
    if "id" in head and "method" not in head:
        head["result"] = None
    return head or None


def _size(event: RecordedEvent) -> int:
    size = event.data.get("size")
    if isinstance(size, int) and not isinstance(size, bool):
        return size
    if "b64" in event.data:
        try:
            return len(base64.b64decode(event.data["b64"]))
        except (ValueError, TypeError):
            return 0
    text = event.data.get("text", "")
    return len(text.encode("utf-8", "surrogatepass")) if isinstance(text, str) else 0


def _xid(event: RecordedEvent) -> int | None:
    via = event.data.get("via")
    xid = via.get("xid") if isinstance(via, dict) else None
    return xid if isinstance(xid, int) and not isinstance(xid, bool) else None


def _progress_token(message: dict[str, Any]) -> str | None:
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    token = meta.get("progressToken") if isinstance(meta, dict) else None
    return None if token is None else _id_text(token)


def _id_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _session_id(event: RecordedEvent) -> str | None:
    exchange = event.data.get("exchange")
    if not isinstance(exchange, dict):
        return None
    for headers_key in ("response_headers", "request_headers"):
        headers = exchange.get(headers_key)
        if isinstance(headers, dict):
            for name, value in headers.items():
                if isinstance(name, str) and name.lower() == "mcp-session-id":
                    return str(value) if value else None
    return None
