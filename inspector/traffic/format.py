"""Text for the traffic log: row summaries, detail views and "copy as CLI command".

Qt-free, so the formatting is tested without widgets. Everything here returns plain
strings; the Qt layer shows them as plain text only (server text is untrusted).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from typing import Any, Final
from urllib.parse import urlsplit

from inspector.protocol.wire.jsonrpc import (
    ErrorResponse,
    Invalid,
    Notification,
    Request,
    error_name,
)
from inspector.traffic.cli_methods import CLI_METHODS
from inspector.traffic.log import TrafficEntry

__all__ = [
    "DIRECTION_ARROWS",
    "cli_command",
    "detail_text",
    "hexdump",
    "summarize",
]

DIRECTION_ARROWS: Final = {
    "out": "→",
    "in": "←",
    "": "",
    "from-app": "app→",  # an MCP App's message to the host (features/mcp_apps)
    "to-app": "→app",  # the host's message to the app
}
_SUMMARY_LIMIT: Final = 200
_PARSE_LIMIT: Final = 256 * 1024  # bigger frames are summarized without parsing
_CLI_METHODS: Final = frozenset(CLI_METHODS)


def _compact(value: Any, limit: int = _SUMMARY_LIMIT) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _one_line(text: str, limit: int = _SUMMARY_LIMIT) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _model_summary(entry: TrafficEntry) -> str:
    """A model exchange's row (inspector/features/providers/rows.py): where it went, or what
    came back; the note (set only when it failed) says why."""
    try:
        data = json.loads(entry.text()) if len(entry.raw) <= _PARSE_LIMIT else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return _one_line(entry.note or f"{entry.size:,} bytes")
    if "url" in data:
        body = data.get("body")
        model = body.get("model", "?") if isinstance(body, dict) else "?"
        return _one_line(f"to {model}: POST {data['url']}")
    if "status" in data:
        text = f"HTTP {data['status']}, {data.get('latencyMs', '?')} ms"
        body = data.get("body")
        if isinstance(body, dict) and isinstance(body.get("model"), str):
            text = f"from {body['model']}: {text}"
        return _one_line(f"{text}: {entry.note}" if entry.note else text)
    return _one_line(entry.note or entry.text())


def summarize(entry: TrafficEntry) -> str:
    """One line for the log's summary column."""
    kind = entry.kind
    exchange = entry.http if kind == "http" else None
    if exchange is not None:
        path = urlsplit(exchange.url).path or exchange.url
        text = f"{exchange.method} {path} → {exchange.status if exchange.status else 'no answer'}"
        if exchange.content_type:
            text += f" ({exchange.content_type})"
        return _one_line(f"{text}: {exchange.note}" if exchange.note else text)
    if kind == "model":
        return _model_summary(entry)
    if kind in ("stderr", "http", "note"):
        text = _one_line(entry.text())
        return f"{text} ({entry.note})" if kind == "note" and entry.note else text
    if len(entry.raw) > _PARSE_LIMIT:
        head = f"{entry.size:,} bytes"
        return f"{head}: {entry.note}" if entry.note else head
    frame = entry.parse()
    if isinstance(frame, Invalid):
        shown = frame.raw if isinstance(frame.raw, str) else repr(frame.raw)
        return _one_line(f"{entry.note or frame.reason}: {shown}")
    if isinstance(frame, Request):
        return _request_summary(frame.method, frame.params or {})
    if isinstance(frame, Notification):
        return _notification_summary(frame.method, frame.params or {})
    if isinstance(frame, ErrorResponse):
        text = f"{frame.code} {error_name(frame.code)}: {frame.message}"
        return _one_line(f"{text} ({entry.note})" if entry.note else text)
    text = _result_summary(frame.result)
    return _one_line(f"{text} ({entry.note})" if entry.note else text)


def _request_summary(method: str, params: dict[str, Any]) -> str:
    if method == "tools/call":
        return _one_line(f"{params.get('name')} {_compact(params.get('arguments', {}))}")
    if method in ("resources/read", "resources/subscribe", "resources/unsubscribe"):
        return _one_line(str(params.get("uri")))
    if method == "prompts/get":
        return _one_line(f"{params.get('name')} {_compact(params.get('arguments', {}))}")
    if method == "initialize":
        info = params.get("clientInfo") or {}
        name = info.get("name") if isinstance(info, dict) else None
        return f"protocol {params.get('protocolVersion')} from {name}"
    shown = {k: v for k, v in params.items() if k != "_meta"}
    return _compact(shown) if shown else ""


def _notification_summary(method: str, params: dict[str, Any]) -> str:
    if method == "notifications/message":
        logger = params.get("logger")
        data = params.get("data")
        text = data if isinstance(data, str) else _compact(data)
        prefix = f"[{params.get('level')}]" + (f" {logger}:" if logger else "")
        return _one_line(f"{prefix} {text}")
    if method == "notifications/progress":
        total = params.get("total")
        amount = f"{params.get('progress')}" + (f"/{total}" if total is not None else "")
        message = params.get("message")
        return _one_line(f"{amount} {message}" if message else amount)
    if method == "notifications/cancelled":
        return _one_line(f"request {params.get('requestId')!r}: {params.get('reason') or ''}")
    shown = {k: v for k, v in params.items() if k != "_meta"}
    return _compact(shown) if shown else ""


