"""Fill the catalog from a session: first pages after connect, "load more", "load all",
re-listing on list_changed, and the pin check of tools. Qt-free (asyncio only).

One listing per kind runs at a time; a reload asked for while one runs is done right after
it. A failure fails that list only (its error is shown in the tree); the app keeps going.
In the modern era, list changes arrive on a `subscriptions/listen` stream, opened when the
server declares listChanged; in the legacy era they are plain notifications.

Modern results are cacheable (`cache_hints`): a new connection to the same server
(`prepare` with the same key) keeps each list that is still fresh by its ttlMs and "public",
and does not list it again; `reload` (Refresh, watch mode, a list_changed) always lists.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any, Final, Literal

from inspector.common.listeners import Listeners
from inspector.features.catalog.cache_hints import cache_hints
from inspector.features.catalog.lists import (
    KINDS,
    Catalog,
    CatalogItem,
    CatalogKind,
    CatalogList,
    ListDiff,
)
from inspector.features.catalog.pins import PinChange, PinStore
from inspector.protocol.wire.versions import Era
from inspector.session import Call, Session, SessionError

__all__ = ["CAPABILITY_OF", "CatalogLoader", "LoadMode"]

log = logging.getLogger(__name__)

LoadMode = Literal["reload", "more", "all"]
Starter = Callable[[Coroutine[Any, Any, Any], str], "asyncio.Task[Any]"]
Reporter = Callable[[str, str], None]  # (category, message) for the Errors store

CAPABILITY_OF: Final[dict[CatalogKind, str]] = {
    "tools": "tools",
    "resources": "resources",
    "templates": "resources",
    "prompts": "prompts",
}
_LISTEN_FILTER: Final = {
    "tools": "toolsListChanged",
    "resources": "resourcesListChanged",
    "prompts": "promptsListChanged",
}
_PIN_SLICE: Final = 500  # tools hashed per turn of the event loop
PAGES_PER_LOAD_ALL: Final = 100  # a server handing out fresh cursors forever stops here


class CatalogLoader:
    def __init__(
        self,
        catalog: Catalog,
        start: Starter,
        report: Reporter,
        pins: PinStore | None = None,
    ) -> None:
        self.catalog = catalog
        self.pins = pins
        self._start = start
        self._report = report
        self.auto_relist = True
        self.session: Session | None = None
        self.scope: str | None = None  # the pin scope (profile id)
        self.pin_alerts: dict[str, PinChange] = {}
        # Set while the tools' changes are the user's own doing (watch mode restarting the
        # server after the author's edit, or re-running on demand): a changed tool is then
        # re-pinned, with no rug-pull alert (the watch report shows the catalog diff).
        self.changes_expected = False
        self._checking_pins = False
        self.listen_call: Call | None = None
        self._tasks: dict[CatalogKind, asyncio.Task[None]] = {}
        self._pending: set[CatalogKind] = set()
        self._stale_after: set[CatalogKind] = set()
        self._reported: set[tuple[str, str]] = set()  # (tool, hash) alerts already reported
        self.clock: Callable[[], float] = time.monotonic  # when a page was received
        self._cache_key: str | None = None  # the server (and settings) the lists are of
        self._kept: set[CatalogKind] = set()  # kept by `prepare` for the next `attach`
        self.relisted: Listeners[[CatalogKind, ListDiff]] = Listeners("relist listener")
        self.pins_changed: Listeners[[]] = Listeners("pins listener")

    # -- session ---------------------------------------------------------------------------
    def prepare(self, key: str) -> None:
        """A connection to `key` (a server and the settings that reach it) is about to be
        made: forget every list but those of the same key still fresh and public."""
        now = self.clock()
        same = key == self._cache_key
        self._cache_key = key
        self._kept = set()
        for kind in KINDS:
            lst = self.catalog[kind]
            if same and lst.reusable(now):
                self._kept.add(kind)
                lst.reused = True
            else:
                lst.reset()

    def attach(self, session: Session, scope: str | None) -> None:
        """A session is ready: list what the server offers (first pages), but for the
        lists `prepare` kept (fresh: not listed again)."""
        kept = self._kept if session.era is Era.MODERN else set()
        self._kept = set()
        self.detach()
        self.session = session
        self.scope = scope
        for kind in KINDS:
            if kind not in kept:
                self.catalog[kind].reset()
        if "tools" not in kept:
            self._set_alerts({})
        caps = session.server_capabilities
        for kind in KINDS:
            if CAPABILITY_OF[kind] in caps and kind in kept:
                log.info("%s: kept from the last connection (fresh by its ttlMs)", kind)
                self.catalog[kind].set_loading(False)
            elif CAPABILITY_OF[kind] in caps:
                self.reload(kind)
            else:
                self.catalog[kind].set_absent(
                    f"The server does not declare the {CAPABILITY_OF[kind]!r} capability."
                )
        self._open_listen(session)

    def detach(self) -> None:
        """The session is over: stop listings; what was listed stays for reading."""
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()
        self._pending.clear()
        self._stale_after.clear()
        if self.listen_call is not None:
            self.listen_call.cancel("disconnecting")
            self.listen_call = None
        self.session = None
        for lst in self.catalog.lists.values():
            lst.set_loading(False)

    def declared(self, kind: CatalogKind) -> bool:
        session = self.session
        return session is not None and CAPABILITY_OF[kind] in session.server_capabilities

    def _open_listen(self, session: Session) -> None:
        if session.era is not Era.MODERN:
            return
        caps = session.server_capabilities
        wanted = {
            flag: True
            for cap, flag in _LISTEN_FILTER.items()
            if isinstance(caps.get(cap), dict) and caps[cap].get("listChanged")
        }
        if not wanted:
            return
        try:
            call = session.client.listen(wanted)
        except SessionError as exc:
            self._report("subscription", f"subscriptions/listen could not start: {exc}")
            return
        self.listen_call = call
        self._start(self._watch_listen(session, call), "list-changed subscription")

    async def _watch_listen(self, session: Session, call: Call) -> None:
        try:
            await call.result()
        except SessionError as exc:
            if session is self.session and call is self.listen_call:
                log.info("subscriptions/listen ended: %s", exc)
        if session is self.session and call is self.listen_call:
            self.listen_call = None

    # -- intents ---------------------------------------------------------------------------
    def reload(self, kind: CatalogKind) -> asyncio.Task[None] | None:
        return self._run(kind, "reload")

    def load_more(self, kind: CatalogKind) -> asyncio.Task[None] | None:
        return self._run(kind, "more")

    def load_all(self, kind: CatalogKind) -> asyncio.Task[None] | None:
        return self._run(kind, "all")

    def list_changed(self, list_name: str) -> None:
        """A list_changed notification (legacy) or subscription event (modern) arrived."""
        target = self.catalog.list_changed(list_name)
        if target is None:
            return
        kinds: list[CatalogKind] = [target.kind]
        if target.kind == "resources" and self.declared("templates"):
            kinds.append("templates")
        for kind in kinds:
            if self.auto_relist:
                self.reload(kind)
            elif self.busy(kind):
                self._stale_after.add(kind)  # the listing under way predates the change

    def busy(self, kind: CatalogKind) -> bool:
        """Whether `kind` is being listed (for tools: or its pins checked, in slices)."""
        if kind == "tools" and self._checking_pins:
            return True
        task = self._tasks.get(kind)
        return task is not None and not task.done()

    def _run(self, kind: CatalogKind, mode: LoadMode) -> asyncio.Task[None] | None:
        session = self.session
        if session is None or not self.declared(kind):
            return None
        if self.busy(kind):
            if mode == "reload":
                self._pending.add(kind)
            return self._tasks[kind]
        lst = self.catalog[kind]
        if mode != "reload" and not lst.has_more:
            return None
        task = self._start(self._load(session, lst, mode), f"list {kind}")
        self._tasks[kind] = task
        return task

    # -- listing ---------------------------------------------------------------------------
    async def _load(self, session: Session, lst: CatalogList, mode: LoadMode) -> None:
        kind = lst.kind
        lst.set_loading(True)
        reloading = mode == "reload"
        try:
            if reloading:
                wanted = max(1, lst.pages) if lst.loaded else 1
                lst.begin_reload()
                params: dict[str, Any] | None = {}
            else:
                wanted = 1 if mode == "more" else PAGES_PER_LOAD_ALL
                params = lst.next_page_params()
            pages = 0
            while params is not None and pages < wanted:
                cursor = params.get("cursor")
                try:
                    result = await self._page(session, kind, cursor)
                except SessionError as exc:
                    if session is self.session:
                        text = str(exc)
                        lst.fail(text if text.startswith(lst.method) else f"{lst.method}: {text}")
                    return
                if session is not self.session:
                    return
                lst.apply_page(
                    result,
                    first=reloading and pages == 0,
                    excluded=session.client.excluded_tools if kind == "tools" else None,
                    hints=cache_hints(result, method=lst.method, modern=session.era is Era.MODERN),
                    now=self.clock(),
                )
                pages += 1
                params = lst.next_page_params()
            if mode == "all" and params is not None:
                lst.fail(
                    f"stopped after {PAGES_PER_LOAD_ALL} pages in one go; "
                    "“Load all” continues from here"
                )
        finally:
            diff = lst.end_reload() if reloading else None
            if self._tasks.get(kind) is asyncio.current_task():
                del self._tasks[kind]
            lst.set_loading(False)
            if kind in self._stale_after and session is self.session:
                self._stale_after.discard(kind)
                lst.mark_stale()
        if session is not self.session:
            return
        if kind == "tools":
            self._checking_pins = True
            try:
                await self._check_pins()
            finally:
                self._checking_pins = False
        if diff is not None and not diff.empty:
            self.relisted.emit(kind, diff)
        if kind in self._pending:
            self._pending.discard(kind)
            self.reload(kind)

    async def _page(self, session: Session, kind: CatalogKind, cursor: Any) -> dict[str, Any]:
        cursor = cursor if isinstance(cursor, str) else None
        if kind == "tools":
            return await session.client.list_tools_page(cursor)
        params = {"cursor": cursor} if cursor else None
        return await session.request(self.catalog[kind].method, params)

    # -- pins ------------------------------------------------------------------------------
    async def _check_pins(self) -> None:
        """Compare the listed tools with their pins, in slices: a server with thousands of
        tools is shown at once, and the window stays responsive while they are hashed."""
        pins, scope = self.pins, self.scope
        if pins is None or scope is None:
            return
        listed = [(i.key, i.raw) for i in self.catalog.tools]
        changes: list[PinChange] = []
        for start in range(0, len(listed), _PIN_SLICE):
            if start:
                await asyncio.sleep(0)
            changes += pins.check(scope, listed[start : start + _PIN_SLICE], save=False)
        pins.flush()
        if pins is not self.pins or scope != self.scope:
            return  # another server meanwhile: its own check reports
        if self.changes_expected and changes:
            for change in changes:  # the author's own edit: trusted as it is now
                item = self.catalog.tools.find(change.name)
                if item is not None:
                    pins.accept(scope, change.name, item.raw)
            changes = [c for c in changes if self.catalog.tools.find(c.name) is None]
        for change in changes:
            if (change.name, change.new_hash) not in self._reported:
                self._reported.add((change.name, change.new_hash))
                self._report("rug pull", change.describe())
        self._set_alerts({c.name: c for c in changes})

    def accept_pin(self, name: str) -> None:
        """The user read the diff and trusts the tool as it is now: re-pin it."""
        change = self.pin_alerts.get(name)
        item = self.catalog.tools.find(name)
        if change is None or self.pins is None or item is None:
            return
        self.pins.accept(change.scope, name, item.raw)
        alerts = dict(self.pin_alerts)
        del alerts[name]
        self._set_alerts(alerts)

    def accept_all_pins(self) -> None:
        """Re-pin every changed tool: one save of the pins and one alert change, however
        many (a gateway's update can change thousands)."""
        if self.pins is None or not self.pin_alerts:
            return
        listed: dict[str, CatalogItem] = {}
        for item in self.catalog.tools:
            listed.setdefault(item.key, item)  # the first of a name listed twice, as find()
        alerts = dict(self.pin_alerts)
        for name, change in self.pin_alerts.items():
            found = listed.get(name)
            if found is not None:
                self.pins.accept(change.scope, name, found.raw, save=False)
                del alerts[name]
        self.pins.flush()
        self._set_alerts(alerts)

    def _set_alerts(self, alerts: dict[str, PinChange]) -> None:
        if alerts == self.pin_alerts:
            return
        self.pin_alerts = alerts
        self.pins_changed.emit()
