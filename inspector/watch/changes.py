"""The change feed: file changes under the watched roots, coalesced into bursts.

`watchfiles.awatch` (a Rust watcher in a worker thread) already groups the events of a
few milliseconds; a save that touches thousands of files can still arrive as several of
its groups. `ChangeFeed.next_burst` waits for the first change and then for the tree to
be quiet for `quiet` seconds, so one save, however large, is ONE burst (capped at
`max_wait` so a file written all the time cannot hold a restart back forever).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from watchfiles import Change, awatch

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
        self._changed = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    # -- life -------------------------------------------------------------------------------
    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="watch files")

    async def wait_started(self, timeout: float = 5.0) -> None:
        """Until the watcher runs (changes made before this may be missed)."""
        await asyncio.wait_for(self._ready.wait(), timeout)

    async def stop(self) -> None:
        self._stop.set()
        task, self._task = self._task, None
        if task is None:
            return
        try:
            await asyncio.wait_for(task, 3.0)
        except (TimeoutError, asyncio.CancelledError):
            task.cancel()
        except Exception:
            log.debug("watcher task failed", exc_info=True)

    async def _run(self) -> None:
        try:
            async for changes in awatch(
                *self.watch.roots,
                watch_filter=self._counts,
                # Short groups from the Rust side, so that deliveries during a long save
                # come far more often than `quiet` (whose gap ends the burst).
                debounce=max(50, min(200, int(self.quiet * 250))),
                step=50,
                stop_event=self._stop,
                rust_timeout=500,
                yield_on_timeout=True,
            ):
                self._ready.set()
                if changes:
                    self._take(changes)
        except Exception as exc:
            self.error = f"watching files stopped: {exc}"
            log.warning("%s", self.error)
            self._changed.set()  # wake a waiter so it can report
        finally:
            self._ready.set()

    def _counts(self, _change: Change, path: str) -> bool:
        return self.watch.counts(path)

    def _take(self, changes: Iterable[tuple[Change, str]]) -> None:
        for change, path in changes:
            self._count += 1
            if len(self._sample) < _SAMPLE:
                self._sample[path] = _ACTION.get(change, "changed")
        self._last_change = time.monotonic()
        self._changed.set()

    # -- bursts -----------------------------------------------------------------------------
    @property
    def pending(self) -> bool:
        return self._count > 0

    async def next_burst(self) -> ChangeBurst:
        """Wait for a change, then for `quiet` seconds without one; returns the burst.
        Raises RuntimeError when the watcher stopped with an error."""
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
            wait = self._last_change + self.quiet - now
            if wait <= 0 or now - first >= self.max_wait:
                break
            await asyncio.sleep(min(wait, first + self.max_wait - now))
        return self.take()

    def take(self) -> ChangeBurst:
        """What changed since the last burst (and forget it)."""
        burst = ChangeBurst(self._count, tuple(self._sample.items()))
        self._count = 0
        self._sample = {}
        self._changed.clear()
        return burst
