"""The change feed: file changes under the watched roots, coalesced into bursts.

`watchfiles.watch` (a Rust watcher) runs in a daemon thread of its own, which hands each
group of changes to the event loop (`call_soon_threadsafe`): no async library of its own
runs on the loop, so it behaves the same under qasync, and a loop that closes first leaves
nothing pending. It already groups the events of a few milliseconds; a save that touches
thousands of files can still arrive as several of
its groups. `ChangeFeed.next_burst` waits for the first change and then for the tree to
be quiet for `quiet` seconds, so one save, however large, is ONE burst (capped at
`max_wait` so a file written all the time cannot hold a restart back forever).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

from watchfiles import Change, watch

from inspector.watch.paths import ResolvedWatch

__all__ = ["ChangeBurst", "ChangeFeed"]

log = logging.getLogger(__name__)

_SAMPLE: Final = 20  # paths kept per burst to show; the rest are only counted
_ACTION: Final = {Change.added: "added", Change.modified: "modified", Change.deleted: "deleted"}


@dataclass(frozen=True)
class ChangeBurst:
    """The changes of one save: how many paths, and the first few (path, action)."""

    count: int
    sample: tuple[tuple[str, str], ...]

    def describe(self, base: str | None = None) -> str:
        if not self.sample:
            return "no change"
        path, action = self.sample[0]
        if base and path.startswith(base.rstrip("/") + "/"):
            path = path[len(base.rstrip("/")) + 1 :]
        more = f" and {self.count - 1:,} more" if self.count > 1 else ""
        return f"{path} {action}{more}"

    def to_json(self) -> dict[str, object]:
        return {"count": self.count, "paths": [{"path": p, "change": a} for p, a in self.sample]}


class ChangeFeed:
    """Watches `watch.roots` in the background (`start`/`stop`); `next_burst` hands out
    what changed since the last burst."""

    def __init__(self, watch: ResolvedWatch, *, quiet: float = 0.5, max_wait: float = 10.0):
        self.watch = watch
        self.quiet = quiet
        self.max_wait = max(max_wait, quiet)
        self.error: str | None = None  # the watcher died (the message says why)
        self._count = 0
        self._sample: dict[str, str] = {}
        self._last_change = 0.0
        self._idle_seen = False  # the watcher saw nothing for `quiet` since the last change
        self._changed = asyncio.Event()
        self._ready = asyncio.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- life -------------------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is None:
            self._loop = asyncio.get_running_loop()
            self._thread = threading.Thread(target=self._watch, name="watch files", daemon=True)
            self._thread.start()

    async def wait_started(self, timeout: float = 5.0) -> None:
        """Until the watcher runs (changes made before this may be missed)."""
        await asyncio.wait_for(self._ready.wait(), timeout)

    def halt(self) -> None:
        """Tell the watcher thread to end (within a few tens of ms); no waiting."""
        self._stop.set()

    async def stop(self, timeout: float = 3.0) -> None:
        """Stop watching; waits (at most `timeout`) for the watcher thread to end."""
        self._stop.set()
        thread, self._thread = self._thread, None
        deadline = time.monotonic() + timeout
        while thread is not None and thread.is_alive() and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    def _watch(self) -> None:
        """The watcher thread: every group of changes to the loop, until `_stop`."""
        try:
            for changes in watch(
                *self.watch.roots,
                watch_filter=self._counts,
                # Short groups, so that deliveries during a long save come far more often
                # than `quiet` (whose gap ends the burst).
                debounce=max(50, min(200, int(self.quiet * 250))),
                step=50,
                stop_event=self._stop,
                # An empty group after `quiet` without a change: the source is idle.
                rust_timeout=max(50, int(self.quiet * 1000)),
                yield_on_timeout=True,
                raise_interrupt=False,
            ):
                self._post(self._ready.set)
                self._post(self._take, changes) if changes else self._post(self._idle)
        except Exception as exc:  # the user sees why watching stopped
            self._post(self._fail, f"watching files stopped: {exc}")
        finally:
            self._post(self._ready.set)

    def _post(self, callback: Callable[..., Any], *args: Any) -> None:
        loop = self._loop
        if loop is None or loop.is_closed() or self._stop.is_set():
            self._stop.set()  # nobody listens any more: the thread ends
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits
            loop.call_soon_threadsafe(callback, *args)

    def _idle(self) -> None:
        self._idle_seen = True
        self._changed.set()

    def _fail(self, error: str) -> None:
        self.error = error
        log.warning("%s", error)
        self._changed.set()  # wake a waiter so it can report

    def _counts(self, _change: Change, path: str) -> bool:
        return self.watch.counts(path)

    def _take(self, changes: Iterable[tuple[Change, str]]) -> None:
        for change, path in changes:
            self._count += 1
            if len(self._sample) < _SAMPLE:
                self._sample[path] = _ACTION.get(change, "changed")
        self._last_change = time.monotonic()
        self._idle_seen = False
        self._changed.set()

    # -- bursts -----------------------------------------------------------------------------
    @property
    def pending(self) -> bool:
        return self._count > 0

    async def next_burst(self) -> ChangeBurst:
        """Wait for a change, then until the tree is quiet: `quiet` seconds without a change
        both here and at the source (the watcher's own idle report, so a delivery delayed
        by a busy machine does not cut a save in two). Raises RuntimeError when the
        watcher stopped with an error."""
        while not self._count:
            if self.error:
                raise RuntimeError(self.error)
            self._changed.clear()
            await self._changed.wait()
        first = time.monotonic()
        while True:
            if self.error:
                raise RuntimeError(self.error)
            now = time.monotonic()
            if now - first >= self.max_wait:
                break
            wait = self._last_change + self.quiet - now
            if wait <= 0 and self._idle_seen:
                break
            self._changed.clear()
            timeout = max(wait, 0.05) if wait > 0 else first + self.max_wait - now
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(timeout, self.max_wait))
        return self.take()

    def take(self) -> ChangeBurst:
        """What changed since the last burst (and forget it)."""
        burst = ChangeBurst(self._count, tuple(self._sample.items()))
        self._count = 0
        self._sample = {}
        self._changed.clear()
        return burst
