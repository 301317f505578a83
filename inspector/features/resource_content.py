"""What a resources/read result holds, ready to display: text or blob parts, Qt-free.

A read result is untrusted input that can be huge (tens of MB). Nothing here copies or
decodes more than it is asked to: text is shown from its head in slices, a blob's base64
is decoded only when the user looks at it (and its size is known from the base64 length
without decoding), and every shape problem becomes a sentence instead of an exception.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final, Literal

__all__ = [
    "DISPLAY_CHUNK",
    "HEX_PREVIEW_BYTES",
    "INITIAL_DISPLAY_CHARS",
    "LONG_LINE",
    "BlobDecodeError",
    "ReadResult",
    "ResourcePart",
    "display_chunks",
    "format_size",
    "hex_dump",
    "parse_read_result",
    "sniff_image",
    "suggested_filename",
]

# How much text is shown at first; "Load all" appends the rest in chunks of DISPLAY_CHUNK,
# one per event-loop turn, so the window stays responsive.
INITIAL_DISPLAY_CHARS: Final = 200_000
DISPLAY_CHUNK: Final = 256 * 1024
# Text layout of one very long line is slow in every toolkit: lines longer than this are
# broken for display only (copy and save keep the original text).
LONG_LINE: Final = 4096
HEX_PREVIEW_BYTES: Final = 64 * 1024
# Blobs above this size are decoded off the event loop (in a thread).
DECODE_IN_THREAD_BYTES: Final = 512 * 1024

_B64_ALPHABET: Final = re.compile(rb"[^A-Za-z0-9+/=]")
_B64URL: Final = re.compile(rb"[-_]")


class BlobDecodeError(ValueError):
    """The blob is not valid base64; the message says where and how."""


PartKind = Literal["text", "blob", "invalid"]


@dataclass
class ResourcePart:
    """One entry of `contents`: TextResourceContents or BlobResourceContents."""

    index: int
    kind: PartKind
    uri: str | None
    mime_type: str | None
    text: str | None = None  # kind == "text"
    blob: str | None = None  # kind == "blob": the base64 as received
    meta: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)
    _decoded: bytes | None = field(default=None, repr=False)
    _decode_error: str | None = field(default=None, repr=False)

    @property
    def size(self) -> int:
        """Characters of text, or bytes of the decoded blob (estimated from the base64)."""
        if self.kind == "text":
            return len(self.text or "")
        if self.kind == "blob":
            if self._decoded is not None:
                return len(self._decoded)
            return _b64_decoded_size(self.blob or "")
        return 0

    @property
    def size_text(self) -> str:
        if self.kind == "text":
            return f"{self.size:,} characters"
        if self.kind == "blob":
            exact = "" if self._decoded is not None else "about "
            return f"{exact}{format_size(self.size)}"
        return ""

    @property
    def decoded(self) -> bool:
        return self._decoded is not None

    @property
    def needs_thread(self) -> bool:
        return self.kind == "blob" and len(self.blob or "") > DECODE_IN_THREAD_BYTES

    def head(self, limit: int = INITIAL_DISPLAY_CHARS) -> tuple[str, bool]:
        """The first `limit` characters of the text, and whether there is more."""
        text = self.text or ""
        if len(text) <= limit:
            return text, False
        return text[:limit], True

    def decode(self) -> bytes:
        """The blob's bytes, decoded once and kept. Raises BlobDecodeError."""
        if self._decoded is not None:
            return self._decoded
        if self._decode_error is not None:
            raise BlobDecodeError(self._decode_error)
        try:
            self._decoded = decode_base64(self.blob or "")
        except BlobDecodeError as exc:
            self._decode_error = str(exc)
            raise
        return self._decoded

    @property
    def decode_error(self) -> str | None:
        return self._decode_error

    def image_format(self) -> str | None:
        """ "png", "jpeg"... when the part is an image we can show (by mime type or bytes)."""
        if self.kind != "blob":
            return None
        sniffed = sniff_image(self._decoded[:16]) if self._decoded is not None else None
        if sniffed is None and self.blob:
            sniffed = sniff_image(_b64_head(self.blob))
        if sniffed is not None:
            return sniffed
        mime = (self.mime_type or "").lower()
        if mime.startswith("image/") and mime != "image/svg+xml":
            return mime.split("/", 1)[1].split(";", 1)[0]
        return None


