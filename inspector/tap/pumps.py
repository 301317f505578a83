"""One thread per stream, copying bytes from one file descriptor to another as they come.

A pump reads whatever is there (up to 64 KiB), hands a reference to the recording (a deque
append) and writes all of it on. It never decodes, reframes or waits for a
line: the bytes leave in the order and the chunks they arrived in.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

__all__ = ["CHUNK", "Pump", "close_fd", "write_all"]

CHUNK: Final = 64 * 1024


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


@dataclass
class Pump:
    """Copies `src` to `dst` until `src` ends. `record(data)` sees each chunk just before
    it is written on. When `dst` is closed by its reader, `on_dst_closed` runs (the caller
    passes the news on, e.g. by closing the other end) and reading goes on, discarding,
    so the writer behind `src` is not stuck on a full pipe."""

    name: str
    src: int
    dst: int
    record: Callable[[bytes], None]
    on_eof: Callable[[], None] = lambda: None
    on_dst_closed: Callable[[], None] = lambda: None
    bytes_moved: int = 0
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
        read, src, dst, record = os.read, self.src, self.dst, self.record
        open_dst = True
        while True:
            try:
                data = read(src, CHUNK)
            except OSError as exc:
                if exc.errno == errno.EINTR:
                    continue
                break
            if not data:
                break
            # Handed to the recording first (one deque append): whatever reached the
            # other side is then in the file, even if the tap is ended a moment later.
            record(data)
            if open_dst:
                try:
                    write_all(dst, data)
                except OSError:
                    open_dst = False
                    self.on_dst_closed()
            self.bytes_moved += len(data)
        self.on_eof()


def close_fd(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)
