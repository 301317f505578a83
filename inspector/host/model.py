"""The real `ChatModel`: a configured provider, over `inspector.features.providers.chat.chat`
(OpenAI-compatible or Anthropic, streamed when a text sink is given). Every provider failure
is a `ModelError` with a sentence; the engine ends the turn with it."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.features.providers.chat import ExchangeSink, chat
from inspector.features.providers.chat_types import ChatReply, ChatRequest, TextSink
from inspector.features.providers.providers import ProviderConfig

__all__ = ["ProviderModel"]


@dataclass(slots=True)
class ProviderModel:
    """A `ChatModel` asking `provider` with `key` (None: a local server needs none), each
    request bounded by `timeout` seconds; `on_exchange` hears each HTTP exchange (the
    traffic log's model rows)."""

    provider: ProviderConfig
    key: str | None
    timeout: float = 120.0
    on_exchange: ExchangeSink | None = None

    async def __call__(self, request: ChatRequest, on_text: TextSink | None = None) -> ChatReply:
        return await chat(
            self.provider,
            self.key,
            request,
            timeout=self.timeout,
            on_text=on_text,
            on_exchange=self.on_exchange,
        )
