"""What the explorer and the workspace show for a catalog item, Qt-free.

Badges for tool annotations (with the spec's implied defaults), the mirrored x-mcp-header
headers, one-line summaries per kind, human sizes, resource annotations, icons given as
data: URIs (remote icons are never fetched), and the pretty JSON sections of the Details
view. Everything here returns plain strings and bytes; widgets only lay them out.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias

from inspector.features.catalog.lists import CatalogItem
from inspector.features.mcp_apps.meta import app_resource_uri
from inspector.features.mcp_models import Icon, Tool, ToolAnnotations
from inspector.protocol.wire.http_headers import parse_tool_headers

__all__ = [
    "Badge",
    "Tone",
    "annotation_badges",
    "data_icon",
    "detail_sections",
    "human_size",
    "item_badges",
    "mirrored_headers",
    "pretty_json",
    "resource_annotations",
    "secondary_text",
    "tool_badges",
]

Tone: TypeAlias = Literal["ok", "warn", "error", "info", "muted"]

MAX_ICON_BYTES: Final = 256 * 1024
_ICON_TYPES: Final = ("image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp")


@dataclass(frozen=True)
class Badge:
    label: str
    tooltip: str
    tone: Tone
    implied: bool = False  # a default the spec implies (the server did not say)


def tool_badges(tool: Tool) -> list[Badge]:
    """Annotation badges. spec ToolAnnotations: absent hints mean readOnly false,
    destructive true, idempotent false, openWorld true (destructive and idempotent only
    matter when the tool is not read-only). Only hints that hold are shown; implied ones
    are marked as such."""
    ann = tool.annotations or ToolAnnotations()
    out: list[Badge] = []
    if ann.read_only:
        out.append(Badge("read-only", "readOnlyHint: true — does not modify its environment", "ok"))
    else:
        if ann.destructive:
            implied = ann.destructiveHint is None
            out.append(
                Badge(
                    "destructive",
                    "destructiveHint "
                    + (
                        "not set: the spec's default is true (may make destructive updates)"
                        if implied
                        else "true — may make destructive updates"
                    ),
                    "error",
                    implied,
                )
            )
        if ann.idempotent:
            out.append(
                Badge(
                    "idempotent",
                    "idempotentHint: true — calling again with the same arguments has no "
                    "further effect",
                    "info",
                )
            )
    if ann.open_world:
        implied = ann.openWorldHint is None
        out.append(
            Badge(
                "open-world",
                "openWorldHint "
                + (
                    "not set: the spec's default is true (may reach external entities)"
                    if implied
                    else "true — may reach external entities"
                ),
                "warn",
                implied,
            )
        )
    return out


def mirrored_headers(tool: Tool) -> list[tuple[str, str]]:
    """(header, argument path) for each argument mirrored into an Mcp-Param-* header."""
    spec = parse_tool_headers(tool.inputSchema)
    return [(f"Mcp-Param-{name}", ".".join(path)) for path, name in spec.headers]


def item_badges(item: CatalogItem, *, mirror_headers: bool = False) -> list[Badge]:
    """The badges a tree row shows for an item (tools: an MCP App, annotations, headers,
    exclusion)."""
    out: list[Badge] = []
    if item.excluded:
        out.append(Badge("excluded", item.excluded, "error"))
    if item.kind == "tools" and isinstance(item.model, Tool):
        app = app_resource_uri(item.raw)
        if app is not None:  # first: the one to look for (docs/apps.md)
            out.append(Badge("App", f"Has an MCP App ({app}): select it for its App tab", "info"))
        out.extend(tool_badges(item.model))
        if mirror_headers:
            headers = mirrored_headers(item.model)
            if headers:
                out.append(
                    Badge(
                        f"{len(headers)} header{'s' if len(headers) != 1 else ''}",
                        "Mirrored into HTTP headers: "
                        + ", ".join(f"{h} ← {p}" for h, p in headers),
                        "muted",
                    )
                )
    if item.kind in ("resources", "templates"):
        out.extend(annotation_badges(item.raw.get("annotations")))
    if item.problems:
        out.append(Badge("malformed", "; ".join(item.problems[:5]), "warn"))
    return out


def annotation_badges(annotations: Any) -> list[Badge]:
    """spec Annotations of a resource: audience and priority as pills (lastModified is in
    the tooltip and the Details view)."""
    if not isinstance(annotations, dict):
        return []
    out: list[Badge] = []
    audience = annotations.get("audience")
    if isinstance(audience, list) and audience:
        who = ", ".join(str(a) for a in audience)
        out.append(Badge(f"for {who}", f"audience: {who}", "info"))
    priority = annotations.get("priority")
    if isinstance(priority, int | float) and not isinstance(priority, bool):
        tip = "priority (0 = optional, 1 = required)"
        modified = annotations.get("lastModified")
        if isinstance(modified, str) and modified:
            tip += f"; last modified {modified}"
        out.append(Badge(f"priority {priority:g}", tip, "muted"))
    return out


def human_size(size: int | None) -> str:
    if size is None or size < 0:
        return ""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{int(value)} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"  # pragma: no cover


def resource_annotations(annotations: Any) -> str:
    """spec Annotations: audience, priority, lastModified, as one line."""
    if not isinstance(annotations, dict):
        return ""
    parts: list[str] = []
    audience = annotations.get("audience")
    if isinstance(audience, list) and audience:
        parts.append("for " + ", ".join(str(a) for a in audience))
    priority = annotations.get("priority")
    if isinstance(priority, int | float) and not isinstance(priority, bool):
        parts.append(f"priority {priority:g}")
    modified = annotations.get("lastModified")
    if isinstance(modified, str) and modified:
        parts.append(f"modified {modified}")
    return " · ".join(parts)


def secondary_text(item: CatalogItem) -> str:
    """The second line of a tree row: what identifies the item besides its title."""
    model = item.model
    if item.kind == "tools":
        return item.key if item.title != item.key else ""
    if item.kind == "resources":
        size = human_size(getattr(model, "size", None))
        mime = getattr(model, "mimeType", None) or ""
        return " · ".join(p for p in (item.key, mime, size) if p)
    if item.kind == "templates":
        mime = getattr(model, "mimeType", None) or ""
        return " · ".join(p for p in (item.key, mime) if p)
    args = getattr(model, "arguments", None) or []
    names = [f"{a.name}{'*' if a.required else ''}" for a in args]
    label = item.key if item.title != item.key else ""
    joined = f"({', '.join(names)})" if names else "(no arguments)"
    return f"{label} {joined}".strip()


def data_icon(icons: list[Icon] | None, dark: bool = False) -> tuple[str, bytes] | None:
    """The best icon given inline as a data: URI, as (mime type, bytes); never a remote one.

    spec Icon: `theme` says which background it suits; prefer the current one. SVG is left
    out (it can reference external resources), as are oversized or undecodable data."""
    if not icons:
        return None
    wanted = "dark" if dark else "light"
    ordered = sorted(icons, key=lambda i: 0 if i.theme == wanted else 1 if not i.theme else 2)
    for icon in ordered:
        decoded = _decode_data_uri(icon.src)
        if decoded is not None:
            return decoded
    return None


def _decode_data_uri(src: str) -> tuple[str, bytes] | None:
    if not isinstance(src, str) or not src.startswith("data:"):
        return None
    head, sep, payload = src[5:].partition(",")
    if not sep:
        return None
    parts = head.split(";")
    mime = parts[0].strip().lower()
    if mime not in _ICON_TYPES or "base64" not in (p.strip().lower() for p in parts[1:]):
        return None
    if len(payload) > MAX_ICON_BYTES * 4 // 3 + 4:
        return None
    try:
        data = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        return None
    return (mime, data) if data else None


def pretty_json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def detail_sections(item: CatalogItem) -> list[tuple[str, str]]:
    """(title, pretty JSON) sections of the Details view: the raw definition, then the parts
    worth reading alone (schemas, prompt arguments, annotations)."""
    raw = item.raw
    sections = [("Definition", pretty_json(raw))]
    if item.kind == "tools":
        sections.append(("inputSchema", pretty_json(raw.get("inputSchema"))))
        if "outputSchema" in raw:
            sections.append(("outputSchema", pretty_json(raw.get("outputSchema"))))
    elif item.kind == "prompts" and "arguments" in raw:
        sections.append(("arguments", pretty_json(raw.get("arguments"))))
    if "annotations" in raw:
        sections.append(("annotations", pretty_json(raw.get("annotations"))))
    if "_meta" in raw:
        sections.append(("_meta", pretty_json(raw.get("_meta"))))
    return sections
