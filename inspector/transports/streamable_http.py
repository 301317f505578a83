"""Streamable HTTP, for both eras, over one `httpx.AsyncClient` per connection.

Legacy (2025-03-26 … 2025-11-25): Mcp-Session-Id from the initialize response on every
later request, MCP-Protocol-Version after initialize, an optional GET stream for the
server's own messages (405 = not offered), Last-Event-ID resumption of a broken SSE
stream honouring `retry:`, and DELETE on close (405 is fine).

Modern (2026-07-28): no session, no GET stream; the request metadata headers come from
the session in `Outgoing.headers`; cancelling a request closes its response stream
(spec: that *is* the cancellation); a stream that breaks before its answer is reported
as `StreamLost`, and the session re-sends the request under a new id.

Every HTTP request/response pair is reported as an `HttpExchange` (headers redacted),
next to the frames it carried.

This module is the connection: the POSTs, the per-era headers, the legacy session (its
expiry, its DELETE). Reading the SSE streams, resuming them and the GET stream are
`streamable_sse.SseStreams`'; what a body says is `http_bodies`'.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Coroutine
from typing import Any, Final

import httpx

from inspector.transports.base import (
    DeliveryFailed,
    FrameReceived,
    Outgoing,
    SessionExpired,
    Transport,
    TransportClosed,
    TransportClosedError,
    TransportEvent,
    until_closed,
)
from inspector.transports.http_bodies import (
    answers,
    as_text,
    content_type,
    json_rpc_error,
    read_body,
)
from inspector.transports.http_common import (
    HttpParams,
    check_url,
    describe_http_error,
    exchange_of,
    new_client,
)
from inspector.transports.streamable_sse import EVENT_STREAM, SseStreams

__all__ = ["StreamableHttpTransport"]

# How a refused session id is named (the `check` battery reports it as its failed check).
SESSION_ID_REFUSED: Final = "holds characters outside visible ASCII (0x21 to 0x7E)"

log = logging.getLogger(__name__)

_ACCEPT: Final = f"application/json, {EVENT_STREAM}"
_SIMPLE_BODY_WAIT: Final = 5.0  # seconds to read the body of a 202-expected answer


def _visible_ascii(value: str) -> bool:
    return bool(value) and all("\x21" <= c <= "\x7e" for c in value)


class StreamableHttpTransport(Transport):
    kind = "http"

    def __init__(self, params: HttpParams) -> None:
        self.params = params
        self.session_id: str | None = None
        self._legacy_version: str | None = None
        self._client: httpx.AsyncClient | None = params.client
        self._own_client = params.client is None
        self._queue: asyncio.Queue[TransportEvent] = asyncio.Queue(maxsize=10_000)
        self._requests: dict[str | int, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._get_task: asyncio.Task[None] | None = None
        self._streams: SseStreams | None = None  # made with the client, on first use
        self._closing = False
        self._closed_sent = False
        self._secret = frozenset(h.lower() for h in params.secret_headers)

    @property
    def description(self) -> str:
        return self.params.url

    # ------------------------------------------------------------------ API
    async def start(self) -> None:
        check_url(self.params.url)
        if self._client is None:
            self._client = new_client(self.params)

    async def send(self, text: str, *, info: Outgoing | None = None) -> None:
        if self._closing or self._client is None:
            raise TransportClosedError("the HTTP connection is closed")
        info = info or Outgoing(kind="notification")
        if info.method == "notifications/cancelled" and info.cancels is not None:
            task = self._requests.get(info.cancels)
            if info.era == "modern":
                # spec 2026-07-28: closing the response stream is the cancellation;
                # no notifications/cancelled goes over HTTP.
                if task is not None:
                    task.cancel()
                return
            await self._post_simple(text, info)
            if task is not None:
                task.cancel()
            return
        if info.kind == "request" and info.wire_id is not None:
            wire_id = info.wire_id
            task = asyncio.create_task(self._post_request(text, info), name=f"post-{wire_id}")
            self._requests[wire_id] = task

            def forget(_task: asyncio.Task[None]) -> None:
                if self._requests.get(wire_id) is _task:
                    del self._requests[wire_id]

            task.add_done_callback(forget)
            return
        await self._post_simple(text, info)
        if (
            info.era == "legacy"
            and info.method == "notifications/initialized"
            and self.params.open_get_stream
            and self._get_task is None
        ):
            self._legacy_version = info.protocol_version
            get_info = Outgoing(
                kind="request", era="legacy", protocol_version=info.protocol_version
            )
            self._get_task = asyncio.create_task(
                self._sse().run_get_stream(get_info), name="http-get-stream"
            )

    def events(self) -> AsyncIterator[TransportEvent]:
        return until_closed(self._queue)

    async def close(self) -> None:
        if self._closing:
            return
        self._closing = True
        tasks = [*self._requests.values(), *self._background]
        if self._get_task is not None:
            tasks.append(self._get_task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 2.0)
        if self.session_id is not None and self._client is not None:
            await self._delete_session()
        if self._own_client and self._client is not None:
            await self._client.aclose()
        await self._emit_closed("the HTTP connection was closed")

    # ------------------------------------------------------------- plumbing
    def _is_closing(self) -> bool:
        return self._closing

    async def _emit(self, event: TransportEvent) -> None:
        await self._queue.put(event)

    async def _emit_closed(self, reason: str, *, error: bool = False) -> None:
        if self._closed_sent:
            return
        self._closed_sent = True
        await self._queue.put(TransportClosed(reason, error=error))

    def _sse(self) -> SseStreams:
        if self._streams is None:
            assert self._client is not None
            self._streams = SseStreams(
                self._client,
                self.params,
                headers_for=self._headers,
                emit=self._emit,
                secret=self._secret,
                closing=self._is_closing,
                session_gone=self._get_stream_session_gone,
            )
        return self._streams

    def _headers(self, info: Outgoing, accept: str = _ACCEPT) -> dict[str, str]:
        headers = {"Accept": accept}
        headers.update(self.params.headers)
        if info.era == "modern":
            headers.update(info.headers)
        else:
            if self.session_id is not None:
                headers["Mcp-Session-Id"] = self.session_id
            version = info.protocol_version or self._legacy_version
            if version is not None and info.method != "initialize":
                headers["MCP-Protocol-Version"] = version
        return headers

    def _build_post(self, text: str, info: Outgoing) -> httpx.Request:
        assert self._client is not None
        return self._client.build_request(
            "POST",
            self.params.url,
            content=text.encode("utf-8"),
            headers={**self._headers(info), "Content-Type": "application/json"},
        )

    async def _post_simple(self, text: str, info: Outgoing) -> None:
        """POST a notification or a response; the server should answer 202."""
        assert self._client is not None
        sent_session = self.session_id
        request = self._build_post(text, info)
        try:
            response = await self._client.send(request, stream=True)
        except httpx.HTTPError as exc:
            await self._emit(
                exchange_of(
                    request, None, self._secret, note=describe_http_error(exc, str(request.url))
                )
            )
            return
        note = None
        if response.status_code != 202:
            note = f"expected 202 Accepted for a {info.kind}, got {response.status_code}"
        if response.status_code == 200 and content_type(response) == EVENT_STREAM:
            # Not allowed, but whatever the stream carries is shown, and it must not hold up
            # the messages queued behind this one: read it in the background.
            exchange = exchange_of(
                request,
                response,
                self._secret,
                note=f"{note}; reading the SSE stream it opened",
                problem=True,
            )
            await self._emit(exchange)
            self._spawn(self._sse().drain(response, exchange))
            return
        try:
            body, _, _ = await asyncio.wait_for(
                read_body(response, self.params.max_body_bytes), _SIMPLE_BODY_WAIT
            )
        except (httpx.HTTPError, TimeoutError):
            body = ""
            note = (note + "; " if note else "") + "the body was not read to its end"
        finally:
            await response.aclose()
        shown = as_text(body)
        await self._emit(
            exchange_of(
                request,
                response,
                self._secret,
                note=note,
                body_excerpt=shown[:2000] or None,
                problem=note is not None or None,
            )
        )
        if (
            response.status_code == 404
            and sent_session is not None
            and sent_session == self.session_id
            and info.era == "legacy"
        ):
            await self._session_expired()

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _post_request(self, text: str, info: Outgoing) -> None:
        assert self._client is not None and info.wire_id is not None
        sent_session = self.session_id
        request = self._build_post(text, info)
        try:
            response = await self._client.send(request, stream=True)
        except httpx.HTTPError as exc:
            reason = describe_http_error(exc, str(request.url))
            await self._emit(exchange_of(request, None, self._secret, note=reason))
            await self._emit(DeliveryFailed(info.wire_id, reason))
            return
        try:
            await self._on_post_response(request, response, info, sent_session)
        except asyncio.CancelledError:
            raise
        except httpx.HTTPError as exc:
            reason = describe_http_error(exc, str(request.url))
            await self._emit(DeliveryFailed(info.wire_id, reason))
        finally:
            await response.aclose()

    async def _on_post_response(
        self,
        request: httpx.Request,
        response: httpx.Response,
        info: Outgoing,
        sent_session: str | None,
    ) -> None:
        assert info.wire_id is not None
        status = response.status_code
        ctype = content_type(response)
        session_id = response.headers.get("mcp-session-id")
        if info.era == "legacy" and session_id and info.method == "initialize":
            if not _visible_ascii(session_id):
                await self._refuse_session_id(request, response, info, session_id)
                return
            self.session_id = session_id
        if (
            status == 404
            and sent_session is not None
            and sent_session == self.session_id
            and info.era == "legacy"
        ):
            body, _, _ = await read_body(response, self.params.max_body_bytes)
            shown = as_text(body)
            await self._emit(
                exchange_of(
                    request,
                    response,
                    self._secret,
                    note="session expired",
                    body_excerpt=shown[:2000],
                )
            )
            await self._session_expired()
            await self._emit(
                DeliveryFailed(info.wire_id, "the server ended the session (HTTP 404)", 404)
            )
            return
        if not 200 <= status < 300:
            await self._on_http_error(request, response, info)
            return
        if status == 202:
            await self._emit(
                exchange_of(
                    request, response, self._secret, note="202 Accepted: no answer will come"
                )
            )
            await self._emit(
                DeliveryFailed(
                    info.wire_id, "the server answered 202 Accepted to a request: no response", 202
                )
            )
            return
        if ctype == "application/json":
            body, size, truncated = await read_body(response, self.params.max_body_bytes)
            exchange = exchange_of(request, response, self._secret)
            await self._emit(exchange)
            await self._emit(
                FrameReceived(body, size, truncated, http=exchange, size_unknown=truncated)
            )
            if truncated:
                await self._emit(
                    DeliveryFailed(
                        info.wire_id,
                        f"the HTTP response exceeds the size limit of "
                        f"{self.params.max_body_bytes:,} bytes (reading stopped there: more "
                        f"than {size - 1:,} bytes; its first 64 KiB are kept)",
                    )
                )
            elif not answers(body, info.wire_id):
                # The body of a POST can only be the answer to that POST: it is not.
                shown = as_text(body)
                await self._emit(
                    DeliveryFailed(
                        info.wire_id,
                        f"the JSON body of HTTP {status} is not a response to request "
                        f"{info.wire_id!r}: {shown[:200]!r}",
                        status,
                    )
                )
            return
        if ctype == EVENT_STREAM:
            exchange = exchange_of(request, response, self._secret, note="SSE stream")
            await self._emit(exchange)
            await self._sse().read_request_stream(response, info, exchange)
            return
        body, _, _ = await read_body(response, self.params.max_body_bytes)
        shown = as_text(body)
        reason = (
            f"unexpected content type {ctype or '(none)'} (expected application/json or "
            f"text/event-stream)"
        )
        await self._emit(
            exchange_of(request, response, self._secret, note=reason, body_excerpt=shown[:2000])
        )
        await self._emit(DeliveryFailed(info.wire_id, f"{reason}: {shown[:200]!r}", status))

    async def _refuse_session_id(
        self, request: httpx.Request, response: httpx.Response, info: Outgoing, session_id: str
    ) -> None:
        """spec 2025-11-25 transports: the session ID MUST only contain visible ASCII
        characters (0x21 to 0x7E). Never send one that breaks it: fail the initialize."""
        assert info.wire_id is not None
        body, _, _ = await read_body(response, self.params.max_body_bytes)
        why = (
            f"the server's Mcp-Session-Id {session_id!r} {SESSION_ID_REFUSED}, which the "
            "spec forbids; refused, never sent back"
        )
        await self._emit(
            exchange_of(
                request, response, self._secret, note=why, body_excerpt=as_text(body)[:2000]
            )
        )
        await self._emit(DeliveryFailed(info.wire_id, why, response.status_code))

    async def _on_http_error(
        self, request: httpx.Request, response: httpx.Response, info: Outgoing
    ) -> None:
        assert info.wire_id is not None
        status = response.status_code
        body, _, _ = await read_body(response, self.params.max_body_bytes)
        shown = as_text(body)
        location = response.headers.get("location")
        note = f"HTTP {status} {response.reason_phrase}".strip()
        if location:
            note += f" (redirect to {location}; not followed)"
        exchange = exchange_of(
            request, response, self._secret, note=note, body_excerpt=shown[:2000]
        )
        await self._emit(exchange)
        error, rid = json_rpc_error(body) if isinstance(body, str) else (None, None)
        if error is not None:
            # Keep the JSON-RPC error: show the frame; if it names our id the protocol core
            # fails the request with it, else the session applies it to this request.
            await self._emit(FrameReceived(body, len(body), http=exchange))
            if rid != info.wire_id:
                await self._emit(
                    DeliveryFailed(info.wire_id, f"{note}: {shown[:300]}", status, error=error)
                )
            return
        await self._emit(DeliveryFailed(info.wire_id, f"{note}: {shown[:300]!r}", status))

    async def _session_expired(self, *, from_get: bool = False) -> None:
        if self.session_id is None:
            return
        self.session_id = None
        if self._get_task is not None and not from_get:
            self._get_task.cancel()
        self._get_task = None
        await self._emit(
            SessionExpired("the server no longer knows this session (HTTP 404 for Mcp-Session-Id)")
        )

    async def _get_stream_session_gone(self) -> None:
        """The GET stream was refused with 404: the server forgot the session."""
        await self._session_expired(from_get=True)

    async def _delete_session(self) -> None:
        assert self._client is not None
        info = Outgoing(kind="notification", era="legacy", protocol_version=self._legacy_version)
        request = self._client.build_request("DELETE", self.params.url, headers=self._headers(info))
        try:
            response = await asyncio.wait_for(self._client.send(request), 5.0)
        except (httpx.HTTPError, TimeoutError) as exc:
            why = (
                describe_http_error(exc, self.params.url)
                if isinstance(exc, httpx.HTTPError)
                else "timed out"
            )
            await self._emit(exchange_of(request, None, self._secret, note=f"DELETE failed: {why}"))
            return
        note: str | None = "session ended" if response.status_code < 300 else None
        if response.status_code == 405:
            note = "the server does not let clients end sessions (405): fine"
        fine = response.status_code < 300 or response.status_code == 405
        await self._emit(exchange_of(request, response, self._secret, note=note, problem=not fine))
        self.session_id = None