def _result_summary(result: dict[str, Any]) -> str:
    if result.get("resultType") == "input_required":
        asks = result.get("inputRequests") or {}
        return f"input required: {', '.join(map(str, asks)) or '(none)'}"
    for key in ("tools", "resources", "resourceTemplates", "prompts", "roots"):
        value = result.get(key)
        if isinstance(value, list):
            names = [str(v.get("name") or v.get("uri")) for v in value[:5] if isinstance(v, dict)]
            more = "…" if len(value) > 5 else ""
            return _one_line(f"{len(value)} {key}: {', '.join(names)}{more}")
    if "serverInfo" in result:
        info = result.get("serverInfo") or {}
        name = info.get("name") if isinstance(info, dict) else info
        return f"{name}, protocol {result.get('protocolVersion')}"
    content = result.get("content")
    if isinstance(content, list):
        parts = []
        for item in content[:3]:
            if isinstance(item, dict):
                if item.get("type") == "text":
                    parts.append(repr(str(item.get("text", ""))))
                else:
                    parts.append(str(item.get("type")))
        error = "isError " if result.get("isError") else ""
        return _one_line(f"{error}{' '.join(parts)}")
    shown = {k: v for k, v in result.items() if k != "_meta"}
    return _compact(shown) if shown else "{}"


def hexdump(data: bytes, limit: int = 64 * 1024) -> str:
    """Classic 16-bytes-a-line dump; invalid frames show exactly what came in."""
    lines = []
    for offset in range(0, min(len(data), limit), 16):
        chunk = data[offset : offset + 16]
        hexes = " ".join(f"{b:02x}" for b in chunk)
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        lines.append(f"{offset:08x}  {hexes:<47}  {text}")
    if len(data) > limit:
        lines.append(f"… {len(data) - limit:,} more bytes")
    return "\n".join(lines)


def detail_text(entry: TrafficEntry) -> str:
    """The "Details" view: what the row is, what is wrong with it, transport facts."""
    lines = [
        f"#{entry.index}  {entry.kind}  {DIRECTION_ARROWS.get(entry.direction, '')}",
        f"size: {entry.size:,} bytes"
        + (" (truncated: only the head was kept)" if entry.truncated else ""),
    ]
    if entry.method:
        lines.append(f"method: {entry.method}")
    if entry.msg_id is not None:
        lines.append(f"id: {entry.msg_id!r}")
    if entry.latency is not None:
        lines.append(f"latency: {entry.latency * 1000:.1f} ms")
    if entry.pair >= 0:
        lines.append(f"paired with: #{entry.pair}")
    if entry.note:
        lines.append(f"note: {entry.note}")
    if entry.kind == "invalid":
        frame = entry.parse()
        if isinstance(frame, Invalid):
            lines.append(f"parse error: {frame.reason}")
        raw = entry.raw if isinstance(entry.raw, bytes) else entry.raw.encode("utf-8")
        lines += ["", "raw bytes:", hexdump(raw)]
    exchange = entry.http
    sse_id = entry.extra.get("sse_event_id") if entry.extra else None
    if exchange is not None:
        lines += ["", f"HTTP {exchange.method} {exchange.url}", f"status: {exchange.status}"]
        if exchange.content_type:
            lines.append(f"content-type: {exchange.content_type}")
        if exchange.request_headers:
            lines.append("request headers:")
            lines += [f"  {k}: {v}" for k, v in exchange.request_headers.items()]
        if exchange.response_headers:
            lines.append("response headers:")
            lines += [f"  {k}: {v}" for k, v in exchange.response_headers.items()]
        if exchange.note:
            lines.append(f"note: {exchange.note}")
        if exchange.body_excerpt:
            lines += ["body:", exchange.body_excerpt]
    if sse_id is not None:
        lines.append(f"SSE event id: {sse_id}")
    return "\n".join(lines)


def cli_command(
    entry: TrafficEntry,
    target: Sequence[str] | None = None,
    *,
    url: str | None = None,
    era: str = "legacy",
) -> str | None:
    """A shell command that re-sends this request with the headless CLI, or None."""
    if entry.kind != "request" or entry.direction != "out":
        return None
    frame = entry.parse()
    if not isinstance(frame, Request) or frame.method not in _CLI_METHODS:
        return None
    params = {k: v for k, v in (frame.params or {}).items() if k != "_meta"}
    args = ["mcp-inspector-qt", "cli", "--method", frame.method]
    method = frame.method
    if method == "tools/call":
        args += ["--tool-name", str(params.get("name", ""))]
        arguments = params.get("arguments")
        if arguments:
            args += ["--tool-args-json", json.dumps(arguments, ensure_ascii=False)]
    elif method == "resources/read":
        args += ["--uri", str(params.get("uri", ""))]
    elif method == "prompts/get":
        args += ["--prompt-name", str(params.get("name", ""))]
        for key, value in (params.get("arguments") or {}).items():
            args += ["--prompt-args", f"{key}={value}"]
    elif method == "completion/complete":
        ref = params.get("ref") or {}
        if ref.get("type") == "ref/prompt":
            args += ["--prompt-name", str(ref.get("name", ""))]
        else:
            args += ["--uri-template", str(ref.get("uri", ""))]
        argument = params.get("argument") or {}
        args += ["--argument-name", str(argument.get("name", ""))]
        args += ["--argument-value", str(argument.get("value", ""))]
        for key, value in ((params.get("context") or {}).get("arguments") or {}).items():
            args += ["--context-arg", f"{key}={value}"]
    elif method == "logging/setLevel":
        args += ["--log-level", str(params.get("level", "info"))]
    if era != "legacy" or method == "server/discover":
        args += ["--era", "modern" if era == "legacy" else era]
    if url:
        args += ["--url", url]
        return shlex.join(args)
    if target:
        return shlex.join([*args, "--", *target])
    return shlex.join([*args, "--", "SERVER-COMMAND"])
