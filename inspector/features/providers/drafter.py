"""A sampling request answered by a model: choose it, send the request, make the
CreateMessageResult a person approves (or, headless, the one that is sent).

A 429 with a retry-after is waited out when the wait still fits before the deadline (the MCP
request's own timeout); otherwise the error is given back at once, never left hanging.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.features.asks.sampling import DEFAULT_MODEL, SamplingRequest
from inspector.features.providers.choice import ModelChoice, choose_model
from inspector.features.providers.client import ExchangeSink, call_model
from inspector.features.providers.providers import MappingRule, ProviderConfig
from inspector.features.providers.types import ModelError, ModelReply, WireRequest
from inspector.features.providers.wire_anthropic import anthropic_request
from inspector.features.providers.wire_openai import openai_request

__all__ = ["Draft", "Drafter", "result_from_reply", "wire_request"]

MARGIN: Final = 0.5  # seconds kept before the deadline to hand the answer over
NO_MODEL: Final = (
    "no model is configured: add a model provider in Client ▸ Model providers… "
    "(headless: --sampling-provider, --sampling-model)"
)


@dataclass(frozen=True, slots=True)
class Draft:
    choice: ModelChoice
    reply: ModelReply
    result: dict[str, Any]  # the CreateMessageResult
    notes: list[str] = field(default_factory=list)
    latency: float = 0.0  # seconds, the last attempt
    attempts: int = 1

    def summary(self) -> str:
        return (
            f"{self.reply.model or self.choice.model.name}: {self.reply.usage.describe()}, "
            f"{self.latency * 1000:.0f} ms"
        )


def wire_request(request: SamplingRequest, choice: ModelChoice) -> WireRequest:
    make = openai_request if choice.provider.kind == "openai" else anthropic_request
    return make(request, choice.provider, choice.model)


def result_from_reply(reply: ModelReply, fallback_model: str) -> dict[str, Any]:
    """CreateMessageResult: model and stopReason from the provider; one block as an object,
    several texts joined, text with tool uses as a list (spec 2025-11-25 allows arrays)."""
    blocks = reply.blocks
    content: Any
    if len(blocks) == 1:
        content = blocks[0]
    elif all(b.get("type") == "text" for b in blocks):
        content = {"type": "text", "text": "\n".join(str(b.get("text", "")) for b in blocks)}
    else:
        content = list(blocks)
    result: dict[str, Any] = {
        "role": "assistant",
        "content": content,
        "model": reply.model or fallback_model or DEFAULT_MODEL,
    }
    if reply.stop_reason:
        result["stopReason"] = reply.stop_reason
    return result


class Drafter:
    def __init__(
        self,
        providers: Sequence[ProviderConfig],
        key_for: Callable[[ProviderConfig], str | None],
        *,
        rules: Sequence[MappingRule] = (),
        on_exchange: ExchangeSink | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rate_limit_retries: int = 2,
        max_wait: float = math.inf,
    ) -> None:
        """`max_wait`: the longest retry-after waited out by itself (the dialog keeps it
        short: the person decides to retry); the deadline bounds it too."""
        self.providers = list(providers)
        self.rules = list(rules)
        self._key_for = key_for
        self.on_exchange = on_exchange
        self._sleep = sleep
        self.rate_limit_retries = rate_limit_retries
        self.max_wait = max_wait

    def choose(self, request: SamplingRequest) -> ModelChoice | None:
        return choose_model(request, self.providers, self.rules)

    def models(self) -> list[ModelChoice]:
        """Every configured model, for the dialog's model picker."""
        return [ModelChoice(p, m, "picked by hand") for p in self.providers for m in p.models]

    async def draft(
        self,
        request: SamplingRequest,
        *,
        choice: ModelChoice | None = None,
        deadline: float | None = None,
    ) -> Draft:
        """`deadline`: time.monotonic() by which the answer must be back (None: the provider's
        timeout alone)."""
        choice = choice or self.choose(request)
        if choice is None:
            raise ModelError("no-model", NO_MODEL)
        wire = wire_request(request, choice)
        key = self._key_for(choice.provider)
        attempts = 0
        while True:
            attempts += 1
            timeout = choice.provider.timeout
            if deadline is not None:
                left = deadline - time.monotonic() - MARGIN
                if left <= 0:
                    raise ModelError("timeout", "no time left before the MCP request times out")
                timeout = min(timeout, left)
            try:
                reply = await call_model(
                    choice.provider, key, wire, timeout=timeout, on_exchange=self.on_exchange
                )
            except ModelError as exc:
                if not self._wait_fits(exc, attempts, deadline):
                    raise
                assert exc.retry_after is not None
                await self._sleep(exc.retry_after)
                continue
            result = result_from_reply(reply, choice.model.name)
            return Draft(choice, reply, result, wire.notes, reply.latency, attempts)

    def _wait_fits(self, exc: ModelError, attempts: int, deadline: float | None) -> bool:
        if exc.kind != "rate-limited" or exc.retry_after is None:
            return False
        if attempts > self.rate_limit_retries or exc.retry_after > self.max_wait:
            return False
        if deadline is None:
            return True
        return time.monotonic() + exc.retry_after + MARGIN < deadline
