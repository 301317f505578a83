"""The host's two streams, served by one thread that stays awake a moment after each message.

A host and its server trade messages one at a time: a request goes in, the answer comes
back a few hundred microseconds later, the next request a little after that. With a
thread per stream (`pumps.Pump`), each of those messages finds the tap asleep in a
blocking read, and waking it is most of what the tap adds to a call (about 50 µs of
the 300 µs the demo server takes, bench/tap_overhead.py). Here one thread serves both
ways (the host's stdin to the server, the server's stdout back), and after moving
anything it keeps polling, without sleeping, for `spin` seconds (500 µs unless told):
the answer to the request it just passed on usually comes within that window. When
nothing comes, it sleeps in `poll(2)` like any relay. The cost is bounded: at most one
window of CPU per message relayed, and nothing at all while the line is quiet; the
spinning thread yields the CPU (`sched_yield`) to anything else that is ready to run.
Threads could not do this: two spinning threads fight over the interpreter lock, which
measured slower than sleeping.

Nothing here ever waits on one way while the other has something to move: every
descriptor is non-blocking. A full destination (a host or server not reading) holds back
only its own way, which then watches the destination for room (`poll` POLLOUT) instead
of its source. The bytes of a way are handled exactly as `Pump` handles them:

* copying: a read of whatever is there (up to 64 KiB), handed to the recorder (a small
  chunk inline with its header, `link.RecorderLink.record`), then written on;
* zero-copy (both ends pipes, Linux), once a read comes back big (a flood): `tee(2)` into
  the recorder's data pipe, then `splice(2)` on; a small tee goes back to copying.

A way whose destination is closed by its reader calls `on_dst_closed` and goes on reading
(and recording) its source, discarding, so that the writer behind it is not stuck. A way
whose source ends calls `on_eof`. The descriptors are left non-blocking: they are pipes
this process alone reads or writes (the relay uses `Duplex` only when all four are).
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from inspector.tap.link import NO_ROOM, NOT_RECORDING, RecorderLink
from inspector.tap.pumps import CALM_TEE, CHUNK, FLOOD_READ
from inspector.tap.splicing import MOVE_LEN, SPLICE_F_MOVE, SPLICE_F_NONBLOCK, can_splice

__all__ = ["SPIN", "Duplex", "Way"]

SPIN: Final = 0.0005  # seconds awake after each message, by default
_SPLICE_FLAGS: Final = SPLICE_F_MOVE | SPLICE_F_NONBLOCK
_IN: Final = select.POLLIN
_OUT: Final = select.POLLOUT
_yield: Final[Callable[[], None]] = getattr(os, "sched_yield", lambda: None)


@dataclass(eq=False)
class Way:
    """One way through the duplex: `src` to `dst`, recorded as `stream`."""

    name: str
    src: int
    dst: int
    stream: str
    on_eof: Callable[[], None] = lambda: None
    on_dst_closed: Callable[[], None] = lambda: None
    bytes_moved: int = 0  # taken from `src` (written on, or dropped once `dst` closed)
    spliced: bool = False  # some bytes went by splice (tells tests which path ran)
    copied: int = 0  # chunks that went by the copying path
    open_dst: bool = True
    flooding: bool = False  # a big read came: tee/splice until the traffic is calm
    can_tee: bool = False
    pending: bytes = b""  # read and recorded, waiting for room in `dst`
    owed: int = 0  # teed (recorded) bytes still in `src`, waiting for room in `dst`
    waiting_dst: bool = False  # watching `dst` for room, not `src` for data
    ended: threading.Event = field(default_factory=threading.Event, repr=False)

    def join(self, timeout: float | None = None) -> bool:
        """Wait until the source ended (and `on_eof` ran)."""
        return self.ended.wait(timeout)


class Duplex:
    """Serves `ways` (usually two) in one thread until every source has ended."""

    def __init__(
        self,
        ways: Sequence[Way],
        link: RecorderLink | None,
        *,
        zero_copy: bool = True,
        spin: float = SPIN,
    ) -> None:
        self.ways = list(ways)
        self.link = link
        self.spin = max(0.0, spin)
        self.thread: threading.Thread | None = None
        self._poll = select.poll()
        self._by_fd: dict[int, Way] = {}
        for way in self.ways:
            way.can_tee = zero_copy and can_splice(way.src, way.dst)

    def start(self) -> None:
        self.thread = threading.Thread(target=self._run, name="tap-duplex", daemon=True)
        self.thread.start()

    def join(self, timeout: float | None = None) -> bool:
        if self.thread is not None:
            self.thread.join(timeout)
            return not self.thread.is_alive()
        return True

    # -- the loop -----------------------------------------------------------------------
    def _run(self) -> None:
        live: list[Way] = []
        for way in self.ways:
            try:
                for fd in (way.src, way.dst):
                    os.set_blocking(fd, False)
            except OSError:  # a descriptor closed already: nothing to serve
                self._end(way)
                continue
            live.append(way)
            self._watch(way, way.src, _IN)
        poll, spin, clock = self._poll.poll, self.spin, time.monotonic
        last = clock()
        while live:
            events = poll(0)
            if not events:
                if spin and clock() - last < spin:
                    _yield()
                    continue
                events = poll()
            for fd, revents in events:
                ready = self._by_fd.get(fd)
                if ready is None or ready.ended.is_set():
                    continue
                if ready.waiting_dst:
                    self._room(ready)
                elif revents & select.POLLNVAL:
                    self._end(ready)  # `src` was closed under us (the other side went away)
                else:
                    self._data(ready)
            if len(live) != sum(1 for w in live if not w.ended.is_set()):
                live = [w for w in live if not w.ended.is_set()]
            last = clock()

    def _watch(self, way: Way, fd: int, mask: int) -> None:
        for old in (way.src, way.dst):
            if self._by_fd.get(old) is way:
                del self._by_fd[old]
                with contextlib.suppress(KeyError, ValueError, OSError):
                    self._poll.unregister(old)
        self._by_fd[fd] = way
        self._poll.register(fd, mask)
        way.waiting_dst = fd == way.dst

    def _end(self, way: Way) -> None:
        for fd in (way.src, way.dst):
            if self._by_fd.get(fd) is way:
                del self._by_fd[fd]
                with contextlib.suppress(KeyError, ValueError, OSError):
                    self._poll.unregister(fd)
        try:
            way.on_eof()
        finally:
            way.ended.set()

    # -- data in ------------------------------------------------------------------------
    def _data(self, way: Way) -> None:
        if way.flooding:
            self._tee(way)
            return
        try:
            data = os.read(way.src, CHUNK)
        except BlockingIOError:
            return
        except OSError as exc:
            if exc.errno != errno.EINTR:
                self._end(way)
            return
        if not data:
            self._end(way)
            return
        link = self.link
        if link is not None:  # recorded first: what reached the other side is on file
            link.record(way.stream, data, time.monotonic(), time.time())
        way.copied += 1
        self._write(way, data)
        if way.can_tee and way.open_dst and len(data) >= FLOOD_READ:
            way.flooding = True

    def _write(self, way: Way, data: bytes) -> None:
        if not way.open_dst:  # discarding: the reader of `dst` is gone
            way.bytes_moved += len(data)
            return
        try:
            written = os.write(way.dst, data)
        except BlockingIOError:
            written = 0
        except OSError:  # the reader of `dst` is gone: this chunk goes nowhere
            way.bytes_moved += len(data)
            self._dst_closed(way)
            return
        way.bytes_moved += written
        if written < len(data):
            way.pending = data[written:]
            self._watch(way, way.dst, _OUT)

    def _tee(self, way: Way) -> None:
        link = self.link
        try:
            n = link.tee_from(way.stream, way.src) if link is not None else NOT_RECORDING
        except OSError as exc:
            if exc.errno == errno.EBADF:
                self._end(way)
            else:  # EINVAL: no tee here after all
                way.can_tee = way.flooding = False
            return
        if n == 0:
            self._end(way)
            return
        if n > 0:
            assert link is not None
            link.sent(way.stream, n, time.monotonic(), time.time())
            way.owed = n
            self._move_owed(way)
            if n <= CALM_TEE:
                way.flooding = False
            return
        # Not recorded (the data pipe is full, or no recorder): move it on all the same.
        try:
            moved = os.splice(way.src, way.dst, MOVE_LEN, flags=_SPLICE_FLAGS)
        except BlockingIOError:  # `src` was polled ready: `dst` is full
            self._watch(way, way.dst, _OUT)
            return
        except OSError as exc:
            if exc.errno == errno.EBADF:
                self._end(way)
            elif exc.errno == errno.EINVAL:
                way.can_tee = way.flooding = False
            else:
                self._dst_closed(way)
            return
        if moved == 0:
            self._end(way)
            return
        way.spliced = True
        way.bytes_moved += moved
        if n == NO_ROOM and link is not None:
            link.dropped(way.stream, moved, time.monotonic(), time.time())

    # -- room out -----------------------------------------------------------------------
    def _room(self, way: Way) -> None:
        """`dst` has room (or an error to tell): move what waits, then watch `src` again."""
        if way.pending:
            data, way.pending = way.pending, b""
            self._write(way, data)  # what does not fit waits again
            if way.pending or not way.waiting_dst:
                return
        elif way.owed:
            self._move_owed(way)
            if way.owed or not way.waiting_dst:
                return
        self._watch(way, way.src, _IN)

    def _move_owed(self, way: Way) -> None:
        """Splice the `owed` bytes (teed, so recorded already) on to `dst`."""
        while way.owed:
            try:
                moved = os.splice(way.src, way.dst, way.owed, flags=_SPLICE_FLAGS)
            except BlockingIOError:
                if not way.waiting_dst:
                    self._watch(way, way.dst, _OUT)
                return
            except OSError as exc:
                owed, way.owed = way.owed, 0
                data = self._read_exactly(way.src, owed)
                way.can_tee = way.flooding = False
                if exc.errno == errno.EINVAL:  # `dst` takes no splice: write them instead
                    self._write(way, data)
                else:  # the reader of `dst` is gone: these bytes go nowhere
                    way.bytes_moved += len(data)
                    self._dst_closed(way)
                return
            if moved == 0:  # cannot happen for bytes teed from a pipe; end rather than spin
                way.owed = 0
                self._end(way)
                return
            way.owed -= moved
            way.bytes_moved += moved
            way.spliced = True

    @staticmethod
    def _read_exactly(fd: int, n: int) -> bytes:
        """The `n` bytes that wait in pipe `fd` (teed, so they are there)."""
        out = bytearray()
        with contextlib.suppress(OSError):
            while len(out) < n:
                data = os.read(fd, n - len(out))
                if not data:
                    break
                out += data
        return bytes(out)

    def _dst_closed(self, way: Way) -> None:
        way.open_dst = False
        way.flooding = False
        if way.pending:
            way.bytes_moved += len(way.pending)
            way.pending = b""
        if way.waiting_dst:
            self._watch(way, way.src, _IN)
        way.on_dst_closed()
