"""The stdio transport and the session against servers that misbehave on purpose.

DESIGN.md, "Bad input is the normal case": every bad input gives a clear, specific
message, shows up in the traffic log flagged, fails only the requests it affects,
leaves the session running where it can, and close() always returns.

The servers are modes of tests/servers/misbehaving/server.py (stdlib only).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

from inspector.protocol.machine.asks import ServerAsk
from inspector.protocol.machine.events import (
    Event,
    LogMessage,
    NotificationReceived,
    ProtocolViolation,
    UnmatchedResponse,
)
from inspector.session import (
    ConnectError,
    ConnectionClosed,
    ProtocolFailure,
    RequestCancelled,
    RequestTimeout,
    Session,
)
from inspector.traffic.log import TrafficEntry, TrafficLog
from inspector.transports.base import HttpExchange, StderrLine, TransportClosed
from inspector.transports.stdio import StdioParams, StdioTransport
from tests.helpers.peers import SERVERS

pytestmark = pytest.mark.timeout(30)

SERVER = SERVERS / "misbehaving" / "server.py"
MB = 1024 * 1024
CLOSE_GRACE = 0.3
TERM_GRACE = 0.3

T = TypeVar("T")
Observed = Event | StderrLine | TransportClosed | HttpExchange


class ScriptedResponder:
    """Canned answers per ask kind; remembers what it was asked."""

    def __init__(self) -> None:
        self.asks: list[ServerAsk] = []

    async def respond(self, ask: ServerAsk) -> dict[str, Any]:
        self.asks.append(ask)
        if ask.kind == "roots":
            return {"roots": [{"uri": "file:///tmp/project", "name": "project"}]}
        if ask.kind == "sampling":
            return {
                "role": "assistant",
                "content": {"type": "text", "text": "canned"},
                "model": "scripted",
            }
        return {"action": "decline"}


@dataclass
class Harness:
    session: Session
    transport: StdioTransport
    log: TrafficLog
    responder: ScriptedResponder
    seen: list[Observed] = field(default_factory=list)

    def of_type(self, cls: type[T]) -> list[T]:
        return [item for item in self.seen if isinstance(item, cls)]

    @property
    def stderr(self) -> list[str]:
        return [item.text for item in self.of_type(StderrLine)]

    def entries(self, kind: str) -> list[TrafficEntry]:
        return [e for e in self.log if e.kind == kind]

    async def until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"condition not met within {timeout} s")
            await asyncio.sleep(0.01)

    async def server_received(self, text: str) -> None:
        """Wait until the server logged (on stderr) that it received `text`."""
        await self.until(lambda: any(text in line for line in self.stderr))


def params_for(mode: str, *extra: str, **overrides: Any) -> StdioParams:
    values: dict[str, Any] = {
        "max_line_bytes": 1 * MB,
        "close_grace": CLOSE_GRACE,
        "term_grace": TERM_GRACE,
    }
    values.update(overrides)
    return StdioParams(sys.executable, [str(SERVER), "--mode", mode, *extra], **values)


async def connected(make: Callable[..., Harness], mode: str, *extra: str, **kw: Any) -> Harness:
    harness = make(params_for(mode, *extra, **kw))
    await harness.session.connect(timeout=10)
    return harness


def text_of(result: dict[str, Any]) -> str:
    return "".join(block.get("text", "") for block in result.get("content", []))


async def assert_still_works(harness: Harness) -> None:
    """The session survived: a following request succeeds."""
    assert harness.session.is_ready
    result = await harness.session.client.call_tool("ok")
    assert text_of(result) == "ok"
    assert await harness.session.client.ping() == {}


# ------------------------------------------------------------------ launching


async def test_command_not_found(make: Callable[..., Harness]) -> None:
    harness = make(StdioParams("no-such-mcp-server-xyz", ["--stdio"]))
    with pytest.raises(ConnectError, match="command not found: no-such-mcp-server-xyz"):
        await harness.session.connect(timeout=5)
    await asyncio.wait_for(harness.session.close(), 2)


async def test_bad_working_directory(make: Callable[..., Harness], tmp_path: Path) -> None:
    missing = tmp_path / "does-not-exist"
    harness = make(params_for("garbage", cwd=str(missing)))
    with pytest.raises(ConnectError, match="working directory does not exist") as info:
        await harness.session.connect(timeout=5)
    assert str(missing) in str(info.value)
    await asyncio.wait_for(harness.session.close(), 2)


async def test_not_executable(make: Callable[..., Harness], tmp_path: Path) -> None:
    script = tmp_path / "server.sh"
    script.write_text("#!/bin/sh\n")
    harness = make(StdioParams(str(script)))
    with pytest.raises(ConnectError, match="not executable"):
        await harness.session.connect(timeout=5)


async def test_a_relative_command_is_found_in_the_servers_cwd(
    make: Callable[..., Harness], tmp_path: Path
) -> None:
    """`--cwd DIR -- ./server` (a host config with cwd and a relative command): the command is
    looked for where the server runs, as the OS would start it, not in our own cwd."""
    folder = tmp_path / "srv"
    folder.mkdir()
    script = folder / "server.sh"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} {SERVER} --mode garbage\n")
    script.chmod(0o755)
    harness = make(StdioParams(f".{os.sep}server.sh", cwd=str(folder)))
    await harness.session.connect(timeout=10)
    assert harness.session.is_ready
    await asyncio.wait_for(harness.session.close(), 5)


async def test_a_missing_path_does_not_blame_path(
    make: Callable[..., Harness], tmp_path: Path
) -> None:
    """A command with a slash is never looked up in PATH: listing PATH would mislead."""
    harness = make(StdioParams(str(tmp_path / "nope" / "server")))
    with pytest.raises(ConnectError, match="command not found") as info:
        await harness.session.connect(timeout=5)
    assert "PATH=" not in str(info.value) and "no such file" in str(info.value)
    await asyncio.wait_for(harness.session.close(), 2)


async def test_exit_before_initialize(make: Callable[..., Harness]) -> None:
    harness = make(params_for("exit-early"))
    with pytest.raises(ConnectError) as info:
        await harness.session.connect(timeout=10)
    message = str(info.value)
    assert "server exited (code 1)" in message
    assert "missing required environment variable API_KEY" in message
    closed = harness.session.closed
    assert closed is not None and closed.exit_code == 1 and closed.error
    assert closed.stderr_tail[-1] == "fatal: missing required environment variable API_KEY"
    # The stderr line was delivered as an event and as a traffic entry.
    assert "fatal: missing required environment variable API_KEY" in harness.stderr
    assert [e.text() for e in harness.entries("stderr")] == harness.stderr
    # The initialize request is in the log, unanswered.
    (initialize,) = harness.entries("request")
    assert initialize.method == "initialize" and initialize.pair == -1
    with pytest.raises(ConnectionClosed, match="server exited"):
        harness.session.start_request("tools/list")
    await asyncio.wait_for(harness.session.close(), 2)


# ------------------------------------------------------------------ bad frames


async def test_non_json_on_stdout_is_flagged_as_pollution(make: Callable[..., Harness]) -> None:
    harness = await connected(make, "garbage")
    tools = await harness.session.client.list_tools()
    assert [t["name"] for t in tools] == ["ok", "bad", "big"]
    result = await harness.session.client.call_tool("other")
    assert text_of(result) == "answered after garbage"
    await assert_still_works(harness)  # the ping also flushes the trailing garbage
    invalid = harness.entries("invalid")
    assert [e.text() for e in invalid] == [
        "Starting misbehaving server v0 (debug print)",
        "DEBUG: listing tools",
        "about to answer",
        "{not json either",
        "trailing garbage",
    ]
    for entry in invalid:
        assert entry.direction == "in"
        assert entry.note is not None and entry.note.startswith("stdout pollution: not JSON")
    # Every request was still paired with its response.
    for request in harness.entries("request"):
        assert request.pair >= 0, request.method


async def test_invalid_utf8(make: Callable[..., Harness]) -> None:
    harness = await connected(make, "bad-utf8")
    await harness.session.client.list_tools()  # preceded by a stray line of invalid UTF-8
    (stray,) = harness.entries("invalid")
    assert isinstance(stray.raw, bytes) and stray.raw.startswith(b"\xff\xfe stray")
    assert stray.note is not None and "invalid UTF-8 at byte 0" in stray.note
    # A response to our request that is not UTF-8: that request fails at once, clearly.
    started = time.monotonic()
    with pytest.raises(ProtocolFailure, match="invalid UTF-8") as info:
        await harness.session.client.call_tool("bad")
    assert time.monotonic() - started < 5  # not a timeout
    assert "tools/call" in str(info.value)
    bad = harness.entries("invalid")[-1]
    assert isinstance(bad.raw, bytes) and b"caf\xe9" in bad.raw  # every byte kept
    request = harness.log.pair_of(bad)
    assert request is not None and request.method == "tools/call"
    await assert_still_works(harness)


async def test_oversized_line(make: Callable[..., Harness]) -> None:
    size = 20 * MB
    harness = await connected(make, "oversized", "--size", str(size))
    tools = await harness.session.client.list_tools()  # a 20 MB junk line comes first
    assert len(tools) == 3
    (huge,) = harness.entries("invalid")
    assert huge.truncated and huge.size == size
    assert len(huge.raw) <= 64 * 1024  # only the head is kept
    assert huge.note is not None and "exceeds the size limit" in huge.note
    assert f"{size:,} bytes" in huge.note
    # An oversized *response* fails its own request, at once and by name.
    with pytest.raises(ProtocolFailure, match="exceeds the size limit") as info:
        await harness.session.client.call_tool("big")
    assert "tools/call" in str(info.value)
    big = harness.entries("invalid")[-1]
    assert big.truncated and big.size > size
    assert harness.log.pair_of(big) is not None
    await assert_still_works(harness)


# ------------------------------------------------------------------ crashes and exits


async def test_crash_mid_call(make: Callable[..., Harness]) -> None:
    harness = await connected(make, "crash")
    await harness.session.client.list_tools()
    with pytest.raises(ConnectionClosed) as info:
        await harness.session.client.call_tool("boom")
    message = str(info.value)
    assert "server exited (code 3)" in message
    assert "RuntimeError: simulated crash in the tool" in message  # the last stderr line
    closed = harness.session.closed
    assert closed is not None and closed.exit_code == 3 and closed.error
    assert closed.stderr_tail[-3:] == (
        "tool started",
        "Traceback (most recent call last):",
        "RuntimeError: simulated crash in the tool",
    )
    (event,) = harness.of_type(TransportClosed)
    assert event is closed
    stderr_entries = [e.text() for e in harness.entries("stderr")]
    assert "RuntimeError: simulated crash in the tool" in stderr_entries
    notes = [e for e in harness.entries("note") if e.note == "transport closed"]
    assert len(notes) == 1 and "server exited (code 3)" in notes[0].text()
    assert not harness.session.is_ready
    with pytest.raises(ConnectionClosed, match="server exited"):
        await harness.session.client.call_tool("ok")
    started = time.monotonic()
    await harness.session.close()
    assert time.monotonic() - started < 1


async def test_server_exits_but_a_child_keeps_stdout_open(make: Callable[..., Harness]) -> None:
    harness = await connected(make, "orphan-stdout")
    started = time.monotonic()
    with pytest.raises(ConnectionClosed, match=r"server exited \(code 0\)") as info:
        await harness.session.client.call_tool("leave")
    assert time.monotonic() - started < 5
    assert "stdout" in str(info.value)  # says why EOF never came
    line = next(line for line in harness.stderr if line.startswith("child pid"))
    child = int(line.split()[2])
    await asyncio.wait_for(harness.session.close(), CLOSE_GRACE + TERM_GRACE + 2)
    # close() ended the child left behind too (it held our pipes).
    await harness.until(lambda: not _alive(child), timeout=3)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def test_stubborn_server_gets_the_whole_ladder(make: Callable[..., Harness]) -> None:
    harness = await connected(make, "stubborn")
    await assert_still_works(harness)
    pid = harness.transport.pid
    assert pid is not None
    started = time.monotonic()
    await harness.session.close()
    elapsed = time.monotonic() - started
    assert CLOSE_GRACE + TERM_GRACE <= elapsed < CLOSE_GRACE + TERM_GRACE + 1.5
    closed = harness.session.closed
    assert closed is not None
    assert closed.exit_code == -signal.SIGKILL
    assert "killed by SIGKILL" in closed.reason
    assert not closed.error  # the client asked for the end
    assert "ignoring stdin EOF; sleeping" in harness.stderr
    assert "ignoring SIGTERM" in harness.stderr
    assert not _alive(pid)


# ------------------------------------------------------------------ unanswered requests


async def test_unanswered_call_times_out_and_is_cancelled(make: Callable[..., Harness]) -> None:
    harness = await connected(make, "hang")
    with pytest.raises(RequestTimeout, match=r"tools/call: no answer within 0\.3 s"):
        await harness.session.client.call_tool("never", timeout=0.3)
    await harness.server_received("recv notifications/cancelled")
    (cancel,) = [e for e in harness.log if e.method == "notifications/cancelled"]
    (call,) = [e for e in harness.entries("request") if e.method == "tools/call"]
    assert cancel.direction == "out" and f'"requestId":{call.msg_id}' in cancel.text()
    assert call.pair == -1
    await assert_still_works(harness)


async def test_user_cancel_reaches_the_server(make: Callable[..., Harness]) -> None:
    harness = await connected(make, "hang")
    call = harness.session.start_request("tools/call", {"name": "never", "arguments": {}})
    await harness.server_received("recv tools/call")
    call.cancel("changed my mind")
    with pytest.raises(RequestCancelled, match="changed my mind"):
        await call.result()
    await harness.server_received("recv notifications/cancelled")
    await assert_still_works(harness)


# ------------------------------------------------------------------ wrong answers


async def test_response_to_an_unknown_id(make: Callable[..., Harness]) -> None:
    harness = await connected(make, "unknown-id")
    result = await harness.session.client.call_tool("x")
    assert text_of(result) == "the real answer"
    (unmatched,) = harness.of_type(UnmatchedResponse)
    assert unmatched.reason == "unknown id" and unmatched.wire_id == 9999
    (stray,) = [e for e in harness.log if e.msg_id == 9999]
    assert stray.kind == "response" and stray.pair == -1
    assert stray.note is not None and "9999" in stray.note and "never sent" in stray.note
    await assert_still_works(harness)


async def test_duplicate_response(make: Callable[..., Harness]) -> None:
    harness = await connected(make, "duplicate")
    result = await harness.session.client.call_tool("x")
    assert text_of(result) == "first answer"
    await harness.until(lambda: bool(harness.of_type(UnmatchedResponse)))
    (unmatched,) = harness.of_type(UnmatchedResponse)
    assert unmatched.reason == "duplicate"
    (call,) = [e for e in harness.entries("request") if e.method == "tools/call"]
    first, second = [e for e in harness.log if e.msg_id == call.msg_id and e.direction == "in"]
    assert call.pair == first.index and first.pair == call.index
    assert second.pair == -1
    assert second.note is not None and "second response" in second.note
    await assert_still_works(harness)


async def test_server_request_before_initialized(make: Callable[..., Harness]) -> None:
    harness = await connected(make, "early-request")
    await harness.server_received("recv response id=early-1")
    await harness.server_received("recv response id=early-2")
    assert [ask.method for ask in harness.responder.asks] == [
        "roots/list",
        "sampling/createMessage",
    ]
    violations = [v for v in harness.of_type(ProtocolViolation) if v.rule == "lifecycle"]
    assert [v.request.method for v in violations if v.request] == [
        "roots/list",
        "sampling/createMessage",
    ]
    early = [e for e in harness.log if e.direction == "in" and e.kind == "request"]
    assert [e.method for e in early] == ["roots/list", "sampling/createMessage"]
    for entry in early:
        assert entry.note is not None and "notifications/initialized" in entry.note
        answer = harness.log.pair_of(entry)
        assert answer is not None and answer.direction == "out" and answer.kind == "response"
    await assert_still_works(harness)


async def test_flood_of_notifications(make: Callable[..., Harness]) -> None:
    count = 20_000
    harness = await connected(make, "flood", "--count", str(count))
    started = time.monotonic()
    result = await harness.session.client.call_tool("x")
    elapsed = time.monotonic() - started
    assert text_of(result) == f"sent {count} notifications"
    logs = [
        item for item in harness.of_type(NotificationReceived) if isinstance(item.typed, LogMessage)
    ]
    assert len(logs) == count
    assert logs[0].typed is not None and logs[-1].notification.params == {
        "level": "info",
        "data": f"flood {count - 1}",
    }
    assert len([e for e in harness.log if e.method == "notifications/message"]) == count
    assert elapsed < 15, f"{count} notifications took {elapsed:.1f} s"
    await assert_still_works(harness)


async def test_close_is_idempotent_and_quick_for_a_well_behaved_server(
    make: Callable[..., Harness],
) -> None:
    harness = await connected(make, "garbage")
    started = time.monotonic()
    await harness.session.close()
    await harness.session.close()
    assert time.monotonic() - started < CLOSE_GRACE + 0.5  # stdin EOF was enough
    closed = harness.session.closed
    assert closed is not None and closed.exit_code == 0 and not closed.error


async def test_server_closes_stdout_but_keeps_running(make: Callable[..., Harness]) -> None:
    harness = await connected(make, "close-stdout")
    started = time.monotonic()
    with pytest.raises(ConnectionClosed, match="closed its stdout but is still running"):
        await harness.session.client.call_tool("x")
    assert time.monotonic() - started < 5  # not the request timeout
    closed = harness.session.closed
    assert closed is not None and closed.error and closed.exit_code is None
    started = time.monotonic()
    await harness.session.close()  # it still reads stdin: EOF ends it
    assert time.monotonic() - started < CLOSE_GRACE + 0.5
    assert harness.transport.pid is not None and not _alive(harness.transport.pid)


async def test_malformed_server_request_reusing_a_call_id(make: Callable[..., Harness]) -> None:
    harness = await connected(make, "bad-request")
    result = await harness.session.client.call_tool("x")
    assert text_of(result) == "the real answer"
    (call,) = [e for e in harness.entries("request") if e.method == "tools/call"]
    (bad,) = harness.entries("invalid")
    assert bad.note is not None and '"params" must be an object' in bad.note
    # The malformed *request* is not taken for the answer to our call of the same id.
    answer = harness.log.pair_of(call)
    assert answer is not None and answer.kind == "response"
    assert bad.pair == -1
    await assert_still_works(harness)


async def test_handshake_timeout(make: Callable[..., Harness]) -> None:
    harness = make(params_for("mute"))
    with pytest.raises(ConnectError, match=r"the handshake took longer than 0\.3 s"):
        await harness.session.connect(timeout=0.3)
    await harness.server_received("recv initialize")
    started = time.monotonic()
    await harness.session.close()
    assert time.monotonic() - started < CLOSE_GRACE + 0.5


async def test_close_while_connecting(make: Callable[..., Harness]) -> None:
    harness = make(params_for("mute"))
    connecting = asyncio.ensure_future(harness.session.connect())
    await harness.server_received("recv initialize")
    await asyncio.wait_for(harness.session.close(), CLOSE_GRACE + 2)
    with pytest.raises(ConnectError, match="the session was closed during the handshake"):
        await asyncio.wait_for(connecting, 2)


async def test_concurrent_closes_all_wait_for_the_end(make: Callable[..., Harness]) -> None:
    harness = await connected(make, "stubborn")
    started = time.monotonic()
    first = asyncio.ensure_future(harness.session.close())
    await harness.until(lambda: any("ignoring stdin EOF" in line for line in harness.stderr))
    await harness.session.close()  # returns only when the server is gone, too
    assert time.monotonic() - started >= CLOSE_GRACE + TERM_GRACE
    closed = harness.session.closed
    assert closed is not None and closed.exit_code == -signal.SIGKILL
    await first
