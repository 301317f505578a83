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
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Coroutine
from typing import Any, Final

import httpx

from inspector.transports.base import (
    DeliveryFailed,
    FrameReceived,
    HttpExchange,
    Outgoing,
    SessionExpired,
    StreamLost,
    Transport,
    TransportClosed,
    TransportClosedError,
    TransportEvent,
)
from inspector.transports.http_common import (
    HttpParams,
    check_url,
    describe_http_error,
    exchange_of,
    new_client,
)
from inspector.transports.sse import SseDecoder, SseEvent

__all__ = ["StreamableHttpTransport"]

log = logging.getLogger(__name__)

_ACCEPT: Final = "application/json, text/event-stream"
_GET_STREAM_NOTE: Final = "GET stream open"
_SIMPLE_BODY_WAIT: Final = 5.0  # seconds to read the body of a 202-expected answer


def _content_type(response: httpx.Response) -> str:
    value: str = response.headers.get("content-type", "")
    return value.split(";")[0].strip().lower()


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
            self._get_task = asyncio.create_task(self._run_get_stream(), name="http-get-stream")

    async def events(self) -> AsyncIterator[TransportEvent]:
        while True:
            event = await self._queue.get()
            yield event
            if isinstance(event, TransportClosed):
                return

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

    def _headers(self, info: Outgoing, *, accept: str = _ACCEPT) -> dict[str, str]:
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

    async def _read_body(self, response: httpx.Response) -> tuple[str | bytes, int, bool]:
        """Read a body up to the size limit: (text or bytes, full size, truncated)."""
        limit = self.params.max_body_bytes
        chunks: list[bytes] = []
        kept = 0
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if kept < limit:
                piece = chunk[: limit - kept]
                chunks.append(piece)
                kept += len(piece)
        data = b"".join(chunks)
        try:
            return data.decode("utf-8"), size, size > kept
        except UnicodeDecodeError:
            return data, size, size > kept

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
        if response.status_code == 200 and _content_type(response) == "text/event-stream":
            # Not allowed, but whatever the stream carries is shown, and it must not hold up
            # the messages queued behind this one: read it in the background.
            exchange = exchange_of(
                request, response, self._secret, note=f"{note}; reading the SSE stream it opened"
            )
            await self._emit(exchange)
            self._spawn(self._drain_stream(response, exchange))
            return
        try:
            body, _, _ = await asyncio.wait_for(self._read_body(response), _SIMPLE_BODY_WAIT)
        except (httpx.HTTPError, TimeoutError):
            body = ""
            note = (note + "; " if note else "") + "the body was not read to its end"
        finally:
            await response.aclose()
        shown = body if isinstance(body, str) else body.decode("utf-8", "replace")
        await self._emit(
            exchange_of(
                request, response, self._secret, note=note, body_excerpt=shown[:2000] or None
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

    async def _drain_stream(self, response: httpx.Response, exchange: HttpExchange) -> None:
        try:
            await self._pump_sse(response, SseDecoder(self.params.max_event_bytes), None, exchange)
        finally:
            await response.aclose()

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
        ctype = _content_type(response)
        session_id = response.headers.get("mcp-session-id")
        if info.era == "legacy" and session_id and info.method == "initialize":
            self.session_id = session_id
        if (
            status == 404
            and sent_session is not None
            and sent_session == self.session_id
            and info.era == "legacy"
        ):
            body, _, _ = await self._read_body(response)
            shown = body if isinstance(body, str) else body.decode("utf-8", "replace")
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
            body, size, truncated = await self._read_body(response)
            exchange = exchange_of(request, response, self._secret)
            await self._emit(exchange)
            await self._emit(FrameReceived(body, size, truncated, http=exchange))
            if truncated:
                await self._emit(
                    DeliveryFailed(
                        info.wire_id, f"the response of {size:,} bytes exceeds the size limit"
                    )
                )
            elif not _answers(body, info.wire_id):
                # The body of a POST can only be the answer to that POST: it is not.
                shown = body if isinstance(body, str) else body.decode("utf-8", "replace")
                await self._emit(
                    DeliveryFailed(
                        info.wire_id,
                        f"the JSON body of HTTP {status} is not a response to request "
                        f"{info.wire_id!r}: {shown[:200]!r}",
                        status,
                    )
                )
            return
        if ctype == "text/event-stream":
            exchange = exchange_of(request, response, self._secret, note="SSE stream")
            await self._emit(exchange)
            await self._read_request_stream(response, info, exchange)
            return
        body, _, _ = await self._read_body(response)
        shown = body if isinstance(body, str) else body.decode("utf-8", "replace")
        reason = (
            f"unexpected content type {ctype or '(none)'} (expected application/json or "
            f"text/event-stream)"
        )
        await self._emit(
            exchange_of(request, response, self._secret, note=reason, body_excerpt=shown[:2000])
        )
        await self._emit(DeliveryFailed(info.wire_id, f"{reason}: {shown[:200]!r}", status))

    async def _on_http_error(
        self, request: httpx.Request, response: httpx.Response, info: Outgoing
    ) -> None:
        assert info.wire_id is not None
        status = response.status_code
        body, _, _ = await self._read_body(response)
        shown = body if isinstance(body, str) else body.decode("utf-8", "replace")
        location = response.headers.get("location")
        note = f"HTTP {status} {response.reason_phrase}".strip()
        if location:
            note += f" (redirect to {location}; not followed)"
        exchange = exchange_of(
            request, response, self._secret, note=note, body_excerpt=shown[:2000]
        )
        await self._emit(exchange)
        error, rid = _json_rpc_error(body) if isinstance(body, str) else (None, None)
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

    async def _read_request_stream(
        self, response: httpx.Response, info: Outgoing, exchange: HttpExchange
    ) -> None:
        assert info.wire_id is not None
        decoder = SseDecoder(self.params.max_event_bytes)
        answered, broke = await self._pump_sse(response, decoder, info.wire_id, exchange)
        if answered:
            return
        why = broke or "the response stream ended before the answer"
        if info.era == "modern":
            await self._emit(StreamLost(info.wire_id, why))
            return
        if decoder.last_event_id is None:
            await self._emit(
                DeliveryFailed(
                    info.wire_id,
                    f"{why}, and it cannot be resumed (the server sent no event ids)",
                )
            )
            return
        await self._resume(info, decoder)

    async def _pump_sse(
        self,
        response: httpx.Response,
        decoder: SseDecoder,
        wire_id: str | int | None,
        exchange: HttpExchange,
        *,
        stop_when_answered: bool = False,
    ) -> tuple[bool, str | None]:
        """Deliver events until the stream ends (or, for a resumed stream, until the answer
        arrived). Returns (answered our request?, why it broke)."""
        answered = False
        try:
            async for chunk in response.aiter_bytes():
                for event in decoder.feed(chunk):
                    answered = await self._deliver(event, wire_id, exchange) or answered
                if answered and stop_when_answered:
                    break
        except httpx.HTTPError as exc:
            return answered, describe_http_error(exc, str(response.request.url))
        finally:
            decoder.close()  # a half-received event dies with its stream (SSE spec)
        return answered, None

    async def _deliver(
        self, event: SseEvent, wire_id: str | int | None, exchange: HttpExchange
    ) -> bool:
        await self._emit(
            FrameReceived(
                event.data,
                event.size or len(event.data),
                event.truncated,
                http=exchange,
                sse_event_id=event.id,
            )
        )
        if wire_id is None:
            if exchange.note == _GET_STREAM_NOTE and (rid := _response_id(event.text)) is not None:
                # spec 2025-11-25: the standalone GET stream carries no responses (except
                # when resuming); the session still pairs it, but the log says so.
                await self._emit(
                    HttpExchange(
                        exchange.method,
                        exchange.url,
                        exchange.status,
                        note=f"a JSON-RPC response (id {rid!r}) arrived on the standalone "
                        "GET stream; the spec sends responses on the POST stream of their request",
                    )
                )
            return False
        return _answers(event.text, wire_id)

    async def _resume(self, info: Outgoing, decoder: SseDecoder) -> None:
        """Legacy: GET with Last-Event-ID until the answer arrives (spec 2025-11-25
        Resumability), waiting `retry:` milliseconds between attempts."""
        assert self._client is not None and info.wire_id is not None
        for attempt in range(1, self.params.max_resume_attempts + 1):
            delay = (
                decoder.retry_ms if decoder.retry_ms is not None else self.params.default_retry_ms
            )
            await asyncio.sleep(delay / 1000)
            headers = self._headers(info, accept="text/event-stream")
            assert decoder.last_event_id is not None
            headers["Last-Event-ID"] = decoder.last_event_id
            request = self._client.build_request("GET", self.params.url, headers=headers)
            try:
                response = await self._client.send(request, stream=True)
            except httpx.HTTPError as exc:
                await self._emit(
                    exchange_of(
                        request, None, self._secret, note=describe_http_error(exc, self.params.url)
                    )
                )
                continue
            try:
                note = f"resuming after event {decoder.last_event_id} (attempt {attempt})"
                if response.status_code != 200 or _content_type(response) != "text/event-stream":
                    body, _, _ = await self._read_body(response)
                    shown = body if isinstance(body, str) else body.decode("utf-8", "replace")
                    await self._emit(
                        exchange_of(
                            request,
                            response,
                            self._secret,
                            note=note + ": refused",
                            body_excerpt=shown[:2000],
                        )
                    )
                    await self._emit(
                        DeliveryFailed(
                            info.wire_id,
                            f"the stream broke before the answer and resuming was refused "
                            f"(HTTP {response.status_code})",
                            response.status_code,
                        )
                    )
                    return
                exchange = exchange_of(request, response, self._secret, note=note)
                await self._emit(exchange)
                answered, _ = await self._pump_sse(
                    response, decoder, info.wire_id, exchange, stop_when_answered=True
                )
                if answered:
                    return
            finally:
                await response.aclose()
        await self._emit(
            DeliveryFailed(
                info.wire_id,
                f"the stream broke before the answer; gave up after "
                f"{self.params.max_resume_attempts} resumption attempts",
            )
        )

    async def _run_get_stream(self) -> None:
        """Legacy: the optional GET stream for server-initiated messages, kept open."""
        assert self._client is not None
        decoder = SseDecoder(self.params.max_event_bytes)
        failures = 0
        info = Outgoing(kind="request", era="legacy", protocol_version=self._legacy_version)
        while not self._closing:
            headers = self._headers(info, accept="text/event-stream")
            if decoder.last_event_id is not None:
                headers["Last-Event-ID"] = decoder.last_event_id
            request = self._client.build_request("GET", self.params.url, headers=headers)
            try:
                response = await self._client.send(request, stream=True)
            except httpx.HTTPError as exc:
                await self._emit(
                    exchange_of(
                        request, None, self._secret, note=describe_http_error(exc, self.params.url)
                    )
                )
                failures += 1
            else:
                try:
                    status = response.status_code
                    if status == 405:
                        await self._emit(
                            exchange_of(
                                request,
                                response,
                                self._secret,
                                note="the server offers no GET stream (405)",
                            )
                        )
                        return
                    if status != 200 or _content_type(response) != "text/event-stream":
                        await self._emit(
                            exchange_of(
                                request,
                                response,
                                self._secret,
                                note=f"GET stream refused (HTTP {status})",
                            )
                        )
                        if status == 404 and self.session_id is not None:
                            await self._session_expired(from_get=True)
                        return
                    exchange = exchange_of(request, response, self._secret, note=_GET_STREAM_NOTE)
                    await self._emit(exchange)
                    failures = 0
                    _, broke = await self._pump_sse(response, decoder, None, exchange)
                    if self._is_closing():
                        return
                    failures += 1
                    await self._emit(
                        exchange_of(
                            request,
                            response,
                            self._secret,
                            note=f"GET stream ended ({broke or 'closed by the server'}); "
                            "reconnecting",
                        )
                    )
                finally:
                    await response.aclose()
            if failures > self.params.max_resume_attempts:
                log.info("giving up on the GET stream after %d failures", failures)
                return
            delay = (
                decoder.retry_ms if decoder.retry_ms is not None else self.params.default_retry_ms
            )
            await asyncio.sleep(delay / 1000)

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
        await self._emit(exchange_of(request, response, self._secret, note=note))
        self.session_id = None


def _json_rpc_error(body: str) -> tuple[dict[str, Any] | None, str | int | None]:
    """(the error object, its id) when the body is a JSON-RPC error response."""
    try:
        value = json.loads(body)
    except ValueError:
        return None, None
    if isinstance(value, dict) and isinstance(value.get("error"), dict):
        rid = value.get("id")
        usable = rid if isinstance(rid, str | int) and not isinstance(rid, bool) else None
        return value["error"], usable
    return None, None


def _response_id(data: str | bytes) -> str | int | None:
    """The id of a JSON-RPC response (result or error), else None."""
    if isinstance(data, bytes):
        data = data.decode("utf-8", "replace")
    if '"id"' not in data:
        return None
    try:
        value = json.loads(data)
    except ValueError:
        return None
    if not isinstance(value, dict) or not ("result" in value or "error" in value):
        return None
    rid = value.get("id")
    return rid if isinstance(rid, str | int) and not isinstance(rid, bool) else None


def _answers(data: str | bytes, wire_id: str | int) -> bool:
    rid = _response_id(data)
    return rid is not None and rid == wire_id and type(rid) is type(wire_id)
