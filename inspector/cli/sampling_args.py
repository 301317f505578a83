"""`--sampling-provider openai|anthropic --sampling-base-url URL --sampling-model NAME`: answer
the server's sampling requests through a model, headless (`cli` and `replay`).

Giving the flags is the consent: each sampling request goes to the model and its answer
back to the server, with a line on stderr saying which model answered, why, and what it
cost. The key comes from the environment variable named in --help, else the keyring entry
of a saved provider of the same kind and URL; none (a local server) is fine.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from inspector.cli.errors import UsageError, diag

if TYPE_CHECKING:  # the model machinery loads only when the flags are given (start-up)
    from inspector.core.server_connection import Responder, ServerConnection
    from inspector.features.providers.providers import ProviderConfig
    from inspector.features.providers.responder import ModelResponder
    from inspector.features.providers.types import ModelExchange

__all__ = ["ModelExchanges", "sampling_responder"]


class ModelExchanges:
    """Where the run's model exchanges go: the session's traffic (so a --record file keeps
    them as `model` lines, the key redacted) and, with --verbose, a line on stderr. The
    session is given once it exists (the responder is made before it)."""

    def __init__(self, verbose: bool = False) -> None:
        self.session: ServerConnection | None = None
        self.verbose = verbose
        self.count = 0

    def __call__(self, exchange: ModelExchange) -> None:
        from inspector.features.providers.rows import exchange_records

        self.count += 1
        if self.session is not None:
            for record in exchange_records(exchange):
                self.session.report_side_traffic(record)
        if self.verbose:
            status = exchange.status if exchange.status is not None else exchange.error
            diag(
                f"model: POST {exchange.url} ({exchange.model}) -> {status}, "
                f"{exchange.latency * 1000:.0f} ms"
            )


def _provider(ns: argparse.Namespace) -> ProviderConfig | None:
    kind = getattr(ns, "sampling_provider", None)
    base_url = getattr(ns, "sampling_base_url", None)
    model = getattr(ns, "sampling_model", None)
    if kind is None:
        if base_url or model:
            raise UsageError("--sampling-base-url and --sampling-model need --sampling-provider")
        return None
    from inspector.features.providers.client import INSTALL_HINT, sdk_available
    from inspector.features.providers.providers import ModelEntry, ProviderConfig

    if not model:
        raise UsageError("--sampling-provider needs --sampling-model NAME")
    if base_url and not base_url.startswith(("http://", "https://")):
        raise UsageError(f"--sampling-base-url {base_url!r} is not an http(s) URL")
    limit = getattr(ns, "sampling_max_tokens", None)
    if limit is not None and limit < 1:
        raise UsageError("--sampling-max-tokens must be at least 1")
    if not sdk_available(kind):
        raise UsageError(f"--sampling-provider {kind}: the {kind!r} SDK is missing: {INSTALL_HINT}")
    return ProviderConfig(
        kind=kind,
        base_url=(base_url or "").rstrip("/"),
        models=[ModelEntry(model, max_output_tokens=limit)],
        id="cli",
    )


def _key(provider: ProviderConfig) -> str | None:
    from inspector.features.providers.providers import ModelSettings, provider_key
    from inspector.storage.secrets import SecretStore

    key = provider_key(None, provider, env=True)
    if key:
        return key
    saved = ModelSettings.load()
    for other in saved.providers:
        if other.kind == provider.kind and other.url.rstrip("/") == provider.url:
            return provider_key(SecretStore(), other)
    return None


def sampling_responder(
    ns: argparse.Namespace,
    fallback: Responder,
    *,
    request_timeout: float,
    on_exchange: Callable[[ModelExchange], None] | None = None,
) -> ModelResponder | None:
    """The responder for the run's --sampling-* flags, or None when they are not given."""
    provider = _provider(ns)
    if provider is None:
        return None
    from inspector.features.providers.drafter import Drafter
    from inspector.features.providers.responder import ModelResponder

    key = _key(provider)
    drafter = Drafter([provider], lambda _p: key, on_exchange=on_exchange)

    return ModelResponder(drafter, fallback, request_timeout=request_timeout, on_note=diag)
