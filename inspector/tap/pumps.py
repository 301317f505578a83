"""One thread per stream, moving bytes from one file descriptor to another as they come.

Where both ends are pipes (Linux), the bytes never pass through Python: `tee(2)` shares
what waits in the source with the stream's recorder pipe (no copy, never waiting: a full
recorder pipe is a gap), then `splice(2)` moves it to the destination, up to 1 MiB per
wake-up. Otherwise (a file, a tty, a socket, another system) a pump reads whatever is
there (up to 64 KiB), hands it to the recorder pipe (a non-blocking write) and writes all
of it on. Either way it never decodes, reframes or waits for a line, and the recording
gets each chunk before the other side does.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Literal

from inspector.tap.link import NO_ROOM, NOT_RECORDING, RecorderLink
from inspector.tap.splicing import MOVE_LEN, SPLICE_F_MOVE, can_splice

__all__ = ["CHUNK", "Pump", "close_fd", "write_all"]

CHUNK: Final = 64 * 1024
_Next = Literal["eof", "copy", "dst-closed"]


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:  # a non-blocking destination: wait for room
            select.select([], [fd], [])
            continue
        view = view[written:]


@dataclass
class Pump:
    """Moves `src` to `dst` until `src` ends, handing each chunk to `link` (as `stream`)
    just before it goes on. When `dst` is closed by its reader, `on_dst_closed` runs (the
    caller passes the news on, e.g. by closing the other end) and reading goes on,
    discarding, so the writer behind `src` is not stuck on a full pipe."""

    name: str
    src: int
    dst: int
    stream: str
    link: RecorderLink | None
    on_eof: Callable[[], None] = lambda: None
    on_dst_closed: Callable[[], None] = lambda: None
    zero_copy: bool = True  # use tee/splice where both ends are pipes
    bytes_moved: int = 0
    spliced: bool = False  # the bytes went by splice (tells tests which path ran)
    thread: threading.Thread | None = field(default=None, repr=False)

    def start(self) -> None:
        self.thread = threading.Thread(target=self._run, name=f"tap-{self.name}", daemon=True)
        self.thread.start()

    def join(self, timeout: float | None = None) -> bool:
        if self.thread is not None:
            self.thread.join(timeout)
            return not self.thread.is_alive()
        return True

    def _run(self) -> None:
        next_step: _Next = "copy"
        if self.zero_copy and can_splice(self.src, self.dst):
            next_step = self._run_spliced()
        if next_step != "eof":
            self._run_copy(open_dst=next_step == "copy")
        self.on_eof()

    # -- the zero-copy path ------------------------------------------------------------
    def _run_spliced(self) -> _Next:
        src, stream, link = self.src, self.stream, self.link
        mono, wall = time.monotonic, time.time
        waiting = select.poll()
        waiting.register(src, select.POLLIN)
        while True:
            if any(ev & select.POLLNVAL for _, ev in waiting.poll()):
                return "eof"  # `src` was closed under us (the other side went away)
            try:
                n = link.tee_from(stream, src) if link is not None else NOT_RECORDING
            except OSError as exc:
                return "eof" if exc.errno == errno.EBADF else "copy"  # EINVAL: no tee here
            if n == 0:
                return "eof"
            if n > 0:
                assert link is not None
                link.sent(stream, n, mono(), wall())
                step = self._move(n)
                if step is not None:
                    return step
                continue
            try:
                moved = self._splice(MOVE_LEN)
            except OSError as exc:
                return "eof" if exc.errno == errno.EBADF else "copy"
            if moved == 0:
                return "eof"
            self.bytes_moved += moved
            if n == NO_ROOM and link is not None:
                link.dropped(stream, moved, mono(), wall())

    def _splice(self, length: int) -> int:
        while True:
            try:
                moved = os.splice(self.src, self.dst, length, flags=SPLICE_F_MOVE)
            except BlockingIOError:  # a non-blocking `dst` is full: wait for room
                # (`src` is not empty: it was polled, and this thread is its only reader)
                select.select([], [self.dst], [])
                continue
            self.spliced = True
            return moved

    def _move(self, n: int) -> _Next | None:
        """Move exactly the `n` bytes just teed (already recorded) on to `dst`."""
        while n:
            try:
                moved = self._splice(n)
            except OSError as exc:
                if exc.errno == errno.EINVAL:  # `dst` takes no splice after all
                    if self._copy_exactly(n, forward=True):
                        return "copy"
                else:  # the reader of `dst` is gone: these bytes go nowhere
                    self._copy_exactly(n, forward=False)
                self.on_dst_closed()
                return "dst-closed"
            if moved == 0:
                return "eof"
            n -= moved
            self.bytes_moved += moved
        return None

    def _copy_exactly(self, n: int, *, forward: bool) -> bool:
        """Read `n` bytes (recorded already) and write them on, or drop them. False if
        writing failed (the rest is dropped)."""
        ok = forward
        with contextlib.suppress(OSError):
            while n:
                data = os.read(self.src, min(n, CHUNK))
                if not data:
                    break
                n -= len(data)
                if ok:
                    try:
                        write_all(self.dst, data)
                        self.bytes_moved += len(data)
                    except OSError:
                        ok = False
        return ok

    # -- the copying path ---------------------------------------------------------------
    def _run_copy(self, open_dst: bool) -> None:
        read, src, dst, stream, link = os.read, self.src, self.dst, self.stream, self.link
        mono, wall = time.monotonic, time.time
        while True:
            try:
                data = read(src, CHUNK)
            except BlockingIOError:
                select.select([src], [], [])
                continue
            except OSError as exc:
                if exc.errno == errno.EINTR:
                    continue
                break
            if not data:
                break
            # Handed to the recording first: whatever reached the other side is then on
            # its way to the file, even if the tap is ended a moment later.
            if link is not None:
                link.copy(stream, data, mono(), wall())
            if open_dst:
                try:
                    write_all(dst, data)
                except OSError:
                    open_dst = False
                    self.on_dst_closed()
            self.bytes_moved += len(data)


def close_fd(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)
