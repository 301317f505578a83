"""HAR 1.2 export of the HTTP exchanges in a session file.

Each `http` line becomes one entry. The response content is what the exchange carried:
the JSON-RPC frames of an `application/json` body or of an SSE stream (rebuilt as SSE
events with their ids), else the body excerpt the transport kept for an error. The
request body of a POST is the frame the client sent, matched by the id of the response
it got, else by the Content-Length header, else in order. The session file is already
redacted; header redaction is applied once more for files written by older versions.

HAR 1.2: http://www.softwareishard.com/blog/har-12-spec/
"""

from __future__ import annotations

import base64
import datetime as dt
import json
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any, Final
from urllib.parse import parse_qsl, urlsplit

from inspector import __version__
from inspector.recording.reader import RecordedEvent, RecordedSession
from inspector.transports.redact import redact_headers

__all__ = ["HAR_VERSION", "export_har"]

HAR_VERSION: Final = "1.2"
_HTTP_VERSION: Final = "HTTP/1.1"  # httpx speaks HTTP/1.1 unless told otherwise


@dataclass
class _Out:
    event: RecordedEvent
    body: bytes
    wire_id: Any
    claimed: bool = False


@dataclass
class _Exchange:
    event: RecordedEvent
    data: dict[str, Any]
    carried: list[RecordedEvent] = field(default_factory=list)


def _iso(wall: float) -> str:
    return dt.datetime.fromtimestamp(wall, dt.UTC).isoformat(timespec="milliseconds")


def _bytes_of(raw: str | bytes) -> bytes:
    return raw if isinstance(raw, bytes) else raw.encode("utf-8")