@dataclass
class ReadResult:
    parts: list[ResourcePart]
    problems: list[str]  # about the result as a whole
    requested_uri: str

    @property
    def total_size(self) -> int:
        return sum(p.size for p in self.parts)

    @property
    def all_problems(self) -> list[str]:
        out = list(self.problems)
        for part in self.parts:
            out.extend(f"contents[{part.index}]: {p}" for p in part.problems)
        return out

    def summary(self) -> str:
        if not self.parts:
            return "no contents"
        kinds = [p.kind for p in self.parts]
        texts, blobs = kinds.count("text"), kinds.count("blob")
        bits = []
        if texts:
            bits.append(f"{texts} text")
        if blobs:
            bits.append(f"{blobs} blob")
        if len(kinds) - texts - blobs:
            bits.append(f"{len(kinds) - texts - blobs} invalid")
        return f"{len(self.parts)} part{'s' if len(self.parts) != 1 else ''} ({', '.join(bits)})"


def parse_read_result(result: Any, requested_uri: str) -> ReadResult:
    """A resources/read result -> parts. Never raises: bad shapes become problems."""
    if not isinstance(result, dict):
        return ReadResult(
            [], [f"the result is {type(result).__name__}, not an object"], requested_uri
        )
    contents = result.get("contents")
    problems: list[str] = []
    if contents is None:
        return ReadResult([], ["the result has no 'contents'"], requested_uri)
    if not isinstance(contents, list):
        return ReadResult(
            [], [f"'contents' is {type(contents).__name__}, not a list"], requested_uri
        )
    if not contents:
        problems.append("'contents' is empty")
    parts = [_part(i, raw) for i, raw in enumerate(contents)]
    return ReadResult(parts, problems, requested_uri)


def _part(index: int, raw: Any) -> ResourcePart:
    if not isinstance(raw, dict):
        return ResourcePart(
            index, "invalid", None, None, problems=[f"not an object but {type(raw).__name__}"]
        )
    problems: list[str] = []
    uri = raw.get("uri")
    if not isinstance(uri, str):
        problems.append("'uri' is missing" if uri is None else "'uri' is not a string")
        uri = None
    mime = raw.get("mimeType")
    if mime is not None and not isinstance(mime, str):
        problems.append("'mimeType' is not a string")
        mime = None
    meta = raw.get("_meta") if isinstance(raw.get("_meta"), dict) else None
    text, blob = raw.get("text"), raw.get("blob")
    if text is not None and blob is not None:
        problems.append("has both 'text' and 'blob'; showing the text")
    if isinstance(text, str):
        return ResourcePart(index, "text", uri, mime, text=text, meta=meta, problems=problems)
    if isinstance(blob, str):
        if text is not None:
            problems.append("'text' is not a string")
        return ResourcePart(index, "blob", uri, mime, blob=blob, meta=meta, problems=problems)
    if text is None and blob is None:
        problems.append("has neither 'text' nor 'blob'")
    else:
        problems.append("'text'/'blob' is not a string")
    return ResourcePart(index, "invalid", uri, mime, meta=meta, problems=problems)


def decode_base64(data: str, slice_chars: int = 1 << 20) -> bytes:
    """Strict base64 (RFC 4648 §4), with a message that says what is wrong.

    Whitespace is tolerated (some servers wrap lines); the URL-safe alphabet and missing
    padding are reported, not silently accepted: the spec says base64. Decoding goes in
    slices, so a thread doing it hands the GIL back to the event loop between them.
    """
    raw = data.encode("ascii", "replace")
    compact = raw.translate(None, _WHITESPACE)
    if len(compact) % 4:
        _raise_for_alphabet(compact)
        raise BlobDecodeError(
            f"invalid base64: length {len(compact):,} is not a multiple of 4 (missing padding?)"
        )
    step = max(4, slice_chars - slice_chars % 4)
    out: list[bytes] = []
    try:
        for start in range(0, len(compact), step):
            out.append(base64.b64decode(compact[start : start + step], validate=True))
    except (binascii.Error, ValueError) as exc:
        _raise_for_alphabet(compact)
        raise BlobDecodeError(f"invalid base64: {exc}") from None
    return b"".join(out)


_WHITESPACE: Final = b" \t\r\n\f\v"


