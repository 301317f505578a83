"""The relay's end of the line to the recorder process: one pipe, never waited on.

The recording runs in a process of its own (`recorder_process`), at a lower priority, so
its parsing and writing never hold the relay's interpreter lock nor its CPU time. Each
chunk goes over as one message (a small header, then the bytes), written only when the
pipe has room for all of it: the pipe is non-blocking and a message is never torn. When
there is no room the chunk is not sent, its size is counted, and the next message of that
stream that fits is preceded by a gap message: the file says what it misses.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import struct
import termios
import threading
from collections.abc import Callable
from typing import Final

__all__ = ["HEADER", "STREAM_CODES", "RecorderLink"]

# stream code, monotonic time, wall time, payload length
HEADER: Final = struct.Struct("<Bddi")
STREAM_CODES: Final = {"out": 0, "in": 1, "stderr": 2, "gap-out": 3, "gap-in": 4,
                       "gap-stderr": 5, "note": 6, "last": 7}  # fmt: skip
_PIPE_SIZE: Final = 1 << 20
_FIONREAD: Final = getattr(termios, "FIONREAD", 0x541B)
_BUF: Final = bytearray(4)


class RecorderLink:
    def __init__(self, fd: int, on_broken: Callable[[str], None] | None = None) -> None:
        self.fd = fd
        self.on_broken = on_broken
        os.set_blocking(fd, False)
        self.capacity = _PIPE_SIZE
        try:
            self.capacity = fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_SIZE)
        except (OSError, AttributeError):
            with contextlib.suppress(OSError, AttributeError):
                self.capacity = fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
            if self.capacity < 4096:
                self.capacity = 65536
        self._lock = threading.Lock()
        self._dropped = {"out": 0, "in": 0, "stderr": 0}
        self.dropped_total = 0
        self.closed = False
        self.broken: str | None = None  # why the recorder cannot be reached any more

    def _room(self) -> int:
        try:
            fcntl.ioctl(self.fd, _FIONREAD, _BUF)
        except OSError:
            return 0
        return self.capacity - int.from_bytes(_BUF, "little")

    def _send(self, message: bytes, data: bytes = b"") -> bool:
        """Write `message` and `data` whole, or not at all (the caller holds the lock)."""
        if self.closed or len(message) + len(data) > self._room():
            return False
        try:
            written = os.writev(self.fd, (message, data)) if data else os.write(self.fd, message)
        except BlockingIOError:
            return False
        except OSError as exc:
            self._break(exc)
            return False
        if written < len(message) + len(data):  # not expected (the room was checked)
            os.set_blocking(self.fd, True)
            try:
                os.write(self.fd, (message + data)[written:])
            except OSError as exc:
                self._break(exc)
            finally:
                os.set_blocking(self.fd, False)
        return True

    def _break(self, exc: OSError) -> None:
        self.closed = True
        if exc.errno == errno.EPIPE:
            self.broken = "the recorder process ended"
        else:
            self.broken = f"the recorder process cannot be reached: {exc.strerror or exc}"
        if self.on_broken is not None:
            self.on_broken(self.broken)

    def chunk(self, stream: str, data: bytes, mono: float, wall: float) -> None:
        message = HEADER.pack(STREAM_CODES[stream], mono, wall, len(data))
        with self._lock:
            dropped = self._dropped[stream]
            if dropped:
                gap = HEADER.pack(STREAM_CODES["gap-" + stream], mono, wall, dropped)
                if not self._send(gap):
                    self._dropped[stream] += len(data)
                    self.dropped_total += len(data)
                    return
                self._dropped[stream] = 0
            if not self._send(message, data):
                self._dropped[stream] += len(data)
                self.dropped_total += len(data)

    def note(self, text: str, mono: float, wall: float) -> None:
        payload = text.encode("utf-8", "replace")
        with self._lock:
            self._send(HEADER.pack(STREAM_CODES["note"], mono, wall, len(payload)) + payload)

    def close(self, last_note: str, mono: float, wall: float) -> None:
        """Say what was never sent and how it ended (waiting for room: this is the end),
        then end the stream; the recorder finishes the file."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
            with contextlib.suppress(OSError):
                os.set_blocking(self.fd, True)
                for stream, dropped in self._dropped.items():
                    if dropped:
                        code = STREAM_CODES["gap-" + stream]
                        os.write(self.fd, HEADER.pack(code, mono, wall, dropped))
                payload = last_note.encode("utf-8", "replace")
                os.write(self.fd, HEADER.pack(STREAM_CODES["last"], mono, wall, len(payload)))
                os.write(self.fd, payload)
            with contextlib.suppress(OSError):
                os.close(self.fd)
