"""The deprecated HTTP+SSE transport of 2024-11-05.

GET the SSE URL and wait for the `endpoint` event; POST every message to that endpoint
(the server answers 202); the server's messages, responses included, arrive on the GET
stream as `message` events. When the stream ends, the connection has ended.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Final
from urllib.parse import urljoin, urlsplit

import httpx

from inspector.transports.base import (
    DeliveryFailed,
    HttpExchange,
    Outgoing,
    Transport,
    TransportClosed,
    TransportClosedError,
    TransportError,
    TransportEvent,
    until_closed,
)
from inspector.transports.http_common import (
    HttpParams,
    check_url,
    describe_http_error,
    exchange_of,
    new_client,
    sse_frame,
)
from inspector.transports.sse import SseDecoder

__all__ = ["LegacySseTransport"]

_POST_WAIT: Final = 30.0  # the endpoint answers 202 at once; the real answer comes by SSE


class LegacySseTransport(Transport):
    kind = "sse"

    def __init__(self, params: HttpParams, *, endpoint_timeout: float = 10.0) -> None:
        self.params = params
        self.endpoint: str | None = None
        self.endpoint_timeout = endpoint_timeout
        self._client: httpx.AsyncClient | None = params.client
        self._own_client = params.client is None
        self._queue: asyncio.Queue[TransportEvent] = asyncio.Queue(maxsize=10_000)
        self._stream_task: asyncio.Task[None] | None = None
        self._endpoint_ready: asyncio.Future[str] | None = None
        self._closing = False
        self._closed_sent = False
        self._secret = frozenset(h.lower() for h in params.secret_headers)

    @property
    def description(self) -> str:
        return f"{self.params.url} (HTTP+SSE, 2024-11-05)"

    async def start(self) -> None:
        check_url(self.params.url)
        if self._client is None:
            self._client = new_client(self.params)
        self._endpoint_ready = asyncio.get_running_loop().create_future()
        self._stream_task = asyncio.create_task(self._run_stream(), name="sse-stream")
        try:
            self.endpoint = await asyncio.wait_for(
                asyncio.shield(self._endpoint_ready), self.endpoint_timeout
            )
        except TimeoutError:
            await self.close()
            raise TransportError(
                f"no 'endpoint' event from {self.params.url} within {self.endpoint_timeout:g} s "
                "(is this an HTTP+SSE server?)"
            ) from None
        except TransportError:
            await self.close()
            raise

    async def _run_stream(self) -> None:
        assert self._client is not None and self._endpoint_ready is not None
        headers = {"Accept": "text/event-stream", **self.params.headers}
        request = self._client.build_request("GET", self.params.url, headers=headers)
        reason = "the SSE stream ended"
        error = True
        try:
            response = await self._client.send(request, stream=True)
        except httpx.HTTPError as exc:
            why = describe_http_error(exc, self.params.url)
            await self._queue.put(exchange_of(request, None, self._secret, note=why))
            self._fail_endpoint(why)
            await self._emit_closed(why, error=True)
            return
        try:
            ctype = response.headers.get("content-type", "").split(";")[0].strip().lower()
            if response.status_code != 200 or ctype != "text/event-stream":
                body = (await response.aread())[:2000].decode("utf-8", "replace")
                why = (
                    f"GET {self.params.url} answered HTTP {response.status_code} "
                    f"({ctype or 'no content type'}), not an event stream"
                )
                await self._queue.put(
                    exchange_of(
                        request, response, self._secret, note=why, body_excerpt=body, problem=True
                    )
                )
                self._fail_endpoint(why)
                await self._emit_closed(why, error=True)
                return
            exchange = exchange_of(request, response, self._secret, note="SSE stream open")
            await self._queue.put(exchange)
            decoder = SseDecoder(self.params.max_event_bytes)
            try:
                async for chunk in response.aiter_bytes():
                    for event in decoder.feed(chunk):
                        if event.event == "endpoint":
                            self._on_endpoint(event.text, exchange)
                            continue
                        await self._queue.put(sse_frame(event, exchange))
            except httpx.HTTPError as exc:
                reason = f"the SSE stream broke: {describe_http_error(exc, self.params.url)}"
            if self._closing:
                reason, error = "the HTTP+SSE connection was closed", False
        finally:
            await response.aclose()
        self._fail_endpoint(reason)
        await self._emit_closed(reason, error=error)

    def _on_endpoint(self, data: str, exchange: HttpExchange) -> None:
        url = urljoin(self.params.url, data.strip())
        base, target = urlsplit(self.params.url), urlsplit(url)
        ready = self._endpoint_ready
        if ready is None or ready.done():
            return
        if (target.scheme, target.netloc) != (base.scheme, base.netloc):
            # The endpoint must be on the same origin: never POST our traffic elsewhere.
            ready.set_exception(
                TransportError(f"the server's endpoint {url!r} is on another origin; refused")
            )
            return
        ready.set_result(url)

    def _fail_endpoint(self, why: str) -> None:
        ready = self._endpoint_ready
        if ready is not None and not ready.done():
            ready.set_exception(TransportError(why))

    async def send(self, text: str, *, info: Outgoing | None = None) -> None:
        if self._closing or self._client is None or self.endpoint is None:
            raise TransportClosedError("the HTTP+SSE connection is closed")
        info = info or Outgoing(kind="notification")
        headers = {"Content-Type": "application/json", **self.params.headers}
        request = self._client.build_request(
            "POST", self.endpoint, content=text.encode("utf-8"), headers=headers
        )
        try:
            response = await asyncio.wait_for(self._client.send(request), _POST_WAIT)
        except (httpx.HTTPError, TimeoutError) as exc:
            why = (
                describe_http_error(exc, self.endpoint)
                if isinstance(exc, httpx.HTTPError)
                else f"the POST to {self.endpoint} got no answer within {_POST_WAIT:g} s"
            )
            await self._queue.put(exchange_of(request, None, self._secret, note=why))
            if info.kind == "request" and info.wire_id is not None:
                await self._queue.put(DeliveryFailed(info.wire_id, why))
            return
        body = response.text[:2000]
        ok = 200 <= response.status_code < 300
        note = None if ok else f"HTTP {response.status_code}: the message was not accepted"
        await self._queue.put(
            exchange_of(
                request,
                response,
                self._secret,
                note=note,
                body_excerpt=body or None,
                problem=not ok,
            )
        )
        if not ok and info.kind == "request" and info.wire_id is not None:
            await self._queue.put(
                DeliveryFailed(
                    info.wire_id,
                    f"HTTP {response.status_code}: {body[:300]!r}",
                    response.status_code,
                )
            )

    def events(self) -> AsyncIterator[TransportEvent]:
        return until_closed(self._queue)

    async def _emit_closed(self, reason: str, *, error: bool) -> None:
        if self._closed_sent:
            return
        self._closed_sent = True
        await self._queue.put(TransportClosed(reason, error=error))

    async def close(self) -> None:
        if self._closing:
            return
        self._closing = True
        task = self._stream_task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 2.0)
        if self._own_client and self._client is not None:
            await self._client.aclose()
        await self._emit_closed("the HTTP+SSE connection was closed", error=False)
