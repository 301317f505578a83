"""Stopping a run cancels the request in flight, in both eras, against the demo server:
the server hears the cancellation (it logs it and stops counting), the call ends
"cancelled" (neither passed nor failed), the calls after it are not sent, and the same
session runs the next call."""

from __future__ import annotations

import asyncio
import json

import pytest

from inspector.collections.collection import SavedCall
from inspector.collections.file import loads_collection
from inspector.collections.runner import CollectionRunner
from inspector.core.server_connection import ServerConnection
from inspector.protocol.machine.config import ClientConfig
from inspector.protocol.wire.versions import EraSetting
from inspector.traffic.record import TrafficRecord
from inspector.transports.base import StderrLine
from inspector.transports.http_common import HttpParams
from inspector.transports.streamable_http import StreamableHttpTransport
from tests.collections.runs import stdio
from tests.helpers.demo_http import demo_http_server
from tests.helpers.peers import demo_command

pytestmark = pytest.mark.timeout(90)

COLLECTION = """{
  "version": 1,
  "name": "stop",
  "calls": [
    {"name": "before", "kind": "tool", "tool": "echo", "arguments": {"message": "a"}},
    {"name": "slow", "kind": "tool", "tool": "slow_count",
     "arguments": {"steps": 40, "delay_ms": 250},
     "assert": [{"outcome": "ok"}, {"latencyUnderMs": 60000}]},
    {"name": "after", "kind": "tool", "tool": "echo", "arguments": {"message": "b"}}
  ]
}"""


def _out(records: list[TrafficRecord], method: str) -> list[dict[str, object]]:
    found = []
    for r in records:
        raw = r.raw.decode() if isinstance(r.raw, bytes) else r.raw
        if r.direction != "out" or method not in raw:
            continue
        message = json.loads(raw)
        if message.get("method") == method:
            found.append(message)
    return found


def _slow_request_id(records: list[TrafficRecord]) -> object:
    calls = [m for m in _out(records, "tools/call") if "slow_count" in json.dumps(m)]
    assert len(calls) == 1, calls
    return calls[0]["id"]


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_stop_cancels_the_call_in_flight_and_the_session_stays_usable(era: str) -> None:
    collection = loads_collection(COLLECTION, "stop.json")

    async def scenario() -> None:
        session = ServerConnection(stdio(demo_command()), ClientConfig(era=EraSetting(era)))
        records: list[TrafficRecord] = []
        stderr: list[str] = []
        session.add_traffic_observer(records.append)
        session.add_listener(lambda i: stderr.append(i.text) if isinstance(i, StderrLine) else None)
        try:
            await session.connect(timeout=30)
            assert session.era.value == era
            runner = CollectionRunner(session, env={}, timeout=30)
            started: list[str] = []

            def on_start(call: SavedCall) -> None:
                started.append(call.name)
                if call.name == "slow":
                    asyncio.get_running_loop().call_later(0.6, runner.stop, "stopped by test")

            report = await asyncio.wait_for(runner.run(collection, on_start=on_start), 30)
            assert started == ["before", "slow"]  # "after" is never sent
            assert [r.name for r in report.results] == ["before", "slow"]
            before, slow = report.results
            assert before.passed
            assert slow.cancelled and not slow.passed
            assert slow.outcome.kind == "cancelled" and slow.outcome.message == "stopped by test"
            assert slow.assertions == []  # nothing judged
            assert slow.ms is not None and slow.ms < 10_000  # not the whole 10 s count
            assert (report.passed, report.failed, report.cancelled) == (1, 0, 1)
            assert report.stopped == "stopped by test"
            assert report.exit_code == 130
            assert (
                "1 cancelled" in report.summary() and "stopped: stopped by test" in report.summary()
            )
            assert "STOP  slow  cancelled: stopped by test" in slow.line()

            # the server heard it: a notifications/cancelled for the slow call's id
            cancels = _out(records, "notifications/cancelled")
            assert len(cancels) == 1
            params = cancels[0]["params"]
            assert isinstance(params, dict)
            assert params["requestId"] == _slow_request_id(records)
            assert params["reason"] == "stopped by test"
            deadline = asyncio.get_running_loop().time() + 10
            while not any("was cancelled" in line for line in stderr):
                assert asyncio.get_running_loop().time() < deadline, stderr[-5:]
                await asyncio.sleep(0.05)
            assert len(_out(records, "tools/call")) == 2  # before and slow: not "after"

            # the session is still connected and runs the next call
            assert session.closed is None
            again = await CollectionRunner(session, env={}).run_call(collection.calls[2])
            assert again.passed, again.failure_text()
            # no late answer to the cancelled call turned into a result anywhere
            assert _out(records, "notifications/cancelled") == cancels
        finally:
            await asyncio.wait_for(session.close(), 15)

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_cancelling_the_run_task_also_cancels_the_request() -> None:
    """A run whose task is cancelled (a closed tab) does not leave the server working."""
    collection = loads_collection(COLLECTION, "stop.json")

    async def scenario() -> None:
        session = ServerConnection(stdio(demo_command()), ClientConfig(era=EraSetting("legacy")))
        records: list[TrafficRecord] = []
        session.add_traffic_observer(records.append)
        try:
            await session.connect(timeout=30)
            runner = CollectionRunner(session, env={}, timeout=30)
            task = asyncio.ensure_future(runner.run(collection, names=["slow"]))
            deadline = asyncio.get_running_loop().time() + 15
            while not _out(records, "tools/call"):
                assert asyncio.get_running_loop().time() < deadline
                await asyncio.sleep(0.02)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            cancels = _out(records, "notifications/cancelled")
            assert len(cancels) == 1
            params = cancels[0]["params"]
            assert isinstance(params, dict)
            assert params["requestId"] == _slow_request_id(records)
            assert session.closed is None
        finally:
            await asyncio.wait_for(session.close(), 15)

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_stop_over_streamable_http_in_the_modern_era_closes_the_response_stream() -> None:
    """The 2026-07-28 era over HTTP cancels by closing the request's response stream (no
    notifications/cancelled goes out; the log notes it): the call ends cancelled and the
    same session runs the next call."""
    collection = loads_collection(COLLECTION, "stop.json")

    async def scenario(url: str) -> None:
        transport = StreamableHttpTransport(HttpParams(url))
        session = ServerConnection(transport, ClientConfig(era=EraSetting("modern")))
        records: list[TrafficRecord] = []
        session.add_traffic_observer(records.append)
        try:
            await session.connect(timeout=30)
            assert session.era.value == "modern" and session.transport_kind == "http"
            runner = CollectionRunner(session, env={}, timeout=30)

            def on_start(call: SavedCall) -> None:
                if call.name == "slow":
                    asyncio.get_running_loop().call_later(0.6, runner.stop, "stopped by test")

            report = await asyncio.wait_for(runner.run(collection, on_start=on_start), 30)
            assert [r.name for r in report.results] == ["before", "slow"]
            slow = report.results[1]
            assert slow.cancelled and slow.ms is not None and slow.ms < 10_000
            assert _out(records, "notifications/cancelled") == []
            slow_id = _slow_request_id(records)
            notes = [str(r.raw) for r in records if r.kind == "note"]
            assert any(
                f"request {slow_id!r} cancelled by closing its response stream" in n for n in notes
            ), notes
            assert session.closed is None
            again = await CollectionRunner(session, env={}).run_call(collection.calls[2])
            assert again.passed, again.failure_text()
        finally:
            await asyncio.wait_for(session.close(), 15)

    with demo_http_server() as url:
        asyncio.run(asyncio.wait_for(scenario(url), 60))
