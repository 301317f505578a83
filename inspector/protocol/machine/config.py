"""Connection configuration and the constants of the protocol core."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from inspector.protocol.wire.versions import LATEST_LEGACY, LATEST_MODERN, EraSetting

META_PREFIX: Final = "io.modelcontextprotocol/"
META_VERSION: Final = META_PREFIX + "protocolVersion"
META_CLIENT_INFO: Final = META_PREFIX + "clientInfo"
META_CLIENT_CAPS: Final = META_PREFIX + "clientCapabilities"
META_LOG_LEVEL: Final = META_PREFIX + "logLevel"
META_SERVER_INFO: Final = META_PREFIX + "serverInfo"
META_SUBSCRIPTION_ID: Final = META_PREFIX + "subscriptionId"

# How many given-up / answered ids we remember to recognise late and duplicate answers.
MEMORY: Final = 4096
# MRTR state-only rounds: back off 50 ms doubling to 250 ms (as the SDKs do).
STATE_ONLY_BACKOFF: Final = (0.05, 0.1, 0.2, 0.25)

# spec 2026-07-28 MRTR "Supported Requests": the only methods that may answer input_required.
MRTR_METHODS: Final = frozenset({"tools/call", "prompts/get", "resources/read"})

# Which server capability each method needs (spec: capability negotiation).
CAPABILITY_FOR: Final[dict[str, str]] = {
    "tools/list": "tools",
    "tools/call": "tools",
    "resources/list": "resources",
    "resources/templates/list": "resources",
    "resources/read": "resources",
    "resources/subscribe": "resources.subscribe",
    "resources/unsubscribe": "resources.subscribe",
    "prompts/list": "prompts",
    "prompts/get": "prompts",
    "logging/setLevel": "logging",
    "completion/complete": "completions",
}


# MCP Apps (ext-apps, `EXTENSION_ID`): a client that renders `ui://` apps declares it in
# `capabilities.extensions` with the MIME types it renders. The 2026-07-28 schema names the
# `extensions` field; the older schemas leave ClientCapabilities open to more members, and
# the ext-apps servers read `capabilities.extensions` whatever the version, so both eras
# send the same object.
UI_EXTENSION: Final = META_PREFIX + "ui"
UI_APP_MIME: Final = "text/html;profile=mcp-app"


def ui_extension() -> dict[str, Any]:
    """The `extensions` entry of a client that renders MCP Apps (a fresh dict)."""
    return {UI_EXTENSION: {"mimeTypes": [UI_APP_MIME]}}


def _default_capabilities() -> dict[str, Any]:
    return {
        "sampling": {"tools": {}},
        "elicitation": {"form": {}, "url": {}},
        "roots": {"listChanged": True},
    }


def _default_client_info() -> dict[str, Any]:
    from inspector import __version__

    return {"name": "mcp-inspector-qt", "title": "MCP Inspector (Qt)", "version": __version__}


@dataclass
class ClientConfig:
    era: EraSetting = EraSetting.LEGACY
    client_info: dict[str, Any] = field(default_factory=_default_client_info)
    capabilities: dict[str, Any] = field(default_factory=_default_capabilities)
    legacy_version: str = LATEST_LEGACY  # offered in initialize
    modern_version: str = LATEST_MODERN
    request_timeout: float | None = 60.0  # per request, reset on progress
    max_total_timeout: float | None = 600.0  # hard cap, progress or not
    reset_timeout_on_progress: bool = True
    auto_probe_timeout: float = 5.0  # auto era: how long server/discover may take
    max_mrtr_rounds: int = 10
    log_level: str | None = None  # modern: sent in every request's _meta
