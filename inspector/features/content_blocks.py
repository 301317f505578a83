"""Content blocks (tool results, prompt messages, sampling) made ready to show, Qt-free.

Every block becomes a `BlockInfo`: its kind, a one-line header, the fields a view needs
and the problems found (a missing field, an unknown type). Nothing here decodes more than
a header or parses more than a size limit allows: blocks can carry tens of MB.
"""

from __future__ import annotations

import json
import re
import struct
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from inspector.features.resource_content import ResourcePart, format_size, parse_read_result

__all__ = [
    "JSON_PREVIEW_LIMIT",
    "MARKDOWN_LIMIT",
    "BlockInfo",
    "BlockKind",
    "annotations_text",
    "describe_blocks",
    "json_pretty",
    "looks_like_markdown",
    "wav_info",
]

BlockKind = Literal["text", "image", "audio", "resource_link", "resource", "unknown"]

# A JSON view is offered for text up to this size (parsing and pretty-printing are fast
# below it); markdown is rendered up to MARKDOWN_LIMIT characters.
JSON_PREVIEW_LIMIT: Final = 2_000_000
MARKDOWN_LIMIT: Final = 200_000

_MARKDOWN_HINTS: Final = re.compile(
    r"(^#{1,6}\s)|(^\s*[-*+]\s)|(^\s*\d+\.\s)|(\*\*[^*\n]+\*\*)|(`[^`\n]+`)|(^```)|"
    r"(\[[^\]\n]+\]\([^)\n]+\))|(^>\s)|(^\|.*\|\s*$)",
    re.MULTILINE,
)


@dataclass
class BlockInfo:
    index: int
    kind: BlockKind
    raw: Any
    type_name: str  # the block's "type" as sent
    problems: list[str] = field(default_factory=list)
    annotations: str = ""
    text: str | None = None  # text blocks
    mime_type: str | None = None
    data: str | None = None  # image/audio: base64 as sent
    uri: str | None = None  # resource_link, resource
    name: str | None = None
    title: str | None = None
    description: str | None = None
    size: int | None = None  # resource_link: the size the server announced
    part: ResourcePart | None = None  # embedded resource: text or blob

    def header(self) -> str:
        """One line: what the block is, and how big."""
        if self.kind == "text":
            return f"text · {len(self.text or ''):,} characters"
        if self.kind in ("image", "audio"):
            approx = _b64_size(self.data or "")
            return f"{self.kind} · {self.mime_type or 'no mimeType'} · about {format_size(approx)}"
        if self.kind == "resource_link":
            bits = ["resource link", self.mime_type or ""]
            if self.size is not None:
                bits.append(format_size(self.size))
            return " · ".join(b for b in bits if b)
        if self.kind == "resource":
            part = self.part
            what = part.kind if part is not None else "invalid"
            bits = [f"embedded resource ({what})", self.mime_type or ""]
            if part is not None and part.kind != "invalid":
                bits.append(part.size_text)
            return " · ".join(b for b in bits if b)
        return f"unknown content type {self.type_name!r}"


def describe_blocks(blocks: Any) -> tuple[list[BlockInfo], list[str]]:
    """(one BlockInfo per block, problems with the list itself)."""
    if blocks is None:
        return [], []
    if not isinstance(blocks, list):
        return [_unknown(0, blocks, f"content is a {type(blocks).__name__}, not a list")], [
            f"content is a {type(blocks).__name__}, not a list"
        ]
    return [_describe(i, raw) for i, raw in enumerate(blocks)], []


