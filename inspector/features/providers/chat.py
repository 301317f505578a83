"""One request of a conversation with a model that may call tools: `chat()` sends a
`ChatRequest` in the provider's wire format (chat_openai, chat_anthropic) and gives back
its `ChatReply`, streamed (SSE) when the caller wants the text as it arrives.

Why httpx directly and not the optional SDKs that `client.py` (sampling) uses:
- bounded reading: the body and every stream line are read with a cap (a hostile or broken
  endpoint sending gigabytes ends as a sentence), which the SDKs do not offer;
- the traffic log shows the exact bytes, SSE included, that crossed the wire;
- a local OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio) works without the
  `models` extra installed: httpx is already a dependency;
- the stream is parsed by us, so a cut or garbled stream is named as such, and tool-call
  arguments that are not JSON are kept raw instead of failing inside an SDK.

Every failure is a `ModelError` with a sentence a person understands; every exchange,
failed or not, goes to `on_exchange` with its secret headers redacted.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import ssl
import time
from collections.abc import AsyncGenerator, Iterator
from contextlib import aclosing
from typing import Any, Final, cast

import httpx

from inspector.features.providers.chat_anthropic import (
    STOP,
    anthropic_chat_body,
    anthropic_read_event,
    anthropic_read_whole,
)
from inspector.features.providers.chat_openai import (
    FINISH,
    openai_chat_body,
    openai_read_chunk,
    openai_read_whole,
)
from inspector.features.providers.chat_reply import ReplyBuilder
from inspector.features.providers.chat_types import ChatReply, ChatRequest, TextSink
from inspector.features.providers.client import ExchangeSink, redacted_headers, status_error
from inspector.features.providers.providers import ProviderConfig
from inspector.features.providers.sse import SseReader, StreamTooLarge, size_text
from inspector.features.providers.types import ModelError, ModelExchange

__all__ = ["ANTHROPIC_VERSION", "MAX_BODY", "ExchangeSink", "chat", "chat_url"]

ANTHROPIC_VERSION: Final = "2023-06-01"
MAX_BODY: Final = 16 * 1024 * 1024  # a whole (not streamed) answer
MAX_STREAM: Final = 32 * 1024 * 1024  # a whole streamed answer
MAX_ERROR_BODY: Final = 64 * 1024  # an error answer: its message is what we need
KEEP: Final = 1024 * 1024  # response text kept for the traffic log


@functools.cache
def _tls() -> ssl.SSLContext:
    """One TLS context for every request (making one costs tens of milliseconds)."""
    return httpx.create_ssl_context()


def chat_url(provider: ProviderConfig) -> str:
    """The endpoint, from the base URL a user types (OpenAI-compatible with `/v1`; the
    Anthropic API's root, as its SDK takes it)."""
    base = provider.url.rstrip("/")
    return base + ("/chat/completions" if provider.kind == "openai" else "/v1/messages")


def _headers(provider: ProviderConfig, key: str | None, stream: bool) -> dict[str, str]:
    headers = {
        "content-type": "application/json",
        "accept": "text/event-stream" if stream else "application/json",
    }
    if provider.kind == "anthropic":
        headers["anthropic-version"] = ANTHROPIC_VERSION
        if key:
            headers["x-api-key"] = key
    elif key:  # a local server needs no key: then no Authorization header at all
        headers["authorization"] = f"Bearer {key}"
    return headers


def _bytes_of(response: httpx.Response) -> AsyncGenerator[bytes, None]:
    """The body's chunks, as the generator httpx makes, to be closed when left early (a
    generator left to the garbage collector closes outside its task, under qasync)."""
    return cast("AsyncGenerator[bytes, None]", response.aiter_bytes())


async def _read_capped(response: httpx.Response, cap: int) -> tuple[bytes, bool]:
    """The body up to `cap` bytes, and whether there was more (then left unread)."""
    parts: list[bytes] = []
    size = 0
    async with aclosing(_bytes_of(response)) as chunks:
        async for chunk in chunks:
            parts.append(chunk)
            size += len(chunk)
            if size > cap:
                return b"".join(parts)[:cap], True
    return b"".join(parts), False


class _Exchange:
    """What the traffic log gets of one exchange, filled in as it goes."""

    def __init__(
        self, provider: ProviderConfig, url: str, model: str, headers: dict[str, str], body: str
    ) -> None:
        self.provider = provider
        self.started = time.monotonic()
        self.record = ModelExchange(
            provider=provider.kind,
            url=url,
            model=model,
            request_headers=redacted_headers(headers),
            request_body=body,
        )
        self.status: int | None = None
        self.response_headers: dict[str, str] = {}
        self.response_body = ""

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def answered(self, response: httpx.Response) -> None:
        self.status = response.status_code
        self.response_headers = dict(response.headers)

    def done(self, sink: ExchangeSink | None, error: str = "") -> None:
        if sink is None:
            return
        record = self.record
        sink(
            ModelExchange(
                provider=record.provider,
                url=record.url,
                model=record.model,
                request_headers=record.request_headers,
                request_body=record.request_body,
                status=self.status,
                response_headers=self.response_headers,
                response_body=self.response_body[:KEEP],
                latency=self.elapsed,
                error=error,
            )
        )


async def chat(
    provider: ProviderConfig,
    key: str | None,
    request: ChatRequest,
    *,
    timeout: float,
    on_text: TextSink | None = None,
    on_exchange: ExchangeSink | None = None,
) -> ChatReply:
    """Send `request` to `provider` and read the reply.

    With `on_text`, the reply streams and each text piece goes to `on_text` as it arrives.
    `timeout`: for connecting, and for each wait for the next bytes (a stream that keeps
    coming is not cut; one that stalls that long is). `key`: None sends no key (a local
    server); the caller takes it from the keyring (`provider_key`)."""
    stream = on_text is not None
    make_body = openai_chat_body if provider.kind == "openai" else anthropic_chat_body
    body = make_body(request, stream=stream)
    url = chat_url(provider)
    headers = _headers(provider, key, stream)
    text = json.dumps(body, ensure_ascii=False)
    exchange = _Exchange(provider, url, request.model, headers, text)
    builder = ReplyBuilder(on_text=on_text, model=request.model)
    try:
        async with (
            httpx.AsyncClient(timeout=httpx.Timeout(timeout), verify=_tls()) as client,
            client.stream("POST", url, content=text.encode("utf-8"), headers=headers) as response,
        ):
            exchange.answered(response)
            await _read(provider, response, exchange, builder, stream)
    except ModelError as error:
        exchange.done(on_exchange, str(error))
        raise
    except asyncio.CancelledError:
        exchange.done(on_exchange, "stopped before the answer was complete")
        raise
    except (httpx.HTTPError, httpx.InvalidURL, StreamTooLarge) as exc:
        failure = _failure(provider, exchange, exc, timeout)
        exchange.done(on_exchange, str(failure))
        raise failure from exc
    exchange.done(on_exchange)
    stops = FINISH if provider.kind == "openai" else STOP
    return builder.reply(stops, exchange.elapsed)


def _cause(exc: BaseException) -> str:
    """The sentence for a transport failure: the refusal named as such, wherever in the
    chain of causes it is."""
    seen: BaseException | None = exc
    for _ in range(10):
        if seen is None:
            break
        if isinstance(seen, ConnectionRefusedError) or "refused" in str(seen).lower():
            return "the connection was refused (is the server running?)"
        seen = seen.__cause__ or seen.__context__
    return str(exc) or type(exc).__name__


def _failure(
    provider: ProviderConfig, exchange: _Exchange, exc: Exception, timeout: float
) -> ModelError:
    url = exchange.record.url
    if isinstance(exc, httpx.TimeoutException):
        said = "no answer" if exchange.status is None else "the answer stalled"
        return ModelError("timeout", f"{said} from {url} within {timeout:g} s")
    if isinstance(exc, httpx.InvalidURL):
        return ModelError("connection", f"{url} is not a URL this app can reach: {exc}")
    if isinstance(exc, httpx.DecodingError):
        return ModelError(
            "garbage", f"the answer from {provider.label} could not be decoded: {exc}"
        )
    if isinstance(exc, StreamTooLarge):
        return ModelError(
            "garbage", f"{provider.label} sent too much: {exc}; the rest was not read"
        )
    if exchange.status is None:
        return ModelError("connection", f"could not reach {exchange.record.url}: {_cause(exc)}")
    return ModelError(
        "connection",
        f"the answer from {provider.label} was cut off mid-way ({_cause(exc)}); "
        "what came before is in the traffic log",
    )


async def _read(
    provider: ProviderConfig,
    response: httpx.Response,
    exchange: _Exchange,
    builder: ReplyBuilder,
    stream: bool,
) -> None:
    if response.status_code != 200:
        raw, _more = await _read_capped(response, MAX_ERROR_BODY)
        exchange.response_body = raw.decode("utf-8", "replace")
        raise status_error(provider, response.status_code, response.headers, exchange.response_body)
    content_type = response.headers.get("content-type", "")
    if stream and "text/event-stream" in content_type:
        await _read_stream(provider, response, exchange, builder)
        return
    # Whole: asked so, or a server that ignored `stream` and answered JSON anyway.
    raw, more = await _read_capped(response, MAX_BODY)
    exchange.response_body = raw.decode("utf-8", "replace")
    if more:
        raise ModelError(
            "garbage",
            f"{provider.label} sent an answer over {size_text(MAX_BODY)}; the rest was not read",
        )
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise ModelError(
            "garbage",
            f"{provider.label} answered with something that is not JSON "
            f"({content_type or 'no content type'}): {_start(exchange.response_body)}",
        ) from exc
    with _said_by(provider):
        if provider.kind == "openai":
            openai_read_whole(data, builder)
        else:
            anthropic_read_whole(data, builder)


@contextlib.contextmanager
def _said_by(provider: ProviderConfig) -> Iterator[None]:
    """A wire format's ModelError with the provider named: "OpenRouter: the answer is …"."""
    try:
        yield
    except ModelError as error:
        raise ModelError(error.kind, f"{provider.label}: {error}") from error


def _start(text: str) -> str:
    text = " ".join(text.split())
    return (text[:120] + "…" if len(text) > 120 else text) or "(empty body)"


async def _read_stream(
    provider: ProviderConfig, response: httpx.Response, exchange: _Exchange, builder: ReplyBuilder
) -> None:
    reader = SseReader(max_total=MAX_STREAM)
    ended = False  # the answer is complete
    over = False  # its end marker came: what follows is read to the end and left
    try:
        async with (
            aclosing(_bytes_of(response)) as chunks,
            aclosing(reader.events(chunks)) as events,
        ):
            async for event in events:
                if over:
                    continue  # read to its end: a stream left early is closed outside its task
                if provider.kind == "openai" and event.data.strip() == "[DONE]":
                    ended = over = True
                    continue
                try:
                    data: Any = json.loads(event.data)
                except ValueError as exc:
                    raise ModelError(
                        "garbage",
                        f"the stream from {provider.label} holds an event that is not JSON: "
                        f"{_start(event.data)}",
                    ) from exc
                with _said_by(provider):
                    if provider.kind == "openai":
                        ended = openai_read_chunk(data, builder) or ended
                    elif anthropic_read_event(event.event, data, builder):
                        ended = over = True
    finally:
        exchange.response_body = reader.raw
    if not ended:
        raise ModelError(
            "connection",
            f"the stream from {provider.label} ended before the answer was complete "
            "(no end marker); what came before is in the traffic log",
        )
