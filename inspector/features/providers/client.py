"""One call to a model provider through its official SDK (`openai`, `anthropic`: the
optional `models` extra, imported only when a model is used).

The SDK does the HTTP (URL, auth headers, API version); we take its raw response, so the
exact bytes reach the traffic log and a body that is not the API's JSON is named as such.
The SDK's own retries are off: a 429's retry-after is the drafter's decision, within the
MCP request's own timeout. Every exchange, failed or not, goes to `on_exchange` with the
key redacted.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import importlib
import json
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from types import ModuleType
from typing import Any, Final

from inspector.features.providers.names import INSTALL_HINT, KEY_ENV
from inspector.features.providers.providers import ProviderConfig
from inspector.features.providers.types import ModelError, ModelExchange, ModelReply, WireRequest
from inspector.features.providers.wire_anthropic import anthropic_reply
from inspector.features.providers.wire_openai import openai_reply

__all__ = [
    "INSTALL_HINT",
    "ExchangeSink",
    "call_model",
    "redacted_headers",
    "sdk_available",
    "status_error",
]

SECRET_HEADERS: Final = ("authorization", "x-api-key", "api-key", "proxy-authorization")
REDACTED: Final = "[redacted]"
ExchangeSink = Callable[[ModelExchange], None]


def sdk_available(kind: str) -> bool:
    try:
        _sdk(kind)
    except ModelError:
        return False
    return True


def _sdk(kind: str) -> ModuleType:
    try:
        return importlib.import_module(kind)
    except ImportError as exc:
        raise ModelError(
            "not-installed",
            f"the {kind!r} package (the provider's official SDK) is not installed: {INSTALL_HINT}",
        ) from exc


async def _sdk_loaded(kind: str) -> ModuleType:
    """The SDK, imported off the event loop the first time (it takes a second or two: the
    window must not freeze while it loads)."""
    if kind in sys.modules:
        return _sdk(kind)
    with contextlib.suppress(ImportError):  # _sdk then says so in words
        await asyncio.to_thread(importlib.import_module, kind)
    return _sdk(kind)


def redacted_headers(headers: Mapping[str, str]) -> dict[str, str]:
    return {k: (REDACTED if k.lower() in SECRET_HEADERS else v) for k, v in dict(headers).items()}


def _retry_after(headers: Mapping[str, str]) -> float | None:
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return float(ms) / 1000
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        when = email.utils.parsedate_to_datetime(value) if value else None
        return max(when.timestamp() - time.time(), 0.0) if when is not None else None


def _error_message(body: str) -> str:
    try:
        data = json.loads(body)
        message = data["error"]["message"]
        return str(message)
    except (ValueError, KeyError, TypeError):
        text = body.strip()
        return text[:300] + ("…" if len(text) > 300 else "") if text else "(empty body)"


def status_error(
    provider: ProviderConfig, status: int, headers: Mapping[str, str], body: str
) -> ModelError:
    said = _error_message(body)
    if status in (401, 403):
        return ModelError(
            "auth",
            f"{provider.label} refused the API key (HTTP {status}): {said}. Check the key in "
            f"Client ▸ Model providers… (headless: ${KEY_ENV[provider.kind]})",
            status=status,
        )
    if status == 429:
        after = _retry_after(headers)
        wait = f"; it asks to retry after {after:g} s" if after is not None else ""
        return ModelError(
            "rate-limited",
            f"{provider.label} is rate-limiting (HTTP 429): {said}{wait}",
            status=status,
            retry_after=after,
        )
    if status >= 500:
        return ModelError(
            "server", f"{provider.label} failed (HTTP {status}): {said}", status=status
        )
    return ModelError(
        "rejected", f"{provider.label} rejected the request (HTTP {status}): {said}", status=status
    )


async def _send(
    sdk: ModuleType, provider: ProviderConfig, key: str | None, body: dict[str, Any], timeout: float
) -> Any:
    """The raw response (an httpx Response of the SDK's flavour)."""
    if provider.kind == "openai":
        client = sdk.AsyncOpenAI(
            base_url=provider.url, api_key=key or "none", max_retries=0, timeout=timeout
        )
        # A local server needs no key: send no Authorization header at all.
        extra = {} if key else {"Authorization": sdk.Omit()}
        async with client:
            raw = await client.chat.completions.with_raw_response.create(
                **body, extra_headers=extra
            )
            return raw.http_response
    client = sdk.AsyncAnthropic(
        base_url=provider.url, api_key=key or "none", max_retries=0, timeout=timeout
    )
    extra = {} if key else {"Authorization": sdk.Omit(), "X-Api-Key": sdk.Omit()}
    async with client:
        raw = await client.messages.with_raw_response.create(**body, extra_headers=extra)
        return raw.http_response


async def call_model(
    provider: ProviderConfig,
    key: str | None,
    wire: WireRequest,
    *,
    timeout: float,
    on_exchange: ExchangeSink | None = None,
) -> ModelReply:
    """Send `wire` and read the reply; every failure is a `ModelError` with its sentence."""
    sdk = await _sdk_loaded(provider.kind)
    model = str(wire.body.get("model", ""))
    started = time.monotonic()
    request_body = json.dumps(wire.body, ensure_ascii=False)
    url = provider.url

    def elapsed(response: Any = None) -> float:
        """The HTTP exchange's own time when the client measured it (not the SDK's setup)."""
        try:
            return float(response.elapsed.total_seconds())
        except (AttributeError, RuntimeError, TypeError):
            return time.monotonic() - started

    def report(response: Any = None, request: Any = None, error: str = "") -> None:
        if on_exchange is None:
            return
        req = request if request is not None else getattr(response, "request", None)
        on_exchange(
            ModelExchange(
                provider=provider.kind,
                url=str(req.url) if req is not None else url,
                model=model,
                request_headers=redacted_headers(req.headers) if req is not None else {},
                request_body=(
                    req.content.decode("utf-8", "replace") if req is not None else request_body
                ),
                status=response.status_code if response is not None else None,
                response_headers=dict(response.headers) if response is not None else {},
                response_body=response.text if response is not None else "",
                latency=elapsed(response) if response is not None else time.monotonic() - started,
                error=error,
            )
        )

    try:
        response = await _send(sdk, provider, key, wire.body, timeout)
    except sdk.APITimeoutError as exc:
        error = ModelError("timeout", f"no answer from {url} within {timeout:g} s")
        report(request=getattr(exc, "request", None), error=str(error))
        raise error from exc
    except sdk.APIConnectionError as exc:
        cause = exc.__cause__ or exc
        error = ModelError("connection", f"could not reach {url}: {cause}")
        report(request=getattr(exc, "request", None), error=str(error))
        raise error from exc
    except sdk.APIStatusError as exc:
        response = exc.response
        error = status_error(provider, response.status_code, response.headers, response.text)
        report(response, error=str(error))
        raise error from exc
    if response.status_code != 200:
        error = status_error(provider, response.status_code, response.headers, response.text)
        report(response, error=str(error))
        raise error
    try:
        data = json.loads(response.text)
    except ValueError as exc:
        error = ModelError("garbage", f"{provider.label} answered with something that is not JSON")
        report(response, error=str(error))
        raise error from exc
    try:
        reply = openai_reply(data) if provider.kind == "openai" else anthropic_reply(data)
    except ModelError as error:
        report(response, error=str(error))
        raise
    report(response)
    return replace(reply, latency=elapsed(response))
