"""The host's two streams, served by one thread that stays awake a moment after each message.

A host and its server trade messages one at a time: a request goes in, the answer comes
back a few hundred microseconds later, the next request a little after that. With a
thread per stream (`pumps.Pump`), each of those messages finds the tap asleep in a
blocking read, and waking it is most of what the tap adds to a call (about 50 µs of
the 300 µs the demo server takes, bench/tap_overhead.py). Here one thread serves both
ways (the host's stdin to the server, the server's stdout back), and after moving a
message it keeps polling, without sleeping, for `spin` seconds (500 µs unless told):
the answer to the request it just passed on usually comes within that window. When
nothing comes, it sleeps in `poll(2)` like any relay. It stays awake only while the two
sides take turns (the message it moved went the other way from the one before): a run
of messages one way is no conversation, and spinning through it would take the CPU from
the server and the host that write and read it. The cost is bounded: at most one window
of CPU per message relayed, nothing while the line is quiet, and the spinning thread
yields the CPU (`sched_yield`) to anything else ready to run. Threads could not do this:
two spinning threads fight over the interpreter lock, which measured slower than sleeping.

Nothing here waits on one way while the other has something to move: the descriptors are
non-blocking, and a full destination (a host or server not reading) holds back only its
own way, which watches the destination for room (`poll` POLLOUT) instead of its source.
Each chunk is read, handed to the recorder (a small one inline with its header,
`link.RecorderLink.record`) and written on. A read that comes back big (a flood, from a
pipe into a pipe or a socket, on Linux) lends the way to a thread of its own, which moves
it by tee/splice with `Pump.run_spliced` (blocking calls, the fastest way through) until
the traffic is calm again, then gives it back.

A way whose destination is closed by its reader calls `on_dst_closed` and goes on reading
(and recording) its source, discarding, so that the writer behind it is not stuck. A way
whose source ends calls `on_eof`. The descriptors are left non-blocking: they are pipes
or sockets whose ends this process alone reads or writes (the relay uses `Duplex` only
when all four are; a terminal or a file keeps a thread per stream).
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

from inspector.tap.link import RecorderLink
from inspector.tap.pumps import CHUNK, FLOOD_READ, Pump, close_fd, join_thread
from inspector.tap.splicing import can_splice

__all__ = ["SPIN", "Duplex", "Way"]

SPIN: Final = 0.0005  # seconds awake after each message, by default
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
    copied: int = 0  # chunks read and written by the duplex itself
    floods: int = 0  # times the way was lent to a thread for a flood
    open_dst: bool = True
    can_tee: bool = False
    flooding: bool = False  # a big read came: lend the way out once `pending` is through
    pending: bytes = b""  # read and recorded, waiting for room in `dst`
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
        # Awake only while the line takes turns (a request one way, its answer the other).
        self._last_way: Way | None = None
        self._turned = False
        # A flood's thread gives its way back (or says it ended) here, and wakes the loop.
        self._back: list[tuple[Way, bool]] = []  # (way, its source ended)
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        for way in self.ways:
            way.can_tee = zero_copy and can_splice(way.src, way.dst)

    def start(self) -> None:
        self.thread = threading.Thread(target=self._run, name="tap-duplex", daemon=True)
        self.thread.start()

    def join(self, timeout: float | None = None) -> bool:
        return join_thread(self.thread, timeout)

    # -- the loop -----------------------------------------------------------------------
    def _run(self) -> None:
        live = 0
        for way in self.ways:
            try:
                for fd in (way.src, way.dst):
                    os.set_blocking(fd, False)
            except OSError:  # a descriptor closed already: nothing to serve
                self._finish(way)
                continue
            live += 1
            self._watch(way, way.src, _IN)
        self._poll.register(self._wake_r, _IN)
        poll, spin, clock = self._poll.poll, self.spin, time.monotonic
        last = clock()
        try:
            while live:
                if spin and self._turned:  # awake: look, and look again, until `spin`
                    events = poll(0)
                    if not events:
                        if clock() - last < spin:
                            _yield()
                            continue
                        events = poll()
                else:
                    events = poll()
                for fd, revents in events:
                    if fd == self._wake_r:
                        self._take_back()
                        continue
                    ready = self._by_fd.get(fd)
                    if ready is None:
                        continue
                    if ready.waiting_dst:
                        self._room(ready)
                    elif revents & select.POLLNVAL:
                        self._end(ready)  # `src` was closed under us
                    else:
                        self._data(ready)
                live = sum(1 for w in self.ways if not w.ended.is_set())
                last = clock()
        finally:
            close_fd(self._wake_r)
            close_fd(self._wake_w)

    def _watch(self, way: Way, fd: int, mask: int) -> None:
        self._forget(way)
        self._by_fd[fd] = way
        self._poll.register(fd, mask)
        way.waiting_dst = fd == way.dst

    def _forget(self, way: Way) -> None:
        for fd in (way.src, way.dst):
            if self._by_fd.get(fd) is way:
                del self._by_fd[fd]
                with contextlib.suppress(KeyError, ValueError, OSError):
                    self._poll.unregister(fd)

    def _end(self, way: Way) -> None:
        self._forget(way)
        self._finish(way)

    @staticmethod
    def _finish(way: Way) -> None:
        try:
            way.on_eof()
        finally:
            way.ended.set()

    # -- data in, room out --------------------------------------------------------------
    def _data(self, way: Way) -> None:
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
        self._turned, self._last_way = way is not self._last_way, way
        link = self.link
        if link is not None:  # recorded first: what reached the other side is on file
            link.record(way.stream, data, time.monotonic(), time.time())
        way.copied += 1
        self._write(way, data)
        if way.can_tee and way.open_dst and len(data) >= FLOOD_READ:
            self._turned = False  # a flood is no conversation
            way.flooding = True
            if not way.waiting_dst:
                self._lend(way)

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

    def _room(self, way: Way) -> None:
        """`dst` has room (or an error to tell): write what waits, then go on."""
        data, way.pending = way.pending, b""
        self._write(way, data)  # what does not fit waits again
        if way.pending or not way.waiting_dst:
            return
        if way.flooding and way.open_dst:
            self._lend(way)
        else:
            self._watch(way, way.src, _IN)

    def _dst_closed(self, way: Way) -> None:
        way.open_dst = False
        way.flooding = False
        if way.pending:
            way.bytes_moved += len(way.pending)
            way.pending = b""
        if way.waiting_dst:
            self._watch(way, way.src, _IN)
        way.on_dst_closed()

    # -- floods -------------------------------------------------------------------------
    def _lend(self, way: Way) -> None:
        """Give the way to a thread of its own while it floods (blocking tee/splice)."""
        self._forget(way)
        way.floods += 1
        threading.Thread(target=self._flood, args=(way,), name=f"tap-{way.name}-flood",
                         daemon=True).start()  # fmt: skip

    def _flood(self, way: Way) -> None:
        pump = Pump(way.name, way.src, way.dst, way.stream, self.link,
                    on_dst_closed=way.on_dst_closed)  # fmt: skip
        # Blocking while lent: a full destination is waited for inside splice(2), not by
        # a poll and a retry for each page the reader frees (both ends: splice takes
        # either one's O_NONBLOCK as its own; measured 0.85 of a direct pipe, not 1.0).
        try:
            self._blocking(way, True)
            step = pump.run_spliced()
        except OSError:  # a descriptor closed under it: the way ends rather than the tap
            step = "eof"
        with contextlib.suppress(OSError):
            self._blocking(way, False)
        way.bytes_moved += pump.bytes_moved
        way.spliced |= pump.spliced
        way.flooding = False
        if step == "dst-closed":
            way.open_dst = False
        elif step == "copy":
            way.can_tee = False
        # The loop ends the way (its `on_eof` runs there, as for any other end): it
        # cannot finish, and close the wake-up pipe, before it has read this.
        self._back.append((way, step == "eof"))
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"!")

    @staticmethod
    def _blocking(way: Way, blocking: bool) -> None:
        os.set_blocking(way.src, blocking)
        if way.open_dst:
            os.set_blocking(way.dst, blocking)

    def _take_back(self) -> None:
        with contextlib.suppress(OSError):
            while os.read(self._wake_r, 4096):
                pass
        while self._back:
            way, ended = self._back.pop(0)
            if ended:
                self._finish(way)
            else:
                self._watch(way, way.src, _IN)
