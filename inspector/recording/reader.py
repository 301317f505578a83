"""Reading session files: tolerant of a cut-off last line, strict about what is not one.

Compressed files and rotated parts are read through `inspector.recording.parts`; every
problem names its line and byte offset (and its part, when there are several)."""

from __future__ import annotations

import base64
import itertools
import json
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Final

from inspector.recording.format import FORMAT_NAME, FORMAT_VERSION
from inspector.recording.parts import Part, SessionFileError, SessionParts, session_parts

__all__ = [
    "MAX_LINE_BYTES",
    "RecordedEvent",
    "RecordedSession",
    "SessionFileError",
    "parse_event_line",
    "parse_first_line",
    "parse_header_line",
    "read_parts",
    "read_session",
    "without_nuls",
]

# A line past this is skipped unread: a frame is cut at 16 MiB by default (64 MiB at most
# from `cli --max-message-mb`), and JSON escaping can double it.
MAX_LINE_BYTES: Final = 256 << 20
_SKIP: Final = 1 << 20


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    line_no: int
    type: str  # frame | stderr | http | note | ready | action
    data: dict[str, Any]

    @property
    def raw(self) -> str | bytes:
        """The frame or line exactly as it was received or sent."""
        if "b64" in self.data:
            return base64.b64decode(self.data["b64"])
        text = self.data.get("text", "")
        return text if isinstance(text, str) else ""

    @property
    def direction(self) -> str:
        value = self.data.get("dir", "")
        return value if isinstance(value, str) else ""

    @property
    def kind(self) -> str:
        value = self.data.get("kind", self.type)
        return value if isinstance(value, str) else self.type

    @property
    def t(self) -> float:
        value = self.data.get("t", 0.0)
        return float(value) if isinstance(value, int | float) else 0.0


@dataclass
class RecordedSession:
    path: Path
    header: dict[str, Any]
    events: list[RecordedEvent] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # e.g. the truncated last line
    parts: list[Path] = field(default_factory=list)  # the files read (rotated parts), in order
    # Opened through the index (recording/index): `events` holds only the `ready` line;
    # read_session(path) gives them all. `last_t` is the last line's time.
    lazy: bool = False
    last_t: float | None = None

    @property
    def connection(self) -> dict[str, Any]:
        value = self.header.get("connection")
        return value if isinstance(value, dict) else {}

    @property
    def ready(self) -> dict[str, Any] | None:
        for event in self.events:
            if event.type == "ready":
                return event.data
        return None

    @property
    def era(self) -> str:
        ready = self.ready
        value = (ready or self.header).get("era", "legacy")
        return value if isinstance(value, str) else "legacy"

    @property
    def protocol_version(self) -> str | None:
        ready = self.ready
        value = (ready or self.header).get("protocol_version")
        return value if isinstance(value, str) else None

    @property
    def duration(self) -> float:
        if self.last_t is not None:
            return self.last_t
        return max((e.t for e in self.events), default=0.0)

    def frames(self) -> list[RecordedEvent]:
        return [e for e in self.events if e.type == "frame"]


def read_session(path: str | Path, *, max_line_bytes: int = MAX_LINE_BYTES) -> RecordedSession:
    """Read the session `path` belongs to: decompressed if it is gzip or zstd, all its
    rotated parts in order (see `inspector.recording.parts`). A compressed file is
    decompressed into a temporary folder (under `$TMPDIR`) that is deleted before this
    returns. A line longer than `max_line_bytes` is skipped (and said), never held whole."""
    path = Path(path)
    with tempfile.TemporaryDirectory(prefix="mcp-inspector-read-") as temp:
        parts = session_parts(path, Path(temp))
        return read_parts(path, parts, max_line_bytes=max_line_bytes)


