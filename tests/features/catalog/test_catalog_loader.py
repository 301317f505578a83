"""CatalogLoader against real servers, without Qt: first pages, load more/all, cursor loops,
a failing list, re-listing on list_changed (legacy notifications and the modern
subscriptions/listen stream), and pins between two sessions."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from inspector.features.catalog.lists import Catalog, CatalogKind, CatalogList, ListDiff
from inspector.features.catalog.loader import PAGES_PER_LOAD_ALL, CatalogLoader
from inspector.features.catalog.pins import PinStore
from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.machine.events import ListChanged, NotificationReceived
from inspector.protocol.wire.versions import Era, EraSetting
from inspector.session import Session
from inspector.transports.base import Transport
from inspector.transports.memory import MemoryTransport
from inspector.transports.stdio import StdioParams, StdioTransport
from tests.helpers.http_fakes import FakeHttp, open_session, result
from tests.helpers.peers import REPO
from tests.helpers.sessions import OpenSessions
from tests.servers.misbehaving import paging_server

pytestmark = pytest.mark.timeout(60)

PAGING = str(REPO / "tests" / "servers" / "misbehaving" / "paging_server.py")


class Harness:
    def __init__(self, session: Session, pins: PinStore | None) -> None:
        self.session = session
        self.catalog = Catalog()
        self.errors: list[tuple[str, str]] = []
        self.tasks: set[asyncio.Task[Any]] = set()
        self.loader = CatalogLoader(
            self.catalog, self.start, lambda c, m: self.errors.append((c, m)), pins
        )
        self.diffs: list[tuple[CatalogKind, ListDiff]] = []
        self.loader.relisted.add(lambda k, d: self.diffs.append((k, d)))
        session.add_listener(self.on_item)

    def start(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def on_item(self, item: object) -> None:
        if isinstance(item, NotificationReceived) and isinstance(item.typed, ListChanged):
            self.loader.list_changed(item.typed.list_name)

    async def idle(self) -> None:
        await until(lambda: not any(self.loader.busy(k) for k in self.catalog.lists), "idle")

    def keys(self, kind: CatalogKind) -> list[str]:
        return [i.key for i in self.catalog[kind]]


async def done(task: asyncio.Task[None] | None) -> None:
    assert task is not None, "the loader started nothing"
    await task


def more(lst: CatalogList) -> bool:
    return lst.has_more


def stale(lst: CatalogList) -> bool:
    return lst.stale


async def until(predicate: Callable[[], object], what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


def transport_for(args: list[str]) -> Transport:
    """Our paging server runs in-process over a MemoryTransport (its pages are what these
    tests are about, not its pipe); the demo server runs as the real process."""
    if args and args[0] == PAGING:
        options = paging_server.parse_options(args[1:])

        def peer(text: str, link: MemoryTransport) -> None:
            message = json.loads(text)
            link.push_stderr(paging_server.received_line(message))
            reply = paging_server.answer(message, options)
            if reply is not None:
                link.push(json.dumps(reply))

        return MemoryTransport(peer, name="paging server (in process)")
    return StdioTransport(StdioParams(sys.executable, args, env={"PYTHONPATH": str(REPO)}))


@pytest.fixture
async def open_harness(
    sessions: OpenSessions,
) -> AsyncIterator[Callable[..., Coroutine[Any, Any, Harness]]]:
    opened: list[Harness] = []

    async def open_(
        args: list[str],
        era: EraSetting = EraSetting.LEGACY,
        pins: PinStore | None = None,
        scope: str = "profile",
    ) -> Harness:
        session = Session(transport_for(args), ClientConfig(era=era))
        harness = Harness(session, pins)
        opened.append(harness)
        sessions.opened.append(session)  # closed at teardown, after its loader detached
        await session.connect(timeout=15)
        harness.loader.attach(session, scope)
        await harness.idle()
        return harness

    yield open_
    for h in opened:
        h.loader.detach()


async def test_first_page_then_load_more_and_load_all(open_harness: Any) -> None:
    h: Harness = await open_harness([PAGING])
    tools = h.catalog.tools
    assert len(tools) == 100 and tools.has_more and tools.pages == 1
    assert len(h.catalog.resources) == 10 and h.catalog.resources.has_more
    assert h.keys("templates") == ["test://res/{id}"] and h.keys("prompts") == ["greet"]
    await done(h.loader.load_more("tools"))
    assert len(tools) == 200 and more(tools)
    await done(h.loader.load_all("tools"))
    assert len(tools) == 250 and not more(tools) and tools.error is None
    assert h.keys("tools")[-1] == "tool-249"
    assert h.loader.load_more("tools") is None  # nothing left
    await done(h.loader.load_all("resources"))
    assert len(h.catalog.resources) == 25
    # A reload lists as many pages as were loaded before.
    await done(h.loader.reload("tools"))
    assert len(tools) == 250 and tools.pages == 3 and tools.last_diff.empty


async def test_a_cursor_loop_stops_with_an_error_in_the_list(open_harness: Any) -> None:
    h: Harness = await open_harness([PAGING, "--mode", "cursor-loop"])
    await done(h.loader.load_all("tools"))
    tools = h.catalog.tools
    assert len(tools) == 200 and not tools.has_more
    assert tools.error is not None and "twice" in tools.error


async def test_endless_cursors_stop_after_a_bounded_load_all(open_harness: Any) -> None:
    h: Harness = await open_harness([PAGING, "--mode", "endless"])
    await done(h.loader.load_all("tools"))
    tools = h.catalog.tools
    assert len(tools) == 3 * (PAGES_PER_LOAD_ALL + 1) and tools.has_more
    assert tools.error is not None and "Load all" in tools.error


async def test_a_failing_list_fails_alone(open_harness: Any) -> None:
    h: Harness = await open_harness([PAGING, "--mode", "prompts-error", "--tools", "5"])
    assert h.catalog.prompts.error is not None
    assert "prompts are broken today" in h.catalog.prompts.error
    assert len(h.catalog.tools) == 5 and h.catalog.tools.error is None
    h2: Harness = await open_harness([PAGING, "--mode", "bad-cursor", "--tools", "5"])
    assert len(h2.catalog.tools) == 5
    assert "nextCursor is not a string" in (h2.catalog.tools.error or "")


@pytest.mark.parametrize("era", [EraSetting.LEGACY, EraSetting.MODERN], ids=str)
async def test_list_changed_relists_and_reports_the_diff(
    open_harness: Any, era: EraSetting
) -> None:
    h: Harness = await open_harness(["-m", "inspector.demo"], era)
    assert "toggle_bonus_tool" in h.keys("tools") and "reverse" not in h.keys("tools")
    assert h.catalog.resources.loaded and h.catalog.prompts.loaded and h.catalog.templates.loaded
    if era is EraSetting.MODERN:
        assert h.loader.listen_call is not None
        assert h.loader.listen_call.method == "subscriptions/listen"
    await h.session.client.call_tool("toggle_bonus_tool", {})
    await until(lambda: h.diffs, "a re-list after list_changed")
    await h.idle()
    kind, diff = h.diffs[-1]
    added = [k for k in h.keys("tools") if k not in ("toggle_bonus_tool",)]
    assert kind == "tools" and diff.added and diff.added[0] in added
    assert not h.catalog.tools.stale
    await h.session.client.call_tool("toggle_bonus_tool", {})
    await until(lambda: len(h.diffs) >= 2, "a second re-list")
    assert h.diffs[-1][1].removed == diff.added


async def test_auto_relist_off_leaves_the_list_stale(open_harness: Any) -> None:
    h: Harness = await open_harness(["-m", "inspector.demo"])
    h.loader.auto_relist = False
    before = h.keys("tools")
    await h.session.client.call_tool("toggle_bonus_tool", {})
    await until(lambda: h.catalog.tools.stale, "the stale mark")
    assert h.keys("tools") == before and not h.diffs
    await done(h.loader.reload("tools"))
    assert not h.catalog.tools.stale and len(h.keys("tools")) == len(before) + 1


async def test_pins_alert_when_a_tool_changes_between_sessions(
    open_harness: Any, tmp_path: Path
) -> None:
    path = tmp_path / "pins.json"
    first: Harness = await open_harness([PAGING, "--tools", "3"], pins=PinStore(path))
    assert first.loader.pin_alerts == {} and first.errors == []
    await asyncio.wait_for(first.session.close(), 10)

    changed = [PAGING, "--tools", "3", "--description", "Now also uploads your files."]
    second: Harness = await open_harness(changed, pins=PinStore(path))
    assert list(second.loader.pin_alerts) == ["tool-001"]
    change = second.loader.pin_alerts["tool-001"]
    assert change.fields == ("description",)
    assert '+  "description": "Now also uploads your files."' in change.diff()
    assert second.errors == [("rug pull", change.describe())]
    # Another profile has its own pins: first sight there.
    other: Harness = await open_harness(changed, pins=PinStore(path), scope="other")
    assert other.loader.pin_alerts == {}
    # Accepting re-pins; the next session is quiet.
    second.loader.accept_pin("tool-001")
    assert second.loader.pin_alerts == {}
    third: Harness = await open_harness(changed, pins=PinStore(path))
    assert third.loader.pin_alerts == {} and third.errors == []


async def test_a_server_without_a_capability_marks_the_list_absent(open_harness: Any) -> None:
    rich = str(REPO / "tests" / "servers" / "gui" / "rich_text_server.py")
    h: Harness = await open_harness([rich])
    assert h.keys("tools") == ["<b>markup</b>"]
    for kind in ("resources", "templates", "prompts"):
        lst = h.catalog[kind]
        assert lst.absent is not None and "does not declare" in lst.absent and not lst.loaded


async def test_modern_http_pages_keep_header_specs_and_flag_excluded_tools() -> None:
    header_tool = {
        "name": "execute_sql",
        "inputSchema": {
            "type": "object",
            "properties": {"region": {"type": "string", "x-mcp-header": "Region"}},
        },
    }
    bad_tool = {
        "name": "bad_header",
        "inputSchema": {
            "type": "object",
            "properties": {"n": {"type": "number", "x-mcp-header": "N"}},
        },
    }
    fake = FakeHttp("modern")

    def tools_list(seen: Any) -> dict[str, Any]:
        cursor = seen.body["params"].get("cursor")
        if cursor is None:
            return result(seen, {"tools": [bad_tool], "nextCursor": "2"})
        return result(seen, {"tools": [header_tool]})

    fake.on("tools/list", tools_list)
    opened = await open_session(fake, era=EraSetting.MODERN)
    harness = Harness(opened.session, None)
    try:
        harness.loader.attach(opened.session, "p")
        await harness.idle()
        await done(harness.loader.load_more("tools"))
        tools = harness.catalog.tools
        assert [i.key for i in tools] == ["bad_header", "execute_sql"]
        bad = tools.find("bad_header")
        assert bad is not None and bad.excluded is not None and "x-mcp-header" in bad.excluded
        assert tools.find("execute_sql").excluded is None  # type: ignore[union-attr]
        assert opened.session.client.mirrors_tool_headers
        # The spec from page 2 is kept for calls: the argument is mirrored into a header.
        await opened.session.client.call_tool("execute_sql", {"region": "eu"})
        call = fake.posts("tools/call")[0]
        assert call.headers["mcp-param-region"] == "eu"
    finally:
        harness.loader.detach()
        await opened.session.close()
        await opened.client.aclose()


class SlowSession:
    """Just enough of a Session (and its client) for the loader: tools/list waits until
    released."""

    era = Era.LEGACY

    def __init__(self) -> None:
        self.client = self
        self.excluded_tools: dict[str, str] = {}
        self.server_capabilities: dict[str, Any] = {"tools": {"listChanged": True}}
        self.release = asyncio.Event()
        self.calls = 0

    async def list_tools_page(self, cursor: str | None = None) -> dict[str, Any]:
        self.calls += 1
        await self.release.wait()
        return {"tools": [{"name": f"t{self.calls}"}]}


async def test_a_change_during_a_listing_is_not_lost() -> None:
    session = SlowSession()
    catalog = Catalog()
    tasks: set[asyncio.Task[Any]] = set()

    def start(coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        return task

    loader = CatalogLoader(catalog, start, lambda c, m: None)
    loader.attach(session, None)  # type: ignore[arg-type]
    await until(lambda: session.calls == 1, "the first listing")
    # Auto re-list off: a change while listing leaves the list stale afterwards.
    loader.auto_relist = False
    loader.list_changed("tools")
    session.release.set()
    await until(lambda: not loader.busy("tools"), "the listing")
    assert stale(catalog.tools) and session.calls == 1
    # Auto re-list on: the change is listed again right after.
    session.release.clear()
    loader.auto_relist = True
    loader.reload("tools")
    await until(lambda: session.calls == 2, "the reload")
    loader.list_changed("tools")
    session.release.set()
    await until(lambda: session.calls == 3 and not loader.busy("tools"), "the second reload")
    assert [i.key for i in catalog.tools] == ["t3"] and not stale(catalog.tools)
    loader.detach()
