"""Following a session file while another process writes it (a running tap).

`SessionFollower.poll()` reads what was appended since the last call, complete lines only
(a line being written stays for the next poll), and feeds each event to an
`OfflineLoader`, so the stores of its `OfflineSession` (traffic log with pairing and
latency, catalog from the listed results, stderr, handshake) grow as the file does. The
file is opened afresh on each poll: nothing is held open, and a file that was replaced or
cut shorter is said so, not misread.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from inspector.recording.offline import OfflineLoader, OfflineSession
from inspector.recording.parts import compression_of
from inspector.recording.reader import (
    RecordedEvent,
    RecordedSession,
    SessionFileError,
    parse_event_line,
    parse_header_line,
)

__all__ = ["SessionFollower", "first_problem"]

_MAX_READ: Final = 32 * 1024 * 1024  # per poll: a huge backlog is read over several polls


class SessionFollower:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.offset = 0
        self.line_no = 0
        self._partial = b""
        self._loader: OfflineLoader | None = None
        self.problem: str | None = None  # the file cannot be followed (any more): why

    @property
    def offline(self) -> OfflineSession | None:
        """The stores the view shows; None until the header line was read."""
        return self._loader.out if self._loader is not None else None

    @property
    def started(self) -> bool:
        return self._loader is not None

    def poll(self) -> list[RecordedEvent]:
        """Read and feed what is new; returns the new events. Raises SessionFileError when
        the first line is not a session header."""
        try:
            with self.path.open("rb") as f:
                f.seek(0, 2)
                size = f.tell()
                if size < self.offset:
                    self.problem = f"{self.path} became shorter: it was replaced or cut"
                    return []
                f.seek(self.offset)
                data = f.read(min(size - self.offset, _MAX_READ))
        except FileNotFoundError:
            if self.started:
                self.problem = f"{self.path} was removed"
            return []  # not written yet
        except OSError as exc:
            self.problem = f"cannot read {self.path}: {exc.strerror or exc}"
            return []
        if not data:
            return []
        if self.offset == 0 and (kind := compression_of(data[:4])) is not None:
            raise SessionFileError(
                f"{self.path} is {kind}-compressed: it can be opened (File ▸ Open Session) "
                "but not followed while it is written"
            )
        self.offset += len(data)
        lines = (self._partial + data).split(b"\n")
        self._partial = lines.pop()
        return self._feed_lines(lines)

    def _feed_lines(self, lines: list[bytes]) -> list[RecordedEvent]:
        new: list[RecordedEvent] = []
        for raw in lines:
            self.line_no += 1
            if self._loader is None:
                header = parse_header_line(self.path, raw)
                self._loader = OfflineLoader(RecordedSession(self.path, header))
                continue
            parsed = parse_event_line(self.line_no, raw)
            if parsed is None:
                continue
            recorded = self._loader.recorded
            if isinstance(parsed, str):
                recorded.problems.append(parsed)
                self._loader.out.errors.add("session file", parsed)
                continue
            recorded.events.append(parsed)
            self._loader.feed(parsed)
            new.append(parsed)
        return new

    def finish(self) -> OfflineSession | None:
        """The writer is gone: read the rest, a last line without newline included."""
        self.poll()
        if self._partial and self._loader is not None:
            tail, self._partial = self._partial, b""
            if parse_event_line(self.line_no + 1, tail) is not None:
                self._feed_lines([tail])
        return self.offline


def first_problem(follower: SessionFollower) -> str | None:
    try:
        follower.poll()
    except SessionFileError as exc:
        return str(exc)
    return follower.problem
