"""Resource subscriptions and completions against real peers (Qt-free layer).

Legacy: resources/subscribe + notifications/resources/updated (demo server, server-everything
with toggle-subscriber-updates). Modern: one subscriptions/listen stream per URI (demo
server in the 2026-07-28 era); unsubscribing cancels the stream.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable
from typing import Any

import pytest

from inspector.features.completion import Completer, prompt_ref, resource_ref
from inspector.features.resource_watch import ResourceWatches, Watch, subscribe_supported
from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.wire.versions import EraSetting
from inspector.session import Session
from inspector.traffic.log import TrafficLog
from inspector.transports.stdio import StdioParams, StdioTransport
from tests.helpers.peers import REPO
from tests.helpers.sessions import OpenSessions

pytestmark = pytest.mark.timeout(40)


async def until(predicate: Callable[[], object], what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


@pytest.fixture
def open_stdio(sessions: OpenSessions) -> Callable[..., Any]:
    async def start(argv: list[str], era: EraSetting) -> tuple[Session, TrafficLog]:
        params = StdioParams(argv[0], argv[1:], env={"PYTHONPATH": str(REPO)}, term_grace=1.0)
        log = TrafficLog()
        session = await sessions.open(
            StdioTransport(params), ClientConfig(era=era), observers=(log.observe,)
        )
        return session, log

    return start


DEMO = [sys.executable, "-m", "inspector.demo"]


def methods(log: TrafficLog, direction: str = "out") -> list[str | None]:
    return [e.method for e in log if e.direction == direction and e.method]


async def test_legacy_subscribe_update_unsubscribe(open_stdio: Callable[..., Any]) -> None:
    session, log = await open_stdio(DEMO, EraSetting.LEGACY)
    assert subscribe_supported(session) == (True, "")
    watches = ResourceWatches()
    changes: list[str] = []
    watches.on_change(changes.append)
    watch = await watches.subscribe(session, "demo://readme")
    assert watch.state == "active"
    await until(lambda: watch.updates >= 1, "an update notification")
    assert watch.last_updated is not None and watch.last_updated >= watch.since
    assert "demo://readme" in watches.watched
    await watches.unsubscribe("demo://readme")
    assert watch.state == "ended" and watch.detail == "unsubscribed"
    assert methods(log).count("resources/unsubscribe") == 1
    assert changes.count("demo://readme") >= 3


async def test_legacy_subscribe_to_unknown_resource_fails(open_stdio: Callable[..., Any]) -> None:
    session, _log = await open_stdio(DEMO, EraSetting.LEGACY)
    watches = ResourceWatches()
    watch = await watches.subscribe(session, "demo://nope")
    assert watch.state == "failed"
    assert "Resource not found" in watch.detail


async def test_modern_listen_stream_per_uri(open_stdio: Callable[..., Any]) -> None:
    session, log = await open_stdio(DEMO, EraSetting.MODERN)
    watches = ResourceWatches()
    watch = await watches.subscribe(session, "demo://config.json")
    assert watch.call is not None and watch.call.method == "subscriptions/listen"
    await until(lambda: watch.state == "active", "the acknowledgement")
    await until(lambda: watch.updates >= 1, "an update on the listen stream")
    listen = [e for e in log if e.method == "subscriptions/listen" and e.direction == "out"]
    assert '"resourceSubscriptions":["demo://config.json"]' in str(listen[0].raw)
    await watches.unsubscribe("demo://config.json")
    await until(lambda: "notifications/cancelled" in methods(log), "the cancellation")
    assert watch.state == "ended"
    assert "resources/unsubscribe" not in methods(log)  # no such method in the modern era


async def test_modern_unknown_uri_is_not_acknowledged(open_stdio: Callable[..., Any]) -> None:
    session, _log = await open_stdio(DEMO, EraSetting.MODERN)
    watches = ResourceWatches()
    watch = await watches.subscribe(session, "demo://nope")
    await until(lambda: watch.state != "subscribing", "the acknowledgement")
    assert watch.state == "failed" and "without this URI" in watch.detail


async def test_watches_end_when_the_connection_ends(open_stdio: Callable[..., Any]) -> None:
    session, _log = await open_stdio(DEMO, EraSetting.LEGACY)
    watches = ResourceWatches()
    watch = await watches.subscribe(session, "demo://readme")
    await session.close()
    await until(lambda: watch.state == "ended", "the end")
    assert "connection ended" in watch.detail
    assert watches.get("demo://readme", session) is watch
    other: Watch | None = watches.get("demo://readme", object())  # type: ignore[arg-type]
    assert other is None


async def test_completions_against_the_demo(open_stdio: Callable[..., Any]) -> None:
    session, log = await open_stdio(DEMO, EraSetting.LEGACY)
    topics = Completer(session, resource_ref("demo://notes/{topic}"))
    assert await topics.complete("topic", "de", {"topic": "de"}) == ["debugging"]
    languages = Completer(session, prompt_ref("review_code"), ["code", "language"])
    got = await languages.complete("language", "py", {"code": "print(1)", "language": "py"})
    assert got == ["python"]
    sent = [e for e in log if e.method == "completion/complete" and e.direction == "out"]
    assert '"context":{"arguments":{"code":"print(1)"}}' in str(sent[-1].raw)


async def test_everything_subscription_updates_and_context_completions(
    open_stdio: Callable[..., Any], everything_command: list[str]
) -> None:
    session, _log = await open_stdio(everything_command, EraSetting.LEGACY)
    resources = await session.client.list_resources()
    uri = resources[0]["uri"]
    watches = ResourceWatches()
    watch = await watches.subscribe(session, uri)
    assert watch.state == "active", watch.detail
    await session.client.call_tool("toggle-subscriber-updates", {})
    await until(lambda: watch.updates >= 1, "a simulated update", timeout=8)
    await watches.unsubscribe(uri)
    await session.client.call_tool("toggle-subscriber-updates", {})
    # completable-prompt: the second argument's values depend on the first (context)
    team = Completer(session, prompt_ref("completable-prompt"), ["department", "name"])
    assert await team.complete("department", "E", {}) == ["Engineering"]
    assert await team.complete("name", "", {"department": "Sales"}) == ["David", "Eve", "Frank"]
    templates = await session.client.list_resource_templates()
    text_template = next(t["uriTemplate"] for t in templates if "text" in t["uriTemplate"])
    ids = Completer(session, resource_ref(text_template))
    assert await ids.complete("resourceId", "7", {}) == ["7"]


async def test_sdk_peer_modern_listen_is_acknowledged(open_stdio: Callable[..., Any]) -> None:
    peer = [sys.executable, str(REPO / "tests" / "servers" / "sdk" / "sdk_server.py")]
    session, log = await open_stdio(peer, EraSetting.MODERN)
    assert subscribe_supported(session) == (True, "")
    watches = ResourceWatches()
    watch = await watches.subscribe(session, "info://server")
    await until(lambda: watch.state == "active", "the acknowledgement")
    acks = [e for e in log if e.method == "notifications/subscriptions/acknowledged"]
    assert '"resourceSubscriptions":["info://server"]' in str(acks[0].raw)
    await watches.unsubscribe("info://server")
    await until(lambda: "notifications/cancelled" in methods(log), "the cancellation")
