"""The SSE streams of a streamable HTTP connection: reading them, and keeping them going.

A POST may answer with an SSE stream that carries the server's messages and, last, the
answer. When it breaks before the answer, the eras part ways: modern reports
`StreamLost` (the session re-sends the request under a new id); legacy resumes with a GET
and `Last-Event-ID` (spec 2025-11-25 Resumability), waiting `retry:` between attempts. The
legacy standalone GET stream carries the server's own messages and reconnects the same
way.

`SseStreams` owns none of the connection: the transport gives it the client, the request
headers of the moment (they carry the legacy session id), where events go, whether the
connection is closing, and what to do when the server has forgotten the session.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Final

import httpx

from inspector.transports.base import (
    DeliveryFailed,
    HttpExchange,
    Outgoing,
    StreamLost,
    TransportEvent,
)
from inspector.transports.http_bodies import answers, as_text, content_type, read_body, response_id
from inspector.transports.http_common import HttpParams, describe_http_error, exchange_of, sse_frame
from inspector.transports.sse import SseDecoder, SseEvent

__all__ = ["EVENT_STREAM", "HeadersFor", "SseStreams"]

log = logging.getLogger(__name__)

EVENT_STREAM: Final = "text/event-stream"
_GET_STREAM_NOTE: Final = "GET stream open"

# (what the request is, its Accept header) -> the headers to send now
HeadersFor = Callable[[Outgoing, str], dict[str, str]]


class SseStreams:
    def __init__(
        self,
        client: httpx.AsyncClient,
        params: HttpParams,
        *,
        headers_for: HeadersFor,
        emit: Callable[[TransportEvent], Awaitable[None]],
        secret: frozenset[str],
        closing: Callable[[], bool],
        session_gone: Callable[[], Awaitable[None]],
    ) -> None:
        self._client = client
        self._params = params
        self._headers_for = headers_for
        self._emit = emit
        self._secret = secret
        self._closing = closing
        self._session_gone = session_gone

    # ------------------------------------------------------------ POST streams
    async def read_request_stream(
        self, response: httpx.Response, info: Outgoing, exchange: HttpExchange
    ) -> None:
        """The SSE answer of a POSTed request, resumed (legacy) when it breaks early."""
        assert info.wire_id is not None
        decoder = SseDecoder(self._params.max_event_bytes)
        answered, broke = await self._pump(response, decoder, info.wire_id, exchange)
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

    async def drain(self, response: httpx.Response, exchange: HttpExchange) -> None:
        """Show what a stream nobody waits on carries (e.g. one a notification opened)."""
        try:
            await self._pump(response, SseDecoder(self._params.max_event_bytes), None, exchange)
        finally:
            await response.aclose()

    async def _pump(
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
                for note in decoder.take_notes():
                    await self._emit(
                        HttpExchange(exchange.method, exchange.url, exchange.status, note=note)
                    )
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
        await self._emit(sse_frame(event, exchange))
        if wire_id is None:
            if exchange.note == _GET_STREAM_NOTE and (rid := response_id(event.text)) is not None:
                # spec 2025-11-25: the standalone GET stream carries no responses (except
                # when resuming); the session still pairs it, but the log says so.
                await self._emit(
                    HttpExchange(
                        exchange.method,
                        exchange.url,
                        exchange.status,
                        note=f"a JSON-RPC response (id {rid!r}) arrived on the standalone "
                        "GET stream; the spec sends responses on the POST stream of their request",
                        problem=True,
                    )
                )
            return False
        return answers(event.text, wire_id)

    def _retry_delay(self, decoder: SseDecoder) -> float:
        """Seconds before reconnecting: the server's `retry:`, else ours."""
        ms = decoder.retry_ms if decoder.retry_ms is not None else self._params.default_retry_ms
        return ms / 1000

    async def _resume(self, info: Outgoing, decoder: SseDecoder) -> None:
        """Legacy: GET with Last-Event-ID until the answer arrives (spec 2025-11-25
        Resumability), waiting `retry:` milliseconds between attempts."""
        assert info.wire_id is not None
        for attempt in range(1, self._params.max_resume_attempts + 1):
            await asyncio.sleep(self._retry_delay(decoder))
            assert decoder.last_event_id is not None
            request, response = await self._open_get(info, decoder.last_event_id)
            if response is None:
                continue
            try:
                note = f"resuming after event {decoder.last_event_id} (attempt {attempt})"
                if response.status_code != 200 or content_type(response) != EVENT_STREAM:
                    body, _, _ = await read_body(response, self._params.max_body_bytes)
                    await self._emit(
                        exchange_of(
                            request,
                            response,
                            self._secret,
                            note=note + ": refused",
                            body_excerpt=as_text(body)[:2000],
                            problem=True,
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
                answered, _ = await self._pump(
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
                f"{self._params.max_resume_attempts} resumption attempts",
            )
        )

    async def _open_get(
        self, info: Outgoing, last_event_id: str | None
    ) -> tuple[httpx.Request, httpx.Response | None]:
        """A GET for an event stream, resuming after `last_event_id` if given. The response
        is None when the request failed; the exchange that says why is in the log."""
        headers = self._headers_for(info, EVENT_STREAM)
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        request = self._client.build_request("GET", self._params.url, headers=headers)
        try:
            return request, await self._client.send(request, stream=True)
        except httpx.HTTPError as exc:
            note = describe_http_error(exc, self._params.url)
            await self._emit(exchange_of(request, None, self._secret, note=note))
            return request, None

    # ------------------------------------------------------------ the GET stream
    async def run_get_stream(self, info: Outgoing) -> None:
        """Legacy: the optional GET stream for server-initiated messages, kept open until
        the connection closes, the server refuses it, or it failed too often."""
        decoder = SseDecoder(self._params.max_event_bytes)
        failures = 0
        while not self._closing():
            request, response = await self._open_get(info, decoder.last_event_id)
            if response is None:
                failures += 1
            else:
                try:
                    if not await self._get_stream_accepted(request, response):
                        return
                    exchange = exchange_of(request, response, self._secret, note=_GET_STREAM_NOTE)
                    await self._emit(exchange)
                    failures = 0
                    _, broke = await self._pump(response, decoder, None, exchange)
                    if self._closing():
                        return
                    failures += 1
                    await self._emit(
                        exchange_of(
                            request,
                            response,
                            self._secret,
                            note=f"GET stream ended ({broke or 'closed by the server'}); "
                            "reconnecting",
                            problem=bool(broke),
                        )
                    )
                finally:
                    await response.aclose()
            if failures > self._params.max_resume_attempts:
                log.info("giving up on the GET stream after %d failures", failures)
                return
            await asyncio.sleep(self._retry_delay(decoder))

    async def _get_stream_accepted(self, request: httpx.Request, response: httpx.Response) -> bool:
        """False (and the refusal reported) when the server does not open the GET stream."""
        status = response.status_code
        if status == 405:
            await self._emit(
                exchange_of(
                    request,
                    response,
                    self._secret,
                    note="the server offers no GET stream (405)",
                    problem=False,
                )
            )
            return False
        if status != 200 or content_type(response) != EVENT_STREAM:
            await self._emit(
                exchange_of(
                    request,
                    response,
                    self._secret,
                    note=f"GET stream refused (HTTP {status})",
                    problem=True,
                )
            )
            if status == 404:
                await self._session_gone()
            return False
        return True