def _raise_for_alphabet(compact: bytes) -> None:
    """On the error path only: where the first character outside the alphabet is."""
    bad = _B64_ALPHABET.search(compact)
    if bad is None:
        return
    where = bad.start()
    char = compact[where : where + 1]
    urlsafe = (
        " (the URL-safe alphabet; the spec wants standard base64)" if _B64URL.match(char) else ""
    )
    shown = char.decode("ascii", "replace")
    raise BlobDecodeError(f"invalid base64: character {shown!r} at offset {where:,}{urlsafe}")


def _b64_decoded_size(data: str) -> int:
    n = len(data.strip())
    padding = len(data) - len(data.rstrip("=")) if data.endswith("=") else 0
    return max(0, n * 3 // 4 - min(padding, 2))


def _b64_head(data: str, chars: int = 24) -> bytes:
    """The first bytes of a base64 string, without decoding all of it (b"" if invalid)."""
    head = re.sub(r"\s+", "", data[: chars * 2])[:chars]
    head = head[: len(head) - len(head) % 4]
    try:
        return base64.b64decode(head, validate=True)
    except (binascii.Error, ValueError):
        return b""


def sniff_image(head: bytes) -> str | None:
    """The image format from its first bytes (the mime type a server sends may be wrong)."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return "webp"
    if head.startswith(b"BM"):
        return "bmp"
    return None


def hex_dump(data: bytes, offset: int = 0, limit: int = HEX_PREVIEW_BYTES) -> str:
    """Classic 16-bytes-per-line dump: offset, hex, printable ASCII."""
    lines = []
    end = min(len(data), offset + limit)
    for start in range(offset, end, 16):
        row = data[start : min(start + 16, end)]
        hexes = " ".join(f"{b:02x}" for b in row[:8]) + "  " + " ".join(f"{b:02x}" for b in row[8:])
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in row)
        lines.append(f"{start:08x}  {hexes:<48}  {text}")
    return "\n".join(lines)


def display_chunks(
    text: str, start: int = 0, chunk: int = DISPLAY_CHUNK
) -> Iterator[tuple[int, str]]:
    """Slices of `text[start:]` for display: (where the slice ends in `text`, what to show).

    Each slice ends at a line break where one is near; lines over LONG_LINE are broken
    (for display only)."""
    pos = start
    n = len(text)
    while pos < n:
        end = min(n, pos + chunk)
        if end < n:
            newline = text.rfind("\n", pos, end)
            if newline > pos + chunk // 2:
                end = newline + 1
        yield end, break_long_lines(text[pos:end])
        pos = end


def break_long_lines(text: str, width: int = LONG_LINE) -> str:
    if len(text) <= width:
        return text
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
        else:
            out.append("\n".join(line[i : i + width] for i in range(0, len(line), width)))
    return "\n".join(out)


def has_long_lines(text: str, width: int = LONG_LINE, sample: int = 2_000_000) -> bool:
    """Whether any line in (the first `sample` characters of) `text` exceeds `width`."""
    pos = 0
    end = min(len(text), sample)
    while pos < end:
        newline = text.find("\n", pos, end)
        stop = end if newline < 0 else newline
        if stop - pos > width:
            return True
        pos = stop + 1
    return False


def format_size(n: int) -> str:
    if n < 1024:
        return f"{n:,} bytes"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n / (1024 * 1024):.1f} MiB"


_EXTENSIONS: Final = {
    "application/json": ".json",
    "text/markdown": ".md",
    "text/plain": ".txt",
    "text/html": ".html",
    "text/csv": ".csv",
    "application/pdf": ".pdf",
    "application/octet-stream": ".bin",
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/gif": ".gif",
    "image/webp": ".webp",
    "image/svg+xml": ".svg",
    "audio/wav": ".wav",
    "audio/mpeg": ".mp3",
}


def suggested_filename(uri: str | None, mime_type: str | None, blob: bool) -> str:
    """A safe file name for "Save as": the URI's last segment, or "resource" plus an
    extension from the mime type. Never a path: server text must not pick a folder."""
    name = ""
    if uri:
        tail = re.split(r"[/\\:?#]", uri.rstrip("/"))[-1]
        name = re.sub(r"[^A-Za-z0-9._-]+", "_", tail).strip("._")[:80]
    if not name:
        name = "resource"
    if "." not in name:
        mime = (mime_type or "").split(";", 1)[0].strip().lower()
        name += _EXTENSIONS.get(mime, ".bin" if blob else ".txt")
    return name