def read_parts(
    path: Path, parts: SessionParts, *, max_line_bytes: int = MAX_LINE_BYTES
) -> RecordedSession:
    """The session in `parts` (plain files, in order), named `path`."""
    problems = list(parts.problems)
    header: dict[str, Any] | None = None
    header_error: SessionFileError | None = None
    events: list[RecordedEvent] = []
    base = 0  # the lines of the parts before this one: line_no counts across parts
    named = len(parts.parts) > 1 or any(p.number > 1 for p in parts.parts)
    for part in parts.parts:
        reading = _PartReader(part, named or part.compression is not None, max_line_bytes)
        with part.plain.open("rb") as fh:
            lines = reading.lines(fh)
            first = next(lines, None)
            if first is None or (first[2] is not None and not first[2].strip() and first[3]):
                if header is None and len(parts.parts) == 1:
                    raise SessionFileError(f"{path} is empty")
                problems.append(f"{part.source.name} is empty; skipped")
                continue
            if header is None:
                try:
                    header = _first_header(part, first)
                except SessionFileError as exc:
                    header_error = header_error or exc
                    if part is parts.parts[-1]:
                        raise header_error from None
                    problems.append(f"{exc}; that part is skipped")
                    continue
                if header_error is not None or part.number > 1:
                    problems.append(f"the session header was taken from {part.source.name}")
                pending = []
            else:
                kept = reading.later_header(first, header, problems)
                if kept is None:
                    continue
                pending = kept
            for item in itertools.chain(pending, lines):
                event = reading.event(item, base, problems)
                if event is not None:
                    events.append(event)
        base += reading.count
    if header is None:
        raise header_error or SessionFileError(f"{path} is empty")
    session = RecordedSession(path, header, events, problems)
    session.parts = [p.source for p in parts.parts]
    return session


_Line = tuple[
    int, int, bytes | None, bool, int
]  # no, byte offset, bytes (None: too long), ends in \n, size


class _PartReader:
    """The lines of one plain part as events, with a sentence for each bad one."""

    def __init__(self, part: Part, named: bool, max_line_bytes: int) -> None:
        self.part = part
        self.named = named
        self.max_line = max_line_bytes
        self.count = 0

    def where(self, no: int, offset: int) -> str:
        byte = "uncompressed byte offset" if self.part.compression else "byte offset"
        prefix = f"{self.part.source.name}: " if self.named else ""
        return f"{prefix}line {no} ({byte} {offset:,})"

    def lines(self, fh: BinaryIO) -> Iterator[_Line]:
        offset = 0
        no = 0
        while True:
            raw = fh.readline(self.max_line + 1)
            if not raw:
                return
            no += 1
            self.count = no
            size = len(raw)
            if size > self.max_line and not raw.endswith(b"\n"):
                raw = b""
                while True:  # skip the rest of the line without holding it
                    more = fh.readline(_SKIP)
                    size += len(more)
                    if not more or more.endswith(b"\n"):
                        break
                yield no, offset, None, True, size
            else:
                yield no, offset, raw, raw.endswith(b"\n"), size
            offset += size

    def later_header(
        self, first: _Line, header: dict[str, Any], problems: list[str]
    ) -> list[_Line] | None:
        """A later part's first line: its header copy, checked to be this session's and
        skipped ([]); [the line] when it is not a header (read as an event); None when the
        part belongs to another session (skipped whole)."""
        raw = first[2]
        value = _json(raw) if raw is not None else None
        if not isinstance(value, dict) or value.get("type") != "header":
            problems.append(
                f"{self.part.source.name} does not start with a header line, as a later "
                "part should; its lines are read anyway"
            )
            return [first]
        mine, theirs = header.get("created"), value.get("created")
        if mine is not None and theirs is not None and mine != theirs:
            problems.append(
                f"{self.part.source.name} belongs to another recording (created {theirs}, "
                f"this one {mine}); skipped"
            )
            return None
        return []

    def event(self, line: _Line, base: int, problems: list[str]) -> RecordedEvent | None:
        no, offset, raw, whole, size = line
        where = self.where(no, offset)
        if raw is None:
            problems.append(
                f"{where} is {size / 1e6:,.1f} MB long, over the {self.max_line >> 20:,} MiB "
                "a session line may have (a damaged file?); skipped"
            )
            return None
        raw = without_nuls(raw, where, problems)
        if not raw.strip():
            return None
        try:
            value = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            if not whole:
                problems.append(
                    f"{where} is incomplete (the recording was cut off, e.g. by a crash); "
                    "everything before it was read"
                )
            else:
                problems.append(f"{where} is not valid JSON ({exc}); skipped")
            return None
        if not isinstance(value, dict) or not isinstance(value.get("type"), str):
            problems.append(f"{where} is not an event object; skipped")
            return None
        return RecordedEvent(base + no, value["type"], value)


