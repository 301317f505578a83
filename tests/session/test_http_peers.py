"""The Session and the CLI over HTTP against real peers: npm server-everything (streamableHttp
and the deprecated HTTP+SSE), and the `mcp` 2.x MCPServer over streamable HTTP (stateful and
stateless, SSE and JSON answers, legacy and modern eras). Each server process is started once
for the module.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.machine.events import NotificationReceived, ProgressUpdate
from inspector.protocol.wire.versions import Era, EraSetting
from inspector.session import ServerError, Session
from inspector.traffic.record import TrafficRecord
from inspector.transports.base import HttpExchange
from inspector.transports.factory import HttpKind, http_transport
from tests.helpers.http_servers import Served, free_port, serving
from tests.helpers.peers import EVERYTHING_JS, PY, REPO
from tests.helpers.sessions import OpenSessions
from tests.session.test_server_everything import ScriptedResponder

pytestmark = pytest.mark.timeout(60)

SDK_SERVER = str(REPO / "tests" / "servers" / "sdk" / "sdk_server.py")
SDK_VARIANTS: dict[str, list[str]] = {
    "stateful": [],
    "stateful-json": ["--json-response"],
    "stateless": ["--stateless"],
    "stateless-json": ["--stateless", "--json-response"],
}


@dataclass
class Peers:
    everything: dict[str, Served]  # "streamableHttp" / "sse"
    sdk: dict[str, Served]

    def everything_url(self, mode: str) -> str:
        if mode not in self.everything:
            pytest.skip("server-everything is not installed (scripts/install-peers.sh)")
        return self.everything[mode].base + ("/mcp" if mode == "streamableHttp" else "/sse")

    def sdk_url(self, variant: str) -> str:
        if variant not in self.sdk:
            pytest.skip("the mcp SDK is not installed (a test dependency)")
        return self.sdk[variant].base + "/mcp"


@pytest.fixture(scope="module")
def peers() -> Iterator[Peers]:
    """Every server at once (they start in parallel), killed at the end of the module."""
    commands: list[tuple[list[str], dict[str, str], int]] = []
    names: list[tuple[str, str]] = []
    node = shutil.which("node")
    if node is not None and EVERYTHING_JS.exists():
        for mode in ("streamableHttp", "sse"):
            port = free_port()
            commands.append(([node, str(EVERYTHING_JS), mode], {"PORT": str(port)}, port))
            names.append(("everything", mode))
    try:
        import mcp  # noqa: F401
    except ImportError:
        pass
    else:
        for variant, flags in SDK_VARIANTS.items():
            port = free_port()
            argv = [PY, SDK_SERVER, "streamable-http", "--port", str(port), *flags]
            commands.append((argv, {"PYTHONPATH": str(REPO)}, port))
            names.append(("sdk", variant))
    with serving(commands) as started:
        found = Peers({}, {})
        for (group, name), served in zip(names, started, strict=True):
            getattr(found, group)[name] = served
        yield found


@dataclass
class Conn:
    session: Session
    responder: ScriptedResponder
    records: list[TrafficRecord]
    events: list[Any]

    def notifications(self, method: str) -> list[NotificationReceived]:
        return [
            e
            for e in self.events
            if isinstance(e, NotificationReceived) and e.notification.method == method
        ]

    def exchanges(self) -> list[HttpExchange]:
        return [e for e in self.events if isinstance(e, HttpExchange)]

    async def wait_for(self, method: str, timeout: float = 8.0) -> NotificationReceived:
        async def poll() -> NotificationReceived:
            while not (found := self.notifications(method)):
                await asyncio.sleep(0.02)
            return found[-1]

        return await asyncio.wait_for(poll(), timeout)

    def record_of(self, note: NotificationReceived) -> TrafficRecord:
        raw = note.notification
        return next(
            r
            for r in self.records
            if r.direction == "in" and r.frame is not None and r.frame == raw
        )


@pytest.fixture
def connect_http(sessions: OpenSessions) -> Any:
    async def open_(url: str, era: EraSetting = EraSetting.LEGACY, kind: HttpKind = "auto") -> Conn:
        responder = ScriptedResponder()
        records: list[TrafficRecord] = []
        events: list[Any] = []
        session = await sessions.open(
            http_transport(url, kind=kind),
            ClientConfig(era=era),
            responder,
            observers=(records.append,),
            listeners=(events.append,),
            timeout=15,
        )
        return Conn(session, responder, records, events)

    return open_


def _method(record: TrafficRecord) -> str | None:
    method = getattr(record.frame, "method", None)
    return method if isinstance(method, str) else None


def _text(result: dict[str, Any]) -> str:
    return " ".join(c.get("text", "") for c in result.get("content", []) if isinstance(c, dict))


# ------------------------------------------------------------------ server-everything
MODES = ["streamableHttp", "sse"]


async def _settled_tools(session: Session) -> set[str]:
    """server-everything adds the capability-gated tools right after initialized."""
    names: set[str] = set()
    for _ in range(50):
        names = {t["name"] for t in await session.client.list_tools()}
        if "trigger-sampling-request" in names:
            break
        await asyncio.sleep(0.05)
    return names


@pytest.mark.parametrize("mode", MODES)
async def test_everything_lists_and_calls(peers: Peers, connect_http: Any, mode: str) -> None:
    conn = await connect_http(peers.everything_url(mode))
    session = conn.session
    assert session.transport.kind == ("http" if mode == "streamableHttp" else "sse")
    assert session.protocol_version == "2025-11-25"
    names = await _settled_tools(session)
    assert {"echo", "get-sum", "trigger-sampling-request", "toggle-subscriber-updates"} <= names
    resources = await session.client.list_resources()
    assert resources and all("uri" in r for r in resources)
    assert await session.client.list_resource_templates()
    assert await session.client.list_prompts()
    assert (await session.client.read_resource(resources[0]["uri"]))["contents"]
    assert "hello over HTTP" in _text(
        await session.client.call_tool("echo", {"message": "hello over HTTP"})
    )
    assert "5" in _text(await session.client.call_tool("get-sum", {"a": 2, "b": 3}))


@pytest.mark.parametrize("mode", MODES)
async def test_everything_sampling_and_elicitation(
    peers: Peers, connect_http: Any, mode: str
) -> None:
    conn = await connect_http(peers.everything_url(mode))
    await _settled_tools(conn.session)
    sampled = await conn.session.client.call_tool("trigger-sampling-request", {"prompt": "Say hi"})
    assert "Typed by hand in the inspector" in json.dumps(sampled)
    elicited = await conn.session.client.call_tool("trigger-elicitation-request", {})
    assert "accept" in json.dumps(elicited).lower()
    kinds = {a.kind for a in conn.responder.asks}
    assert {"sampling", "elicitation"} <= kinds
    # The server's request and our answer are in the log, paired.
    asked = next(r for r in conn.records if r.direction == "in" and r.kind == "request" and r.http)
    assert asked.http is not None


@pytest.mark.parametrize("mode", MODES)
async def test_everything_progress(peers: Peers, connect_http: Any, mode: str) -> None:
    conn = await connect_http(peers.everything_url(mode))
    updates: list[ProgressUpdate] = []
    result = await conn.session.client.call_tool(
        "trigger-long-running-operation", {"duration": 0.3, "steps": 2}, on_progress=updates.append
    )
    assert result["content"]
    assert [u.progress for u in updates] == [1, 2]


@pytest.mark.parametrize("mode", MODES)
async def test_everything_logging(peers: Peers, connect_http: Any, mode: str) -> None:
    conn = await connect_http(peers.everything_url(mode))
    await conn.session.client.set_log_level("debug")
    await conn.session.client.call_tool("toggle-simulated-logging", {})
    try:
        note = await conn.wait_for("notifications/message")
        assert note.notification.params and "level" in note.notification.params
    finally:
        await conn.session.client.call_tool("toggle-simulated-logging", {})


@pytest.mark.parametrize("mode", MODES)
async def test_everything_subscriptions(peers: Peers, connect_http: Any, mode: str) -> None:
    conn = await connect_http(peers.everything_url(mode))
    uri = (await conn.session.client.list_resources())[0]["uri"]
    assert await conn.session.client.subscribe(uri).result() == {}
    await conn.session.client.call_tool("toggle-subscriber-updates", {})
    try:
        updated = await conn.wait_for("notifications/resources/updated")
        assert updated.notification.params == {"uri": uri}
    finally:
        await conn.session.client.call_tool("toggle-subscriber-updates", {})
        await conn.session.request("resources/unsubscribe", {"uri": uri})


async def test_everything_get_stream_delivers_list_changed(peers: Peers, connect_http: Any) -> None:
    conn = await connect_http(peers.everything_url("streamableHttp"), kind="streamable-http")
    # The GET stream is open once the server's delayed roots/list has come through it.
    for _ in range(100):
        if any(a.kind == "roots" for a in conn.responder.asks):
            break
        await asyncio.sleep(0.02)
    roots = next(r for r in conn.records if r.direction == "in" and _method(r) == "roots/list")
    assert roots.http is not None and roots.http.method == "GET"
    # Registering a session resource makes the server announce resources/list_changed, which
    # is not about any request: it arrives on the standalone GET stream.
    await conn.session.client.call_tool(
        "gzip-file-as-resource",
        {
            "name": "hello.txt.gz",
            "data": "data:text/plain;base64,aGVsbG8=",
            "outputType": "resourceLink",
        },
    )
    changed = await conn.wait_for("notifications/resources/list_changed")
    record = conn.record_of(changed)
    assert record.http is not None and record.http.method == "GET"
    assert record.http.status == 200 and record.http.content_type == "text/event-stream"
    assert record.sse_event_id  # server-everything keeps an event store: ids for resumption
    await conn.session.close()
    delete = next(e for e in conn.exchanges() if e.method == "DELETE")
    assert delete.status == 200 and delete.request_headers.get("mcp-session-id")


# ---------------------------------------------------------------------- the mcp SDK server
@pytest.mark.parametrize("variant", list(SDK_VARIANTS))
async def test_sdk_legacy_list_and_call(peers: Peers, connect_http: Any, variant: str) -> None:
    conn = await connect_http(peers.sdk_url(variant), kind="streamable-http")
    session = conn.session
    assert session.era is Era.LEGACY and session.server_info["name"] == "sdk-test-peer"
    assert {"add", "echo", "sample_llm", "ask_user", "slow_task"} <= {
        t["name"] for t in await session.client.list_tools()
    }
    assert (await session.client.call_tool("add", {"a": 2, "b": 40}))["structuredContent"] == {
        "sum": 42
    }
    assert (await session.client.get_prompt("greet", {"name": "Ada"}))["messages"]
    assert "Hello, Zed!" in json.dumps(await session.client.read_resource("greeting://Zed"))
    posts = [e for e in conn.exchanges() if e.method == "POST" and e.status == 200]
    later = posts[1:]
    stateful = not variant.startswith("stateless")
    assert (session.transport.session_id is not None) is stateful  # type: ignore[attr-defined]
    assert all(("mcp-session-id" in e.request_headers) is stateful for e in later)
    assert all(e.request_headers.get("mcp-protocol-version") == "2025-11-25" for e in later)
    want = "application/json" if variant.endswith("json") else "text/event-stream"
    assert all((e.content_type or "").startswith(want) for e in posts)


async def test_sdk_legacy_sampling_and_elicitation_over_the_post_stream(
    peers: Peers, connect_http: Any
) -> None:
    conn = await connect_http(peers.sdk_url("stateful"), kind="streamable-http")
    sampled = await conn.session.client.call_tool("sample_llm", {"prompt": "Capital of France?"})
    assert "Typed by hand in the inspector" in _text(sampled)
    elicited = await conn.session.client.call_tool("ask_user", {})
    assert _text(elicited).startswith("accepted: name=Ada")
    asks = [r for r in conn.records if r.direction == "in" and r.kind == "request"]
    assert {_method(r) for r in asks} == {"sampling/createMessage", "elicitation/create"}
    assert all(r.http is not None and r.http.method == "POST" for r in asks)


@pytest.mark.parametrize("variant", ["stateful-json", "stateless", "stateless-json"])
async def test_sdk_legacy_without_a_back_channel_refuses_sampling_clearly(
    peers: Peers, connect_http: Any, variant: str
) -> None:
    conn = await connect_http(peers.sdk_url(variant), kind="streamable-http")
    with pytest.raises(ServerError) as caught:
        await conn.session.client.call_tool("sample_llm", {"prompt": "hi"})
    assert caught.value.code == -32600 and "back-channel" in str(caught.value)
    assert conn.session.is_ready


@pytest.mark.parametrize("variant", ["stateful", "stateless", "stateful-json"])
async def test_sdk_legacy_progress_and_logging(
    peers: Peers, connect_http: Any, variant: str
) -> None:
    conn = await connect_http(peers.sdk_url(variant), kind="streamable-http")
    updates: list[ProgressUpdate] = []
    out = await conn.session.client.call_tool(
        "slow_task", {"steps": 2, "delay": 0.01}, on_progress=updates.append
    )
    assert _text(out) == "done after 2 steps"
    if variant.endswith("json"):
        # A JSON answer has no room for notifications: the SDK drops them (wire notes §5.2).
        assert updates == [] and not conn.notifications("notifications/message")
    else:
        assert [u.progress for u in updates] == [1, 2]
        levels = [
            n.notification.params["level"] for n in conn.notifications("notifications/message")
        ]
        assert levels == ["debug", "info", "info", "warning"]


@pytest.mark.parametrize("variant", ["stateful", "stateless-json"])
async def test_sdk_modern_era_with_mrtr(peers: Peers, connect_http: Any, variant: str) -> None:
    conn = await connect_http(peers.sdk_url(variant), era=EraSetting.MODERN, kind="streamable-http")
    session = conn.session
    assert session.era is Era.MODERN and session.protocol_version == "2026-07-28"
    assert "add" in {t["name"] for t in await session.client.list_tools()}
    assert session.client.excluded_tools == {}
    elicited = await session.client.call_tool("ask_user", {})
    assert _text(elicited).startswith("accepted: name=Ada")
    sampled = await session.client.call_tool("sample_llm", {"prompt": "Capital of France?"})
    assert "Typed by hand in the inspector" in _text(sampled)
    assert [a.kind for a in conn.responder.asks] == ["elicitation", "sampling"]
    calls = [r for r in conn.records if r.direction == "out" and _method(r) == "tools/call"]
    assert len(calls) == 4  # each tool: round 1, then the retry with inputResponses
    retry = json.loads(str(calls[1].raw))
    assert retry["params"]["inputResponses"] and retry["params"]["requestState"]
    await session.close()
    for exchange in conn.exchanges():
        assert exchange.method == "POST"  # no GET stream, no DELETE
        assert "mcp-session-id" not in exchange.request_headers
        assert exchange.request_headers["mcp-protocol-version"] == "2026-07-28"
    names = {
        e.request_headers.get("mcp-name")
        for e in conn.exchanges()
        if e.request_headers.get("mcp-method") == "tools/call"
    }
    assert names == {"ask_user", "sample_llm"}


async def test_sdk_modern_progress_and_logging(peers: Peers, connect_http: Any) -> None:
    conn = await connect_http(
        peers.sdk_url("stateless"), era=EraSetting.MODERN, kind="streamable-http"
    )
    await conn.session.client.set_log_level("info")
    updates: list[ProgressUpdate] = []
    out = await conn.session.client.call_tool(
        "slow_task", {"steps": 2, "delay": 0.01}, on_progress=updates.append
    )
    assert _text(out) == "done after 2 steps"
    assert [u.progress for u in updates] == [1, 2]
    levels = [n.notification.params["level"] for n in conn.notifications("notifications/message")]
    assert levels == ["info", "info", "warning"]


async def test_era_auto_finds_each_server_era(peers: Peers, connect_http: Any) -> None:
    modern = await connect_http(peers.sdk_url("stateful"), era=EraSetting.AUTO)
    assert modern.session.era is Era.MODERN
    legacy = await connect_http(peers.everything_url("streamableHttp"), era=EraSetting.AUTO)
    assert legacy.session.era is Era.LEGACY
    assert "echo" in {t["name"] for t in await legacy.session.client.list_tools()}


# ----------------------------------------------------------------------------------- CLI
def run_cli(*args: str, timeout: float = 30) -> tuple[int, Any, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [PY, "-m", "inspector", "cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=REPO,
    )
    try:
        out = json.loads(proc.stdout) if proc.stdout.strip() else None
    except ValueError:
        out = proc.stdout
    return proc.returncode, out, proc.stderr


@pytest.mark.parametrize(
    ("target", "extra"),
    [
        ("everything:streamableHttp", []),
        ("everything:sse", []),  # auto-detect: POST refused, then GET for the endpoint event
        ("sdk:stateful", []),
        ("sdk:stateless", ["--transport", "streamable-http"]),
        ("sdk:stateful-json", []),
        ("sdk:stateless-json", ["--era", "modern"]),
        ("sdk:stateful", ["--era", "modern"]),
        ("sdk:stateful", ["--era", "auto"]),
    ],
)
def test_cli_tools_list_against_good_servers(peers: Peers, target: str, extra: list[str]) -> None:
    group, name = target.split(":")
    url = peers.everything_url(name) if group == "everything" else peers.sdk_url(name)
    code, out, err = run_cli("--url", url, "--method", "tools/list", "--compact", *extra)
    assert code == 0, err
    names = {t["name"] for t in out["tools"]}
    assert ("echo" in names) and ("add" in names or group == "everything"), names
