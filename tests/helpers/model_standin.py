"""The deterministic model stand-in (tests/servers/model_standin) in-process, on a thread:
`with model_standin(script) as standin:` gives `standin.base_url` (both wire formats),
`standin.received` (each request, its body and the rule that answered) and
`provider_for(standin, kind)`, a ProviderConfig pointed at it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from inspector.features.providers.names import ProviderKind
from inspector.features.providers.providers import ModelEntry, ProviderConfig
from tests.servers.model_standin.script import Script
from tests.servers.model_standin.server import Received, StandIn

__all__ = ["Received", "StandIn", "model_standin", "provider_for"]


@contextmanager
def model_standin(script: Script | dict[str, Any] | str | Path | None = None) -> Iterator[StandIn]:
    standin = StandIn(script if script is not None else {"rules": []}).start()
    try:
        yield standin
    finally:
        standin.close()


def provider_for(standin: StandIn, kind: ProviderKind = "openai", **kw: Any) -> ProviderConfig:
    return ProviderConfig(
        kind,
        name=f"stand-in ({kind})",
        base_url=standin.base_url,
        models=[ModelEntry("standin")],
        **kw,
    )
