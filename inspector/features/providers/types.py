"""What a model call gives back and what can go wrong with it, for the dialog, the CLI and
the traffic log alike."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["ErrorKind", "ModelError", "ModelExchange", "ModelReply", "Usage", "WireRequest"]

ErrorKind = Literal[
    "not-installed",  # the optional SDK is missing
    "connection",  # the provider is down or unreachable
    "timeout",  # slower than we may wait
    "rate-limited",  # 429 (retry_after from the header when given)
    "auth",  # 401/403: a wrong or missing key
    "rejected",  # 400/404/422: the provider refused the request (max_tokens, model, ...)
    "server",  # 5xx, 529 overloaded
    "garbage",  # an answer that is not the API's JSON
    "no-model",  # nothing configured to answer with
]


class ModelError(Exception):
    """A model call that failed, with a sentence a person understands."""

    def __init__(
        self,
        kind: ErrorKind,
        message: str,
        *,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.status = status
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        return self.kind in ("connection", "timeout", "rate-limited", "server", "garbage")


@dataclass(frozen=True, slots=True)
class Usage:
    input_tokens: int | None = None
    output_tokens: int | None = None

    def describe(self) -> str:
        def n(v: int | None) -> str:
            return "?" if v is None else f"{v:,}"

        return f"{n(self.input_tokens)} tokens in, {n(self.output_tokens)} out"


@dataclass(frozen=True, slots=True)
class ModelReply:
    """The provider's answer in MCP terms: content blocks, stopReason and model from it."""

    blocks: list[dict[str, Any]]
    stop_reason: str
    model: str
    usage: Usage = field(default_factory=Usage)
    latency: float = 0.0  # seconds: the HTTP exchange, as the client measured it


@dataclass(frozen=True, slots=True)
class ModelExchange:
    """One HTTP exchange with a model provider, as the traffic log and session files keep it.

    Secrets are already redacted (the Authorization and x-api-key headers)."""

    provider: str  # "openai" | "anthropic"
    url: str
    model: str
    request_headers: dict[str, str]
    request_body: str
    status: int | None = None
    response_headers: dict[str, str] = field(default_factory=dict)
    response_body: str = ""
    latency: float = 0.0  # seconds
    error: str = ""  # set when the exchange failed

    def to_json(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "url": self.url,
            "model": self.model,
            "requestHeaders": self.request_headers,
            "requestBody": self.request_body,
            "status": self.status,
            "responseHeaders": self.response_headers,
            "responseBody": self.response_body,
            "latencyMs": round(self.latency * 1000, 1),
            "error": self.error,
        }


@dataclass(slots=True)
class WireRequest:
    """The body sent to a provider, and what was changed or left out to make it fit (said
    plainly to the person: a clamped maxTokens, audio a text-only model cannot take, ...)."""

    body: dict[str, Any]
    notes: list[str] = field(default_factory=list)