def without_nuls(raw: bytes, where: str, problems: list[str]) -> bytes:
    """A line without the NUL bytes a crash can leave on some filesystems (a tail of zeros,
    or a block of them before lines written later), said in `problems`."""
    nuls = raw.count(b"\0")
    if not nuls:
        return raw
    raw = raw.replace(b"\0", b"")
    if not raw.strip():
        problems.append(
            f"{where} holds {nuls:,} NUL bytes and nothing else (what a crash can "
            "leave on some filesystems); ignored"
        )
    else:
        problems.append(
            f"{where} holds {nuls:,} NUL bytes (what a crash can leave on some "
            "filesystems); they were ignored"
        )
    return raw


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def _first_header(part: Part, first: _Line) -> dict[str, Any]:
    _no, _offset, raw, whole, size = first
    source = part.source
    if raw is None:
        raise SessionFileError(
            f"{source} is not an MCP Inspector session file (its first line is "
            f"{size / 1e6:,.1f} MB long, no header)"
        )
    head = raw[:512]
    if b"\0" in head or not _utf8_start(head):
        raise SessionFileError(
            f"{source} is not an MCP Inspector session file (it holds binary data, not JSON lines)"
        )
    header = _parse_header(source, raw, complete=whole)
    if part.number > 1:
        header = {k: v for k, v in header.items() if k != "part"}
    return header


def _utf8_start(head: bytes) -> bool:
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(head) - 3  # a character cut by the 512-byte window
    return True


def parse_header_line(path: Path, first: bytes) -> dict[str, Any]:
    """A complete first line as the header (a followed file is read line by line)."""
    return _parse_header(path, first, complete=True)


def parse_first_line(path: Path, first: bytes, *, complete: bool) -> dict[str, Any]:
    """The first line as the header; `complete`: it ended with a newline (else a header
    cut off inside is said so)."""
    return _parse_header(path, first, complete=complete)


def parse_event_line(no: int, raw: bytes) -> RecordedEvent | str | None:
    """One later line: the event, or a sentence saying why it is skipped (None: blank)."""
    if not raw.strip():
        return None
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        return f"line {no} is not valid JSON ({exc}); skipped"
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        return f"line {no} is not an event object; skipped"
    return RecordedEvent(no, value["type"], value)


def _parse_header(path: Path, first: bytes, *, complete: bool) -> dict[str, Any]:
    try:
        header = json.loads(first.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        head = first.lstrip()[:80]
        if not complete and (FORMAT_NAME.encode() in head or head.startswith(b'{"type":"header"')):
            raise SessionFileError(
                f"{path} is an MCP Inspector session file cut off inside its header line "
                "(the recording stopped at once, e.g. a crash); there is nothing to read"
            ) from None
        raise SessionFileError(
            f"{path} is not an MCP Inspector session file (its first line is not JSON)"
        ) from None
    if not isinstance(header, dict) or header.get("format") != FORMAT_NAME:
        raise SessionFileError(
            f"{path} is not an MCP Inspector session file (no '{FORMAT_NAME}' header)"
        )
    version = header.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SessionFileError(f"{path}: the header has no format version")
    if version > FORMAT_VERSION:
        raise SessionFileError(
            f"{path} was written in session format {version} by a newer MCP Inspector "
            f"(app {header.get('app_version', '?')}); this version reads format "
            f"{FORMAT_VERSION}. Update the app to open it."
        )
    return header
