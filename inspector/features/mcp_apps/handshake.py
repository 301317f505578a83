"""What the host says about itself in answer to `ui/initialize`: the negotiated version,
the host's capabilities and its context (theme, display mode, locale, container size, the
tool call that made the app)."""

from __future__ import annotations

import locale as _locale
import time
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from inspector.features.mcp_apps.meta import CspDeclaration

__all__ = [
    "HOST_INFO",
    "LATEST_VERSION",
    "SUPPORTED_VERSIONS",
    "HostContext",
    "host_capabilities",
    "negotiate",
]

LATEST_VERSION: Final = "2026-01-26"
SUPPORTED_VERSIONS: Final = (LATEST_VERSION,)
HOST_INFO: Final = {"name": "mcp-inspector-qt", "version": "0.1.0"}
_MODALITIES: Final[dict[str, dict[str, Any]]] = {
    "text": {},
    "image": {},
    "audio": {},
    "resource": {},
    "resourceLink": {},
}


def negotiate(asked: object) -> str:
    """The version the host answers with: the app's when supported, else our latest (the
    app then decides whether it can go on)."""
    return asked if isinstance(asked, str) and asked in SUPPORTED_VERSIONS else LATEST_VERSION


def _system_locale() -> str:
    name = _locale.getlocale()[0] or "en_US"
    return name.replace("_", "-")


def _time_zone() -> str:
    try:
        from pathlib import Path

        link = Path("/etc/localtime").resolve()
        parts = link.parts
        if "zoneinfo" in parts:
            return "/".join(parts[parts.index("zoneinfo") + 1 :])
    except OSError:
        pass
    return time.tzname[0] or "UTC"


@dataclass(slots=True)
class HostContext:
    theme: Literal["light", "dark"] = "light"
    width: int = 800
    max_height: int = 600
    locale: str = field(default_factory=_system_locale)
    time_zone: str = field(default_factory=_time_zone)
    styles: dict[str, str] = field(default_factory=dict)  # CSS variables
    tool: dict[str, Any] | None = None  # the tool's definition
    call_id: str | int | None = None  # the tools/call request that made the app

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "theme": self.theme,
            "displayMode": "inline",
            "availableDisplayModes": ["inline"],
            "containerDimensions": {"width": self.width, "maxHeight": self.max_height},
            "locale": self.locale,
            "timeZone": self.time_zone,
            "userAgent": f"{HOST_INFO['name']}/{HOST_INFO['version']}",
            "platform": "desktop",
            "deviceCapabilities": {"touch": False, "hover": True},
        }
        if self.styles:
            out["styles"] = {"variables": dict(self.styles)}
        if self.tool is not None:
            info: dict[str, Any] = {"tool": self.tool}
            if self.call_id is not None:
                info["id"] = self.call_id
            out["toolInfo"] = info
        return out


def host_capabilities(csp: CspDeclaration) -> dict[str, Any]:
    return {
        "openLinks": {},
        "serverTools": {},
        "serverResources": {},
        "logging": {},
        "message": dict(_MODALITIES),
        "updateModelContext": {**_MODALITIES, "structuredContent": {}},
        # What the host enforces: the declared domains that passed validation, no
        # camera/microphone/geolocation/clipboard.
        "sandbox": {"permissions": {}, "csp": csp.as_json()},
    }
