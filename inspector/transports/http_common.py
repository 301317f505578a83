"""What the HTTP transports share: parameters, header redaction, exchange reports, limits."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Final

import httpx

from inspector.transports.base import (
    DEFAULT_MAX_MESSAGE_BYTES,
    FrameReceived,
    HttpExchange,
)
from inspector.transports.redact import REDACTED, redact_headers, redact_url
from inspector.transports.sse import SseEvent
from inspector.transports.url_check import check_url

__all__ = [
    "MODERN_ERROR_CODES",
    "REDACTED",
    "HttpParams",
    "check_url",
    "describe_http_error",
    "exchange_of",
    "is_modern_error_body",
    "new_client",
    "redact_headers",
    "redact_url",
]

# Modern JSON-RPC errors a 2026-07-28 server returns with HTTP 4xx (spec 2026-07-28
# streamable-http "Backward Compatibility": unsupported version, missing client capability,
# header mismatch, unknown method). Such a body means "modern server", not "old server,
# fall back". -32600/-32602 are not on the list: servers of every era send them.
MODERN_ERROR_CODES: Final = frozenset({-32022, -32021, -32020, -32601})


@dataclass
class HttpParams:
    url: str
    headers: dict[str, str] = field(default_factory=dict)  # custom, e.g. Authorization
    secret_headers: frozenset[str] = frozenset()  # extra names to redact (lower case)
    connect_timeout: float = 10.0
    max_body_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    max_event_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    open_get_stream: bool = True  # legacy: the optional GET stream for server messages
    max_resume_attempts: int = 5
    default_retry_ms: int = 1000
    client: httpx.AsyncClient | None = None  # injectable (tests pass a MockTransport client)
    auth: httpx.Auth | None = None  # e.g. inspector.auth.OAuth: applied to every request


def new_client(params: HttpParams) -> httpx.AsyncClient:
    """One client per connection. No read timeout: SSE streams live long, and the protocol
    core owns request timeouts. Redirects are shown, never followed."""
    return httpx.AsyncClient(
        timeout=httpx.Timeout(connect=params.connect_timeout, read=None, write=30.0, pool=30.0),
        follow_redirects=False,
        auth=params.auth,
    )


def exchange_of(
    request: httpx.Request,
    response: httpx.Response | None,
    secret: frozenset[str],
    note: str | None = None,
    body_excerpt: str | None = None,
    problem: bool | None = None,
) -> HttpExchange:
    return HttpExchange(
        method=request.method,
        url=redact_url(str(request.url)),
        status=response.status_code if response is not None else None,
        request_headers=redact_headers(request.headers, secret),
        response_headers=redact_headers(response.headers, secret) if response is not None else {},
        content_type=response.headers.get("content-type") if response is not None else None,
        note=note,
        body_excerpt=body_excerpt,
        problem=problem,
    )


def is_modern_error_body(body: str) -> bool:
    """Is this HTTP error body a JSON-RPC error a modern server would send?"""
    try:
        value = json.loads(body)
    except ValueError:
        return False
    if not isinstance(value, dict) or not isinstance(value.get("error"), dict):
        return False
    code = value["error"].get("code")
    return isinstance(code, int) and not isinstance(code, bool) and code in MODERN_ERROR_CODES


def describe_http_error(exc: httpx.HTTPError, url: str) -> str:
    url = redact_url(url)
    if isinstance(exc, httpx.ConnectError):
        return f"cannot connect to {url}: {exc or 'connection refused'}"
    if isinstance(exc, httpx.ConnectTimeout):
        return f"connecting to {url} timed out"
    if isinstance(exc, httpx.RemoteProtocolError):
        return f"the server broke the HTTP connection: {exc}"
    if isinstance(exc, httpx.ReadError):
        return f"reading from the server failed: {exc or type(exc).__name__}"
    return f"HTTP error: {type(exc).__name__}: {exc}"


def sse_frame(event: SseEvent, exchange: HttpExchange) -> FrameReceived:
    """The frame an SSE event carries, with the exchange it came on and its event id."""
    return FrameReceived(
        event.data,
        event.size or len(event.data),
        event.truncated,
        http=exchange,
        sse_event_id=event.id,
    )
