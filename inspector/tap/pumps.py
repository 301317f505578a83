"""One thread per stream, moving bytes from one file descriptor to another as they come.

Two ways, and a pump switches between them as the traffic changes:

* **copying** (the start, and everything that is not pipe to pipe): a blocking read of
  whatever is there (up to 64 KiB), handed to the recorder (a small chunk inline with its
  header, in one non-blocking write: `link.RecorderLink.record`), then written on. Three
  system calls per chunk: what a host and server trading one message at a time pay.
* **zero-copy** (Linux, both ends pipes), once a read comes back big (a flood): `tee(2)`
  shares what waits in the source with the stream's recorder pipe (no copy, never
  waiting: a full recorder pipe is a gap), then `splice(2)` moves it to the destination,
  up to 1 MiB per wake-up. When the traffic is calm again (a small tee), back to copying.

Either way a pump never decodes, reframes or waits for a line, and the recording gets
each chunk before the other side does.
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

from inspector.tap.link import INLINE_MAX, NO_ROOM, NOT_RECORDING, RecorderLink
from inspector.tap.splicing import MOVE_LEN, SPLICE_F_MOVE, can_splice

__all__ = ["CALM_TEE", "CHUNK", "FLOOD_READ", "Pump", "close_fd", "join_thread", "write_all"]

CHUNK: Final = 64 * 1024
# A read too big to ride inline: switch to zero-copy; a tee small enough: back to copying.
FLOOD_READ: Final = INLINE_MAX + 1
CALM_TEE: Final = INLINE_MAX
_Next = Literal["eof", "copy", "dst-closed", "calm"]


def write_all(fd: int, data: bytes) -> None:
    try:
        written = os.write(fd, data)
    except BlockingIOError:
        written = 0
    if written == len(data):  # the common case: one write took it all
        return
    view = memoryview(data)[written:]
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
        return join_thread(self.thread, timeout)

    def _run(self) -> None:
        zero_copy = self.zero_copy and can_splice(self.src, self.dst)
        open_dst = True
        while self._run_copy(open_dst, flood_to_splice=zero_copy and open_dst) == "flood":
            step = self.run_spliced()
            if step == "eof":
                break
            if step == "dst-closed":
                open_dst = False
            elif step == "copy":  # no tee or splice here after all
                zero_copy = False
        self.on_eof()

    # -- the zero-copy path ------------------------------------------------------------
    def run_spliced(self) -> _Next:
        """Move a flood by tee/splice until `src` ends ("eof"), `dst` is closed by its
        reader ("dst-closed", after `on_dst_closed`), the traffic is calm again ("calm":
        a small tee) or these descriptors take no tee or splice ("copy"). Blocking: the
        pump's own thread, or a thread the duplex lends a flood (`duplex`)."""
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
                if n <= CALM_TEE:
                    return "calm"
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
    def _run_copy(self, open_dst: bool, flood_to_splice: bool) -> Literal["eof", "flood"]:
        """Copy until `src` ends ("eof"), or ("flood", with `flood_to_splice`) until a read
        comes back big: the zero-copy path moves the rest."""
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
                return "eof"
            if not data:
                return "eof"
            # Handed to the recording first: whatever reached the other side is then on
            # its way to the file, even if the tap is ended a moment later.
            if link is not None:
                link.record(stream, data, mono(), wall())
            if open_dst:
                try:
                    write_all(dst, data)
                except OSError:
                    open_dst = False
                    self.on_dst_closed()
            self.bytes_moved += len(data)
            if flood_to_splice and open_dst and len(data) >= FLOOD_READ:
                return "flood"


def join_thread(thread: threading.Thread | None, timeout: float | None) -> bool:
    """Wait for `thread` (if it was started); True once it has ended."""
    if thread is not None:
        thread.join(timeout)
        return not thread.is_alive()
    return True


def close_fd(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)
