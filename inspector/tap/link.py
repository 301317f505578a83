"""The relay's end of the line to the recorder process: pipes that are never waited on.

The recording runs in a process of its own (`recorder_process`), at a lower priority, so
its parsing and writing never hold the relay's interpreter lock nor its CPU time. Each
stream has a data pipe of its own, and one control pipe says, in order, what arrived:
"N more bytes of stream S at these times", "M bytes of S relayed but not sent" (a gap), a
note. The bytes reach a data pipe either by `tee(2)` (shared pages, no copy: see
`pumps`) or by a non-blocking write; whatever does not fit is a gap, never a wait.

A small chunk read by the copying path (a request, an answer: most of MCP) rides on the
control pipe itself, right after its header, in one write that the pipe takes whole or
not at all (PIPE_BUF): one system call per chunk instead of two (`record`). A host and
server trading small messages one at a time make the relay wake for each of them, and its
system calls are most of what the tap costs them (bench/tap_overhead.py).

A control message is small and written whole or not at all; when the control pipe is
full, messages wait here in order (consecutive ones of the same kind and stream are
merged: the bytes are already in their data pipe, in order) and go at the next chance.
A chunk that would ride inline while messages wait, or finds the pipe full, is a gap.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import struct
import threading
from collections.abc import Callable, Mapping
from typing import Final

from inspector.tap.splicing import MOVE_LEN, SPLICE_F_NONBLOCK, grow_pipe, tee

__all__ = [
    "DATA_STREAMS",
    "HEADER",
    "INLINE_MAX",
    "NOT_RECORDING",
    "NO_ROOM",
    "STREAM_CODES",
    "RecorderLink",
]

# stream code, monotonic time, wall time, size (data bytes, gap bytes, or payload length)
HEADER: Final = struct.Struct("<Bddq")
STREAM_CODES: Final = {"out": 0, "in": 1, "stderr": 2, "gap-out": 3, "gap-in": 4,
                       "gap-stderr": 5, "note": 6, "last": 7,
                       "inline-out": 8, "inline-in": 9, "inline-stderr": 10}  # fmt: skip
DATA_STREAMS: Final = ("out", "in", "stderr")
_PIPE_SIZE: Final = 1 << 20
# the largest chunk sent inline: header and chunk in one write the pipe takes whole or not at all
INLINE_MAX: Final = select.PIPE_BUF - HEADER.size
_INLINE: Final = {stream: STREAM_CODES["inline-" + stream] for stream in DATA_STREAMS}
NO_ROOM: Final = -1  # `tee_from`: the data pipe is full (a gap)
NOT_RECORDING: Final = -2  # `tee_from`: the link is closed or broken


class RecorderLink:
    def __init__(
        self,
        control_fd: int,
        data_fds: Mapping[str, int],
        on_broken: Callable[[str], None] | None = None,
    ) -> None:
        self.fd = control_fd
        self.data_fds: dict[str, int] | None = dict(data_fds)
        self.on_broken = on_broken
        for fd in (control_fd, *data_fds.values()):
            os.set_blocking(fd, False)
            grow_pipe(fd, _PIPE_SIZE)
        self._lock = threading.Lock()  # the control pipe and `closed`
        # one per data pipe: held while it is written, so that `close` never closes a
        # descriptor under a pump's feet (never held while taking `_lock`)
        self._data_locks = {stream: threading.Lock() for stream in data_fds}
        # [code, mono, wall, size, payload]: control messages waiting for room, in order
        self._pending: list[list[object]] = []
        self.dropped_total = 0
        self.closed = False
        self.broken: str | None = None  # why the recorder cannot be reached any more

    # -- what the pumps call ------------------------------------------------------
    def sent(self, stream: str, size: int, mono: float, wall: float) -> None:
        """`size` more bytes of `stream` are in its data pipe."""
        self._add(STREAM_CODES[stream], mono, wall, size)

    def dropped(self, stream: str, size: int, mono: float, wall: float) -> None:
        """`size` bytes of `stream` were relayed but not sent (no room): a gap."""
        with self._lock:
            self.dropped_total += size
        self._add(STREAM_CODES["gap-" + stream], mono, wall, size)

    def tee_from(self, stream: str, src: int) -> int:
        """Duplicate what waits in pipe `src` into `stream`'s data pipe, without consuming
        it: the number of bytes (0: `src` ended), NO_ROOM or NOT_RECORDING. The caller
        then says `sent` and moves them on. OSError EINVAL: not possible here; EBADF:
        `src` was closed."""
        failure: OSError | None = None
        with self._data_locks[stream]:
            fds = self.data_fds
            if self.closed or fds is None:
                return NOT_RECORDING
            try:
                return tee(src, fds[stream], MOVE_LEN, SPLICE_F_NONBLOCK)
            except BlockingIOError:
                return NO_ROOM
            except OSError as exc:
                if exc.errno in (errno.EINVAL, errno.EBADF):
                    raise
                failure = exc
        self.fail(failure)
        return NOT_RECORDING

    def record(self, stream: str, data: bytes, mono: float, wall: float) -> None:
        """Hand over a chunk the copying path read: a small one inline on the control pipe
        (one write, whole or not at all), a bigger one by its data pipe (`copy`). What
        does not fit is a gap."""
        size = len(data)
        if size > INLINE_MAX:
            self.copy(stream, data, mono, wall)
            return
        with self._lock:
            if self._pending and not self.closed:
                self._flush()  # what waits goes first: the order is the recording's
            if self.closed:  # (also when that flush found the recorder gone)
                return
            if not self._pending:
                try:
                    os.write(self.fd, HEADER.pack(_INLINE[stream], mono, wall, size) + data)
                    return
                except BlockingIOError:
                    pass  # the recorder is behind: a gap
                except OSError as exc:
                    self._break(exc)
                    return
        self.dropped(stream, size, mono, wall)

    def copy(self, stream: str, data: bytes, mono: float, wall: float) -> None:
        """Send `data` over by a non-blocking write (the path without `tee`); what does not
        fit is a gap."""
        failure: OSError | None = None
        with self._data_locks[stream]:
            fds = self.data_fds
            if self.closed or fds is None:
                return
            try:
                written = os.write(fds[stream], data)
            except BlockingIOError:
                written = 0
            except OSError as exc:
                failure, written = exc, 0
        if failure is not None:
            self.fail(failure)
            return
        if written:
            self.sent(stream, written, mono, wall)
        if written < len(data):
            self.dropped(stream, len(data) - written, mono, wall)

    def note(self, text: str, mono: float, wall: float) -> None:
        payload = text.encode("utf-8", "replace")
        self._add(STREAM_CODES["note"], mono, wall, len(payload), payload)

    def fail(self, exc: OSError) -> None:
        with self._lock:
            if not self.closed:
                self._break(exc)

    # -- the control pipe ------------------------------------------------------------
    def _add(self, code: int, mono: float, wall: float, size: int, payload: bytes = b"") -> None:
        with self._lock:
            if self.closed:
                return
            pending = self._pending
            if pending and not payload and pending[-1][0] == code and not pending[-1][4]:
                pending[-1][3] = int(pending[-1][3]) + size  # type: ignore[call-overload]
            else:
                pending.append([code, mono, wall, size, payload])
            self._flush()

    def _flush(self) -> None:
        """Write what waits, in order, each message whole; stop at the first that does not
        fit (the caller holds the lock)."""
        pending = self._pending
        done = 0
        for code, mono, wall, size, payload in pending:
            message = HEADER.pack(code, mono, wall, size) + payload  # type: ignore[operator]
            try:
                written = os.write(self.fd, message)
            except BlockingIOError:
                break
            except OSError as exc:
                self._break(exc)
                return
            if written < len(message):  # a long note: finish it (rare, small)
                self._finish_write(message[written:])
            done += 1
        del pending[:done]

    def _finish_write(self, rest: bytes) -> None:
        os.set_blocking(self.fd, True)
        try:
            os.write(self.fd, rest)
        except OSError as exc:
            self._break(exc)
        finally:
            with contextlib.suppress(OSError):
                os.set_blocking(self.fd, False)

    def _break(self, exc: OSError) -> None:
        self.closed = True
        self._pending.clear()
        if exc.errno == errno.EPIPE:
            self.broken = "the recorder process ended"
        else:
            self.broken = f"the recorder process cannot be reached: {exc.strerror or exc}"
        if self.on_broken is not None:
            self.on_broken(self.broken)

    def close(self, last_note: str, mono: float, wall: float) -> None:
        """Send what waits and how it ended (waiting for room: this is the end), then end
        the pipes; the recorder finishes the file."""
        with self._lock:
            if self.data_fds is None:
                return
            if not self.closed:
                self.closed = True
                payload = last_note.encode("utf-8", "replace")
                self._pending.append([STREAM_CODES["last"], mono, wall, len(payload), payload])
                with contextlib.suppress(OSError):
                    os.set_blocking(self.fd, True)
                    for code, mono_, wall_, size, payload_ in self._pending:
                        head = HEADER.pack(code, mono_, wall_, size)
                        view = memoryview(head + payload_)  # type: ignore[operator]
                        while view:
                            view = view[os.write(self.fd, view) :]
                self._pending.clear()
            with contextlib.suppress(OSError):
                os.close(self.fd)
            data_fds, self.data_fds = self.data_fds, None
        for stream, fd in data_fds.items():
            with self._data_locks[stream], contextlib.suppress(OSError):
                os.close(fd)
