"""Which tools declare an app, and the app resource as read from the server.

A tool declares its app with `_meta.ui.resourceUri` (the older flat key
`_meta["ui/resourceUri"]` is read too); the resource must be a `ui://` URI whose content
has the MIME type `text/html;profile=mcp-app`. Its `_meta.ui` carries the CSP domains, the
permissions and the border preference (read from the content item, the listing's entry as
the fallback).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = [
    "APP_MIME",
    "AppResource",
    "AppResourceError",
    "CspDeclaration",
    "app_resource_uri",
    "app_visibility",
    "parse_app_resource",
]

APP_MIME: Final = "text/html;profile=mcp-app"
MAX_HTML: Final = 20 * 1024 * 1024  # an app page over 20 MiB is refused, not rendered


class AppResourceError(ValueError):
    """The app resource cannot be rendered; the message says why (for the user)."""


@dataclass(frozen=True, slots=True)
class CspDeclaration:
    """`_meta.ui.csp` of the resource: origins per directive (strings as declared)."""

    connect: tuple[str, ...] = ()
    resource: tuple[str, ...] = ()
    frame: tuple[str, ...] = ()
    base_uri: tuple[str, ...] = ()

    def as_json(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for key, values in (
            ("connectDomains", self.connect),
            ("resourceDomains", self.resource),
            ("frameDomains", self.frame),
            ("baseUriDomains", self.base_uri),
        ):
            if values:
                out[key] = list(values)
        return out


@dataclass(frozen=True, slots=True)
class AppResource:
    uri: str
    html: str
    csp: CspDeclaration = CspDeclaration()
    permissions: dict[str, Any] = field(default_factory=dict)
    prefers_border: bool | None = None
    warnings: tuple[str, ...] = ()  # e.g. a declared domain that was ignored


def _ui_meta(raw: object) -> dict[str, Any]:
    if not isinstance(raw, dict):
        return {}
    meta = raw.get("_meta")
    if not isinstance(meta, dict):
        return {}
    ui = meta.get("ui")
    return ui if isinstance(ui, dict) else {}


def app_resource_uri(tool: dict[str, Any]) -> str | None:
    """The `ui://` resource a tool declares, or None (also for a non-`ui://` URI)."""
    uri = _ui_meta(tool).get("resourceUri")
    if uri is None:
        meta = tool.get("_meta")
        uri = meta.get("ui/resourceUri") if isinstance(meta, dict) else None
    if isinstance(uri, str) and uri.startswith("ui://") and len(uri) > len("ui://"):
        return uri
    return None


def app_visibility(tool: dict[str, Any]) -> tuple[str, ...]:
    """Who may call the tool: ("model", "app") by default."""
    value = _ui_meta(tool).get("visibility")
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return ("model", "app")


def _domains(csp: dict[str, Any], key: str, warnings: list[str]) -> tuple[str, ...]:
    value = csp.get(key)
    if value is None:
        return ()
    if not isinstance(value, list):
        warnings.append(f"_meta.ui.csp.{key} is not a list; ignored")
        return ()
    kept: list[str] = []
    for item in value:
        if isinstance(item, str) and item.strip():
            kept.append(item.strip())
        else:
            warnings.append(f"_meta.ui.csp.{key}: {item!r} is not an origin; ignored")
    return tuple(kept)


def _mime_ok(mime: object) -> bool:
    if not isinstance(mime, str):
        return False
    parts = [p.strip().lower() for p in mime.split(";")]
    return parts[0] == "text/html" and "profile=mcp-app" in parts[1:]


def parse_app_resource(
    uri: str, result: dict[str, Any], listing_entry: dict[str, Any] | None = None
) -> AppResource:
    """The app from a resources/read result. Raises AppResourceError with the reason."""
    contents = result.get("contents")
    if not isinstance(contents, list) or not contents:
        raise AppResourceError(f"resources/read {uri} returned no contents")
    item = next((c for c in contents if isinstance(c, dict) and c.get("uri") == uri), None)
    if item is None:
        item = next((c for c in contents if isinstance(c, dict)), None)
    if item is None:
        raise AppResourceError(f"resources/read {uri}: no content item is an object")
    mime = item.get("mimeType")
    if not _mime_ok(mime):
        raise AppResourceError(
            f"{uri} has the MIME type {mime!r}, not {APP_MIME!r}: it is not an MCP App"
        )
    html: str
    if isinstance(item.get("text"), str):
        html = item["text"]
    elif isinstance(item.get("blob"), str):
        try:
            html = base64.b64decode(item["blob"], validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError) as exc:
            raise AppResourceError(f"{uri}: the blob is not base64 UTF-8 HTML ({exc})") from exc
    else:
        raise AppResourceError(f"{uri}: the content has neither text nor blob")
    if len(html) > MAX_HTML:
        raise AppResourceError(f"{uri}: the page is {len(html):,} characters, over the 20 MiB cap")
    ui = _ui_meta(item) or _ui_meta(listing_entry)
    warnings: list[str] = []
    raw_csp = ui.get("csp")
    csp = CspDeclaration()
    if isinstance(raw_csp, dict):
        csp = CspDeclaration(
            connect=_domains(raw_csp, "connectDomains", warnings),
            resource=_domains(raw_csp, "resourceDomains", warnings),
            frame=_domains(raw_csp, "frameDomains", warnings),
            base_uri=_domains(raw_csp, "baseUriDomains", warnings),
        )
    elif raw_csp is not None:
        warnings.append("_meta.ui.csp is not an object; ignored (no network)")
    permissions = ui.get("permissions")
    border = ui.get("prefersBorder")
    return AppResource(
        uri=uri,
        html=html,
        csp=csp,
        permissions=permissions if isinstance(permissions, dict) else {},
        prefers_border=border if isinstance(border, bool) else None,
        warnings=tuple(warnings),
    )
