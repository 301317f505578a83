"""Reading session files: tolerant of a cut-off last line, strict about what is not one."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspector.recording.format import FORMAT_NAME, FORMAT_VERSION

__all__ = [
    "RecordedEvent",
    "RecordedSession",
    "SessionFileError",
    "parse_event_line",
    "parse_first_line",
    "parse_header_line",
    "read_session",
]


class SessionFileError(Exception):
    """The file cannot be read as a session; the message says why."""


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


def read_session(path: str | Path) -> RecordedSession:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SessionFileError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if not data.strip():
        raise SessionFileError(f"{path} is empty")
    lines = data.split(b"\n")
    ends_cleanly = data.endswith(b"\n")
    if ends_cleanly:
        lines = lines[:-1]
    header = _parse_header(path, lines[0], complete=len(lines) > 1 or ends_cleanly)
    session = RecordedSession(path, header)
    last = len(lines)
    offset = len(lines[0]) + 1
    for no, raw in enumerate(lines[1:], start=2):
        at, offset = offset, offset + len(raw) + 1
        if not raw.strip():
            continue
        where = f"line {no} (byte offset {at:,})"
        try:
            value = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            if no == last and not ends_cleanly:
                session.problems.append(
                    f"{where} is incomplete (the recording was cut off, e.g. by a crash); "
                    "everything before it was read"
                )
                break
            session.problems.append(f"{where} is not valid JSON ({exc}); skipped")
            continue
        if not isinstance(value, dict) or not isinstance(value.get("type"), str):
            session.problems.append(f"{where} is not an event object; skipped")
            continue
        session.events.append(RecordedEvent(no, value["type"], value))
    return session


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
