"""Protocol versions, the two eras, and what each version can say.

The feature table is written out by hand (the app must not read the spec
folder at run time); tests/protocol/wire/test_versions_vs_schema.py checks it against the
official schema.json of every version.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

__all__ = [
    "ALL_VERSIONS",
    "LATEST_LEGACY",
    "LATEST_MODERN",
    "LEGACY_VERSIONS",
    "MODERN_VERSIONS",
    "Era",
    "EraSetting",
    "VersionFeatures",
    "era_of",
    "features",
    "is_supported",
]


class Era(enum.StrEnum):
    LEGACY = "legacy"
    MODERN = "modern"


class EraSetting(enum.StrEnum):
    """Per connection. `legacy` is the default: a debugger must not probe behind the user's back."""

    LEGACY = "legacy"
    AUTO = "auto"
    MODERN = "modern"


LEGACY_VERSIONS: Final = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_VERSIONS: Final = ("2026-07-28",)
ALL_VERSIONS: Final = LEGACY_VERSIONS + MODERN_VERSIONS
LATEST_LEGACY: Final = LEGACY_VERSIONS[-1]
LATEST_MODERN: Final = MODERN_VERSIONS[-1]


def is_supported(version: str) -> bool:
    return version in ALL_VERSIONS


def era_of(version: str) -> Era:
    """Versions are ISO dates, so string order is date order; unknown future dates are modern."""
    return Era.LEGACY if version <= LATEST_LEGACY else Era.MODERN


_LEGACY_CLIENT_REQUESTS: Final = frozenset(
    {
        "initialize",
        "ping",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "resources/subscribe",
        "resources/unsubscribe",
        "prompts/list",
        "prompts/get",
        "tools/list",
        "tools/call",
        "logging/setLevel",
        "completion/complete",
    }
)
_TASK_METHODS: Final = frozenset({"tasks/get", "tasks/result", "tasks/cancel", "tasks/list"})
_LEGACY_SERVER_NOTIFICATIONS: Final = frozenset(
    {
        "notifications/cancelled",
        "notifications/progress",
        "notifications/resources/list_changed",
        "notifications/resources/updated",
        "notifications/prompts/list_changed",
        "notifications/tools/list_changed",
        "notifications/message",
    }
)
_LEGACY_CLIENT_NOTIFICATIONS: Final = frozenset(
    {
        "notifications/cancelled",
        "notifications/initialized",
        "notifications/progress",
        "notifications/roots/list_changed",
    }
)


@dataclass(frozen=True, slots=True)
class VersionFeatures:
    """What one protocol version defines. Used for capability gating and for templates."""

    version: str
    era: Era
    client_requests: frozenset[str]
    # Requests the server sends (legacy) or embeds as inputRequests (modern).
    server_requests: frozenset[str]
    client_notifications: frozenset[str]
    server_notifications: frozenset[str]
    content_types: frozenset[str]
    json_rpc_batches: bool = False
    tool_annotations: bool = False
    structured_content: bool = False
    titles: bool = False
    icons: bool = False
    elicitation_url_mode: bool = False
    completions_capability: bool = False

    def knows_client_request(self, method: str) -> bool:
        return method in self.client_requests


_FEATURES: Final[dict[str, VersionFeatures]] = {
    "2024-11-05": VersionFeatures(
        version="2024-11-05",
        era=Era.LEGACY,
        client_requests=_LEGACY_CLIENT_REQUESTS,
        server_requests=frozenset({"ping", "sampling/createMessage", "roots/list"}),
        client_notifications=_LEGACY_CLIENT_NOTIFICATIONS,
        server_notifications=_LEGACY_SERVER_NOTIFICATIONS,
        content_types=frozenset({"text", "image", "resource"}),
    ),
    "2025-03-26": VersionFeatures(
        version="2025-03-26",
        era=Era.LEGACY,
        client_requests=_LEGACY_CLIENT_REQUESTS,
        server_requests=frozenset({"ping", "sampling/createMessage", "roots/list"}),
        client_notifications=_LEGACY_CLIENT_NOTIFICATIONS,
        server_notifications=_LEGACY_SERVER_NOTIFICATIONS,
        content_types=frozenset({"text", "image", "audio", "resource"}),
        json_rpc_batches=True,
        tool_annotations=True,
        completions_capability=True,
    ),
    "2025-06-18": VersionFeatures(
        version="2025-06-18",
        era=Era.LEGACY,
        client_requests=_LEGACY_CLIENT_REQUESTS,
        server_requests=frozenset(
            {"ping", "sampling/createMessage", "roots/list", "elicitation/create"}
        ),
        client_notifications=_LEGACY_CLIENT_NOTIFICATIONS,
        server_notifications=_LEGACY_SERVER_NOTIFICATIONS,
        content_types=frozenset({"text", "image", "audio", "resource_link", "resource"}),
        tool_annotations=True,
        structured_content=True,
        titles=True,
        completions_capability=True,
    ),
    "2025-11-25": VersionFeatures(
        version="2025-11-25",
        era=Era.LEGACY,
        client_requests=_LEGACY_CLIENT_REQUESTS | _TASK_METHODS,
        server_requests=frozenset(
            {"ping", "sampling/createMessage", "roots/list", "elicitation/create"} | _TASK_METHODS
        ),
        client_notifications=_LEGACY_CLIENT_NOTIFICATIONS | {"notifications/tasks/status"},
        server_notifications=_LEGACY_SERVER_NOTIFICATIONS
        | {"notifications/tasks/status", "notifications/elicitation/complete"},
        content_types=frozenset({"text", "image", "audio", "resource_link", "resource"}),
        tool_annotations=True,
        structured_content=True,
        titles=True,
        icons=True,
        elicitation_url_mode=True,
        completions_capability=True,
    ),
    "2026-07-28": VersionFeatures(
        version="2026-07-28",
        era=Era.MODERN,
        client_requests=frozenset(
            {
                "server/discover",
                "resources/list",
                "resources/templates/list",
                "resources/read",
                "subscriptions/listen",
                "prompts/list",
                "prompts/get",
                "tools/list",
                "tools/call",
                "completion/complete",
            }
        ),
        server_requests=frozenset({"sampling/createMessage", "roots/list", "elicitation/create"}),
        client_notifications=frozenset({"notifications/cancelled"}),
        server_notifications=frozenset(
            {
                "notifications/cancelled",
                "notifications/progress",
                "notifications/resources/list_changed",
                "notifications/subscriptions/acknowledged",
                "notifications/resources/updated",
                "notifications/prompts/list_changed",
                "notifications/tools/list_changed",
                "notifications/message",
            }
        ),
        content_types=frozenset({"text", "image", "audio", "resource_link", "resource"}),
        tool_annotations=True,
        structured_content=True,
        titles=True,
        icons=True,
        elicitation_url_mode=True,
        completions_capability=True,
    ),
}


def features(version: str) -> VersionFeatures:
    """Features of a supported version; an unknown version gets its era's newest table."""
    if version in _FEATURES:
        return _FEATURES[version]
    return _FEATURES[LATEST_LEGACY if era_of(version) is Era.LEGACY else LATEST_MODERN]