def _describe(index: int, raw: Any) -> BlockInfo:
    if not isinstance(raw, dict):
        return _unknown(index, raw, f"a block that is a {type(raw).__name__}, not an object")
    kind = raw.get("type")
    info_kind: BlockKind
    if kind in ("text", "image", "audio", "resource_link", "resource"):
        info_kind = kind
    else:
        return _unknown(index, raw, f"unknown content type {kind!r}: shown as raw JSON")
    info = BlockInfo(index, info_kind, raw, str(kind))
    info.annotations = annotations_text(raw.get("annotations"))
    if info_kind == "text":
        text = raw.get("text")
        if isinstance(text, str):
            info.text = text
        else:
            info.text = "" if text is None else json.dumps(text, ensure_ascii=False)
            info.problems.append("'text' is missing" if text is None else "'text' is not a string")
    elif info_kind in ("image", "audio"):
        data, mime = raw.get("data"), raw.get("mimeType")
        info.data = data if isinstance(data, str) else ""
        if not isinstance(data, str):
            info.problems.append("'data' is missing" if data is None else "'data' is not a string")
        info.mime_type = mime if isinstance(mime, str) else None
        if not isinstance(mime, str):
            info.problems.append("'mimeType' is missing")
        elif not mime.lower().startswith(f"{info_kind}/"):
            info.problems.append(f"mimeType {mime!r} is not an {info_kind} type")
    elif info_kind == "resource_link":
        for key in ("uri", "name", "title", "description", "mimeType"):
            value = raw.get(key)
            if value is not None and not isinstance(value, str):
                info.problems.append(f"'{key}' is not a string")
                value = None
            setattr(info, "mime_type" if key == "mimeType" else key, value)
        if not info.uri:
            info.problems.append("'uri' is missing: it cannot be read")
        size = raw.get("size")
        if isinstance(size, int) and not isinstance(size, bool):
            info.size = size
    else:
        resource = raw.get("resource")
        if not isinstance(resource, dict):
            info.problems.append("'resource' is missing or not an object")
            resource = {}
        read = parse_read_result({"contents": [resource]}, "")
        info.part = read.parts[0]
        info.problems.extend(read.parts[0].problems)
        info.uri = info.part.uri
        info.mime_type = info.part.mime_type
    return info


def _unknown(index: int, raw: Any, why: str) -> BlockInfo:
    kind = raw.get("type") if isinstance(raw, dict) else None
    return BlockInfo(index, "unknown", raw, str(kind), problems=[why])


def annotations_text(annotations: Any) -> str:
    """audience, priority and lastModified in one line ("" when there are none)."""
    if not isinstance(annotations, dict) or not annotations:
        return ""
    bits = []
    audience = annotations.get("audience")
    if isinstance(audience, list):
        bits.append("for " + ", ".join(str(a) for a in audience))
    priority = annotations.get("priority")
    if isinstance(priority, int | float) and not isinstance(priority, bool):
        bits.append(f"priority {priority:g}")
    modified = annotations.get("lastModified")
    if isinstance(modified, str):
        bits.append(f"modified {modified[:40]}")
    others = sorted(k for k in annotations if k not in ("audience", "priority", "lastModified"))
    if others:
        bits.append("also " + ", ".join(o[:30] for o in others[:5]))
    return " · ".join(bits)


def json_pretty(text: str, limit: int = JSON_PREVIEW_LIMIT) -> str | None:
    """The text pretty-printed when it is a JSON object or array (within `limit`)."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[" or len(stripped) > limit:
        return None
    try:
        value = json.loads(stripped)
    except ValueError:
        return None
    return json.dumps(value, indent=2, ensure_ascii=False)


def looks_like_markdown(text: str) -> bool:
    sample = text[:20_000]
    return len(_MARKDOWN_HINTS.findall(sample)) >= 1


def wav_info(data: bytes) -> str | None:
    """Channels, rate, bits and duration of a RIFF/WAVE file (None if it is not one)."""
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        return None
    pos = 12
    channels = rate = bits = 0
    while pos + 8 <= len(data):
        chunk, size = data[pos : pos + 4], struct.unpack("<I", data[pos + 4 : pos + 8])[0]
        body = data[pos + 8 : pos + 8 + size]
        if chunk == b"fmt " and len(body) >= 16:
            _fmt, channels, rate, _byte_rate, _align, bits = struct.unpack("<HHIIHH", body[:16])
        elif chunk == b"data" and channels and rate and bits:
            seconds = size / (channels * rate * bits / 8)
            plural = "s" if channels != 1 else ""
            return f"{channels} channel{plural}, {rate:,} Hz, {bits}-bit, {seconds:.2f} s"
        pos += 8 + size + (size & 1)
    return "WAV (no readable fmt/data chunk)" if not channels else None


def _b64_size(data: str) -> int:
    n = len(data.strip())
    return max(0, n * 3 // 4 - data.rstrip()[-2:].count("="))
