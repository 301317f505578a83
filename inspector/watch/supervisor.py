"""The watch loop over one connection: restart the server on each burst of changes, then
list its catalog, diff it against the last good run and re-run the collection.

`WatchSupervisor` drives a `ConnectionModel` (the same object the GUI tab and the
`watch` command use), so a restart is the connection's own reconnect: the shutdown ladder
of the old session's close, a relaunch, a new handshake, the traffic log and workspace
kept. A server that fails to start reports its stderr and waits for the next change; a
restart never follows the previous one sooner than the debounce (`quiet`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from inspector.common.listeners import Listeners
from inspector.compare import CatalogSnapshot, diff_catalogs
from inspector.core.connection import ConnectionModel
from inspector.core.connection_state import ConnState
from inspector.core.server_connection import ServerConnection
from inspector.settings.profiles import Profile
from inspector.watch.catalog_wait import settled_snapshot
from inspector.watch.changes import ChangeBurst, ChangeFeed
from inspector.watch.marks import mark
from inspector.watch.report import CollectionSummary, RunReport, Trigger

__all__ = ["CollectionStep", "WatchOptions", "WatchSupervisor"]

log = logging.getLogger(__name__)

_STDERR_LINES = 40  # of a failed start, shown and reported
_HISTORY = 200


class CollectionStep(Protocol):
    """Runs the collection (or the calls pinned for watch) over a ready session; None:
    there is none to run this time (the window's tab has none open)."""

    @property
    def name(self) -> str: ...

    async def run(
        self, session: ServerConnection, tools: Sequence[dict[str, Any]] | None = None
    ) -> CollectionSummary | None: ...


@dataclass(frozen=True)
class WatchOptions:
    quiet: float = 0.5  # seconds without a change before a restart; the least gap between two
    list_timeout: float = 30.0  # for the catalog to be listed after a (re)start
    collection_timeout: float = 300.0  # for the whole collection


class WatchSupervisor:
    def __init__(
        self,
        model: ConnectionModel,
        profile: Profile | None,
        *,
        feed: ChangeFeed | None = None,
        collection: CollectionStep | None = None,
        options: WatchOptions | None = None,
    ) -> None:
        """`profile` is what a restart launches (None: re-runs only, e.g. an HTTP server
        the user runs); `feed` the file changes (None: no restarts)."""
        self.model = model
        self.profile = profile
        self.feed = feed
        self.collection = collection
        self.options = options or WatchOptions()
        self.reports: Listeners[[RunReport]] = Listeners("watch report listener")
        self.status: Listeners[[str]] = Listeners("watch status listener")
        self.history: list[RunReport] = []
        self.restarts = 0
        self.busy = False
        self._baseline: CatalogSnapshot | None = None
        self._last_start = -1e9
        self._lock = asyncio.Lock()
        self._stopped = asyncio.Event()

    @property
    def last(self) -> RunReport | None:
        return self.history[-1] if self.history else None

    # -- the loop ---------------------------------------------------------------------------
    async def run(self, *, connect: bool = True) -> None:
        """Watch until cancelled or `stop`: a first run (a start when `connect`, else a
        baseline of the live connection), then a restart per burst of changes. The file
        watcher stops with it."""
        unsubscribe = self.model.state_changed.add(self._state_changed)
        try:
            await self._run(connect)
        finally:
            unsubscribe()
            self.halt()  # at once: the loop may not run this task again
            if self.feed is not None:
                await self.feed.stop()

    def _state_changed(self, state: ConnState, detail: str) -> None:
        if state is ConnState.LOST and not self.busy:  # it crashed after it started
            then = "waiting for the next change" if self.feed is not None else "reconnect it"
            self.status.emit(f"the server exited: {detail}; {then}")

    async def _run(self, connect: bool) -> None:
        feed = self.feed
        if feed is not None:
            feed.start()
            await feed.wait_started()
        if connect and self.profile is not None:
            await self.restart(None, trigger="start")
        else:
            await self.rerun(trigger="start")
        if feed is None:
            return
        while not self._stopped.is_set():
            try:
                burst = await feed.next_burst()
            except RuntimeError as exc:  # the watcher itself died
                self.status.emit(str(exc))
                return
            if self._stopped.is_set():
                return
            wait = self._last_start + self.options.quiet - time.monotonic()
            if wait > 0:  # a crash loop never restarts faster than the debounce
                await asyncio.sleep(wait)
                more = feed.take()
                if more.count:
                    burst = ChangeBurst(burst.count + more.count, burst.sample or more.sample)
            await self.restart(burst)

    def halt(self) -> None:
        """Stop watching now, without waiting (the file watcher's thread ends by itself)."""
        self._stopped.set()
        if self.feed is not None:
            self.feed.halt()

    async def stop(self) -> None:
        """Stop watching (the connection stays as it is; the caller closes it)."""
        self._stopped.set()
        if self.feed is not None:
            await self.feed.stop()

    # -- one run ----------------------------------------------------------------------------
    async def restart(self, burst: ChangeBurst | None, trigger: Trigger = "change") -> RunReport:
        """(Re)start the server and run the checks; returns (and reports) the result."""
        profile = self.profile
        if profile is None:
            raise RuntimeError("watch mode has no server command to restart")
        async with self._lock:
            self.busy = True
            began = time.monotonic()
            self._last_start = began
            if trigger == "change":
                self.restarts += 1
            report = RunReport(self.restarts, trigger, burst=burst)
            base = str(self.feed.watch.roots[0]) if self.feed and self.feed.watch.roots else None
            why = f": {burst.describe(base)}" if burst else ""
            self.status.emit(f"restarting{why}" if trigger == "change" else "starting")
            if trigger == "change":
                mark(self.model.server, f"watch: restarting the server{why}")
            start_row = len(self.model.traffic)

            def started(session: ServerConnection) -> None:
                nonlocal start_row
                start_row = len(self.model.traffic)
                head = "watch: start" if trigger == "start" else f"watch: restart #{report.number}"
                mark(session, f"{head}{why}")

            unsubscribe = self.model.session_started.add(started)
            # The first start may find a tool changed since it was pinned: an alert. After
            # that, a change is the author's edit, shown as the catalog diff, re-pinned.
            with self._expected(trigger != "start"):
                try:
                    await self.model.connect_profile(profile)
                finally:
                    unsubscribe()
                if self.model.state is not ConnState.CONNECTED or self.model.server is None:
                    report.error = self.model.detail or "the server did not start"
                    report.stderr = self._stderr_since(start_row)
                    self._finish(report, began)
                    return report
                await self._check(report)
            self._finish(report, began)
            return report

    @contextlib.contextmanager
    def _expected(self, expected: bool) -> Iterator[None]:
        """While a restart or re-run the author asked for lists the catalog, a tool that
        changed since pinned is theirs: the loader re-pins it instead of alerting."""
        loader = self.model.catalog_loader
        loader.changes_expected = expected
        try:
            yield
        finally:
            loader.changes_expected = False

    async def rerun(self, trigger: Trigger = "rerun") -> RunReport:
        """List the catalog again and re-run the collection on the live connection, with no
        restart (an HTTP server the user runs, or a baseline when watch mode turns on)."""
        async with self._lock:
            self.busy = True
            began = time.monotonic()
            report = RunReport(self.restarts, trigger)
            self.status.emit("re-running")
            if self.model.state is not ConnState.CONNECTED or self.model.server is None:
                report.error = "not connected"
                self._finish(report, began)
                return report
            with self._expected(trigger != "start"):
                for kind in ("tools", "resources", "templates", "prompts"):
                    self.model.catalog_loader.reload(kind)
                await self._check(report)
            self._finish(report, began)
            return report

    async def _check(self, report: RunReport) -> None:
        session = self.model.server
        assert session is not None
        try:
            snapshot = await settled_snapshot(self.model, session, self.options.list_timeout)
        except TimeoutError:
            report.error = f"the catalog was not listed within {self.options.list_timeout:g} s"
            return
        if self.model.server is not session:
            report.error = "the server went away while its catalog was listed"
            report.stderr = self._stderr_since(0)
            return
        report.ok = True
        report.snapshot = snapshot
        if self._baseline is not None:
            report.catalog = diff_catalogs(self._baseline, snapshot)
        self._baseline = snapshot
        if self.collection is not None:
            tools = snapshot.tools if "tools" not in snapshot.errors else None
            report.collection = await self._run_collection(self.collection, session, tools)

    async def _run_collection(
        self,
        step: CollectionStep,
        session: ServerConnection,
        tools: Sequence[dict[str, Any]] | None,
    ) -> CollectionSummary | None:
        try:
            return await asyncio.wait_for(step.run(session, tools), self.options.collection_timeout)
        except TimeoutError:
            return CollectionSummary(
                step.name, error=f"did not finish within {self.options.collection_timeout:g} s"
            )
        except Exception as exc:
            log.warning("collection run failed", exc_info=True)
            return CollectionSummary(step.name, error=f"could not run: {exc}")

    def _stderr_since(self, row: int) -> list[str]:
        traffic = self.model.traffic
        lines: list[str] = []
        for index in range(max(0, min(row, len(traffic))), len(traffic)):
            entry = traffic[index]
            if entry.kind == "stderr":
                lines.append(entry.text())
        return lines[-_STDERR_LINES:]

    def _finish(self, report: RunReport, began: float) -> None:
        report.seconds = time.monotonic() - began
        self.busy = False  # (a cancelled run leaves it set: the supervisor is done then)
        self.history.append(report)
        del self.history[:-_HISTORY]
        mark(self.model.server, f"watch: {report.summary()}")
        self.status.emit("waiting for changes" if report.ok else "waiting for the next change")
        self.reports.emit(report)