def _message(raw: str | bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(raw)
    except (ValueError, TypeError):
        return None
    return value if isinstance(value, dict) else None


def _wall(event: RecordedEvent) -> float:
    value = event.data.get("wall")
    return float(value) if isinstance(value, int | float) else 0.0


def _name_values(headers: Any) -> list[dict[str, str]]:
    if not isinstance(headers, dict):
        return []
    shown = redact_headers({str(k): str(v) for k, v in headers.items()})
    return [{"name": k, "value": v} for k, v in shown.items()]


def _header(headers: Any, name: str) -> str | None:
    if isinstance(headers, dict):
        for key, value in headers.items():
            if str(key).lower() == name:
                return str(value)
    return None


def _collect(recorded: RecordedSession) -> tuple[list[_Exchange], list[_Out]]:
    exchanges: list[_Exchange] = []
    by_xid: dict[Any, _Exchange] = {}
    outs: list[_Out] = []
    for event in recorded.events:
        if event.type == "http" and isinstance(event.data.get("exchange"), dict):
            exchange = _Exchange(event, event.data["exchange"])
            exchanges.append(exchange)
            if "xid" in event.data:
                by_xid[event.data["xid"]] = exchange
        elif event.type == "frame" and event.direction == "out":
            msg = _message(event.raw)
            outs.append(_Out(event, _bytes_of(event.raw), (msg or {}).get("id")))
        elif event.type == "frame" and isinstance(event.data.get("via"), dict):
            via = event.data["via"]
            target = by_xid.get(via.get("xid")) if "xid" in via else None
            if target is None:  # files without exchange numbers: the latest look-alike
                target = next(
                    (
                        x
                        for x in reversed(exchanges)
                        if "xid" not in x.event.data
                        and x.data.get("method") == via.get("method")
                        and x.data.get("url") == via.get("url")
                        and x.data.get("status") == via.get("status")
                    ),
                    None,
                )
            if target is not None:
                target.carried.append(event)
    return exchanges, outs


def _request_body(exchange: _Exchange, outs: list[_Out]) -> _Out | None:
    """The frame the client POSTed in this exchange, if it can be told."""
    if exchange.data.get("method") != "POST":
        return None
    before = [o for o in outs if not o.claimed and o.event.line_no < exchange.event.line_no]
    if not before:
        return None
    answered = [
        msg["id"]
        for frame in exchange.carried
        if (msg := _message(frame.raw)) is not None
        and "method" not in msg
        and ("result" in msg or "error" in msg)
        and msg.get("id") is not None
    ]
    chosen = None
    for wire_id in answered:
        chosen = next((o for o in reversed(before) if o.wire_id == wire_id), None)
        if chosen is not None:
            break
    length = _header(exchange.data.get("request_headers"), "content-length")
    if chosen is None and length is not None and length.isdigit():
        chosen = next((o for o in before if len(o.body) == int(length)), None)
    if chosen is None and length is None:
        chosen = before[0]
    if chosen is not None:
        chosen.claimed = True
    return chosen


def _content(exchange: _Exchange, mime: str) -> tuple[dict[str, Any], int]:
    """HAR `content` and the body size (-1 when unknown)."""
    frames = exchange.carried
    if not frames:
        excerpt = exchange.data.get("body_excerpt")
        if isinstance(excerpt, str) and excerpt:
            size = len(excerpt.encode("utf-8"))
            return {"size": size, "mimeType": mime, "text": excerpt}, size
        return {"size": 0, "mimeType": mime}, 0 if exchange.data.get("status") else -1
    chunks: list[bytes] = []
    size = 0
    for frame in frames:
        raw = _bytes_of(frame.raw)
        full = frame.data.get("size") if frame.data.get("truncated") else None
        size += full if isinstance(full, int) else len(raw)
        if mime.startswith("text/event-stream"):
            sse_id = frame.data.get("sse_id")
            event = f"id: {sse_id}\n".encode() if sse_id is not None else b""
            event += b"".join(b"data: " + line + b"\n" for line in raw.split(b"\n"))
            chunks.append(event + b"\n")
        else:
            chunks.append(raw)
    body = b"".join(chunks)
    content: dict[str, Any] = {"size": max(size, len(body)), "mimeType": mime}
    try:
        content["text"] = body.decode("utf-8")
    except UnicodeDecodeError:
        content["text"] = base64.b64encode(body).decode("ascii")
        content["encoding"] = "base64"
    if any(f.data.get("truncated") for f in frames):
        content["comment"] = "a frame exceeded the size limit; only its head was recorded"
    return content, len(body)


def _entry(exchange: _Exchange, sent: _Out | None) -> dict[str, Any]:
    data = exchange.data
    url = str(data.get("url", ""))
    status = data.get("status")
    request_headers = data.get("request_headers")
    response_headers = data.get("response_headers")
    mime = str(data.get("content_type") or _header(response_headers, "content-type") or "")
    content, body_size = _content(exchange, mime)

    request: dict[str, Any] = {
        "method": str(data.get("method", "")),
        "url": url,
        "httpVersion": _HTTP_VERSION,
        "cookies": [],
        "headers": _name_values(request_headers),
        "queryString": [
            {"name": k, "value": v}
            for k, v in parse_qsl(urlsplit(url).query, keep_blank_values=True)
        ],
        "headersSize": -1,
        "bodySize": 0,
    }
    length = _header(request_headers, "content-length")
    if sent is not None:
        request["bodySize"] = len(sent.body)
        post = {"mimeType": _header(request_headers, "content-type") or "application/json"}
        try:
            post["text"] = sent.body.decode("utf-8")
        except UnicodeDecodeError:
            post["text"] = sent.body.decode("utf-8", "replace")
        request["postData"] = post
    elif length is not None and length.isdigit():
        request["bodySize"] = int(length)

    answered = isinstance(status, int)
    response: dict[str, Any] = {
        "status": status if isinstance(status, int) else 0,
        "statusText": _status_text(status) if isinstance(status, int) else "",
        "httpVersion": _HTTP_VERSION if answered else "",
        "cookies": [],
        "headers": _name_values(response_headers),
        "content": content,
        "redirectURL": _header(response_headers, "location") or "",
        "headersSize": -1,
        "bodySize": body_size,
    }
    note = data.get("note") or exchange.event.data.get("note")
    if not answered:
        response["_error"] = str(note or "no response")

    start = sent.event if sent is not None else exchange.event
    wait = max(0.0, exchange.event.t - start.t) * 1000
    last = max((f.t for f in exchange.carried), default=exchange.event.t)
    receive = max(0.0, last - exchange.event.t) * 1000
    entry: dict[str, Any] = {
        "startedDateTime": _iso(_wall(start)),
        "time": round(wait + receive, 3),
        "request": request,
        "response": response,
        "cache": {},
        "timings": {
            "blocked": -1,
            "dns": -1,
            "connect": -1,
            "ssl": -1,
            "send": 0,
            "wait": round(wait, 3),
            "receive": round(receive, 3),
        },
    }
    if note:
        entry["comment"] = str(note)
    sse_ids = [f.data["sse_id"] for f in exchange.carried if f.data.get("sse_id") is not None]
    if sse_ids:
        entry["_sseEventIds"] = sse_ids
    return entry


def _status_text(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


def export_har(recorded: RecordedSession) -> dict[str, Any]:
    """The HTTP exchanges of `recorded` as a HAR 1.2 document (a JSON-ready dict).

    A stdio session has no HTTP exchanges: its log has no entries."""
    exchanges, outs = _collect(recorded)
    entries = [_entry(x, _request_body(x, outs)) for x in exchanges]
    entries.sort(key=lambda e: str(e["startedDateTime"]))
    connection = recorded.connection
    where = connection.get("url") or connection.get("command") or "?"
    comment = (
        f"MCP session recorded {recorded.header.get('created', '?')} against {where} "
        f"({recorded.era} era), exported from {recorded.path.name}"
    )
    return {
        "log": {
            "version": HAR_VERSION,
            "creator": {"name": "MCP Inspector (Qt)", "version": __version__},
            "entries": entries,
            "comment": comment,
        }
    }
