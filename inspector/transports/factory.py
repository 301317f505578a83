"""Build the right HTTP transport for a URL, including the auto-detect between streamable
HTTP and the deprecated HTTP+SSE transport.

spec 2026-07-28 streamable-http "Backward Compatibility": POST to the URL first; a 400,
404 or 405 whose body is not a recognised modern JSON-RPC error means an HTTP+SSE server:
GET the URL and expect an `endpoint` event.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from dataclasses import replace
from typing import Final, Literal

import httpx

from inspector.transports.base import (
    DEFAULT_MAX_MESSAGE_BYTES,
    DeliveryFailed,
    HttpExchange,
    Outgoing,
    Transport,
    TransportError,
    TransportEvent,
)
from inspector.transports.http_bodies import json_rpc_error
from inspector.transports.http_common import HttpParams, is_modern_error_body
from inspector.transports.legacy_sse import LegacySseTransport
from inspector.transports.streamable_http import StreamableHttpTransport

__all__ = ["AutoHttpTransport", "HttpKind", "http_transport"]

log = logging.getLogger(__name__)

HttpKind = Literal["auto", "streamable-http", "sse"]
_FALLBACK_STATUSES: Final = frozenset({400, 404, 405})


def http_transport(
    url: str,
    *,
    kind: HttpKind = "auto",
    headers: Mapping[str, str] | None = None,
    secret_headers: frozenset[str] = frozenset(),
    client: httpx.AsyncClient | None = None,
    auth: httpx.Auth | None = None,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
) -> Transport:
    """`auth` (e.g. `inspector.auth.OAuth`) is applied to every request of the connection;
    its DPoP proofs are redacted from exchange reports like the Authorization header."""
    secret = frozenset(h.lower() for h in secret_headers)
    if auth is not None:
        secret |= {"dpop"}
        if client is not None:
            client.auth = auth
    params = HttpParams(
        url,
        dict(headers or {}),
        secret,
        client=client,
        auth=auth,
        max_body_bytes=max_message_bytes,
        max_event_bytes=max_message_bytes,
    )
    if kind == "streamable-http":
        return StreamableHttpTransport(params)
    if kind == "sse":
        return LegacySseTransport(params)
    return AutoHttpTransport(params)


class AutoHttpTransport(Transport):
    """Streamable HTTP first; switches to HTTP+SSE when the first request is refused the
    way an old server refuses it, and re-sends that request there."""

    def __init__(self, params: HttpParams) -> None:
        self.params = params
        self.inner: Transport = StreamableHttpTransport(params)
        self.decided = False
        self._first: tuple[str, Outgoing] | None = None
        self.switch_note: str | None = None
        self._not_sse: str | None = None  # why HTTP+SSE failed too, for the first request

    @property
    def kind(self) -> str:  # type: ignore[override]
        return self.inner.kind

    @property
    def description(self) -> str:
        return self.inner.description

    async def start(self) -> None:
        await self.inner.start()

    async def send(self, text: str, *, info: Outgoing | None = None) -> None:
        if not self.decided and self._first is None and info is not None and info.kind == "request":
            self._first = (text, info)
        await self.inner.send(text, info=info)

    async def close(self) -> None:
        await self.inner.close()

    async def events(self) -> AsyncIterator[TransportEvent]:
        while True:
            switched = False
            async for event in self.inner.events():
                if not self.decided and isinstance(event, HttpExchange) and event.method == "POST":
                    # The answer to the first POST decides (its exchange comes before the
                    # frames and failures it carried).
                    if self._probe_answered_with_an_error(event):
                        self._first = None  # the next request (initialize) decides
                        yield event
                        continue
                    if not self._refused_like_an_old_server(event):
                        self.decided = True
                        yield event
                        continue
                    yield event
                    failure = await self._switch(event)
                    if failure is None:
                        switched = True
                        break
                    # Not HTTP+SSE either: carry on with streamable HTTP, whose error
                    # (frames, DeliveryFailed) follows, so the request fails with it.
                    yield failure
                    continue
                if isinstance(event, DeliveryFailed):
                    event = self._with_sse_reason(event)
                yield event
            if not switched:
                return
            yield HttpExchange(
                "POST", self.params.url, None, note=self.switch_note or "auto-detect: switched"
            )

    def _with_sse_reason(self, failed: DeliveryFailed) -> DeliveryFailed:
        """The first request's failure says both attempts: the HTTP+SSE reason is often the
        real one (a cross-origin endpoint); the POST's refusal alone misleads."""
        first = self._first
        if self._not_sse is None or first is None or failed.wire_id != first[1].wire_id:
            return failed
        return replace(failed, reason=f"{failed.reason}; and as HTTP+SSE: {self._not_sse}")

    def _refused_like_an_old_server(self, exchange: HttpExchange) -> bool:
        """spec 2026-07-28 "Backward Compatibility": 400, 404 or 405 whose body is not a
        recognised modern JSON-RPC error."""
        if self._first is None or exchange.status not in _FALLBACK_STATUSES:
            return False
        return not is_modern_error_body(exchange.body_excerpt or "")

    def _probe_answered_with_an_error(self, exchange: HttpExchange) -> bool:
        """The auto era's server/discover answered 4xx with a JSON-RPC error (a 2025
        server's "Bad Request", id null): that error is the probe's answer, and the session
        falls back to initialize at once. The transport is not decided yet: the initialize
        POST decides (an HTTP+SSE server refuses it too; a 2025 server answers it), so no
        HTTP+SSE GET is tried against a server that speaks streamable HTTP."""
        if self._first is None or self._first[1].method != "server/discover":
            return False
        if exchange.status not in _FALLBACK_STATUSES:
            return False
        return json_rpc_error(exchange.body_excerpt or "")[0] is not None

    async def _switch(self, refused: HttpExchange) -> TransportEvent | None:
        """Try HTTP+SSE. None on success; else an exchange note to show before the failure."""
        assert self._first is not None
        log.info(
            "streamable HTTP refused (%s); trying HTTP+SSE at %s", refused.status, self.params.url
        )
        old = self.inner
        # Keep the refused request visible, but don't DELETE a session that never existed.
        legacy = LegacySseTransport(self.params)
        try:
            await legacy.start()
        except TransportError as exc:
            self.decided = True
            self._not_sse = str(exc)
            return HttpExchange(
                "GET",
                self.params.url,
                None,
                note=f"auto-detect: not HTTP+SSE either ({exc})",
            )
        self.decided = True
        self.switch_note = (
            f"auto-detect: POST answered HTTP {refused.status}; using the HTTP+SSE transport "
            f"(endpoint {legacy.endpoint})"
        )
        self.inner = legacy
        await old.close()
        text, info = self._first
        await legacy.send(text, info=info)
        return None
