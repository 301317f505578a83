"""What the fuzzer found, through a real session over stdio (tests/servers/misbehaving,
mode "hostile"): a server's number, id or nesting never kills the session or leaves a
request waiting for its timeout, and everything the client writes is valid UTF-8 JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from inspector.protocol.machine.events import NotificationReceived, ProtocolViolation
from inspector.session import ProtocolFailure
from tests.transports.test_stdio_misbehaving import (
    Harness,
    assert_still_works,
    connected,
    text_of,
)

pytestmark = pytest.mark.timeout(30)


async def test_progress_beyond_a_double_keeps_the_session(
    make: Callable[..., Harness],
) -> None:
    harness = await connected(make, "hostile")
    updates: list[Any] = []
    call = harness.session.start_request(
        "tools/call", {"name": "huge-progress"}, on_progress=updates.append
    )
    result = await call.result()
    assert text_of(result) == "after huge progress"
    notes = [
        e.notification
        for e in harness.of_type(NotificationReceived)
        if e.notification.method == "notifications/progress"
    ]
    assert notes and notes[0].params is not None and notes[0].params["progress"] == 10**400
    assert any("double" in v.message for v in harness.of_type(ProtocolViolation))
    await assert_still_works(harness)


async def test_a_surrogate_id_is_echoed_as_valid_utf8(make: Callable[..., Harness]) -> None:
    harness = await connected(make, "hostile")
    result = await harness.session.client.call_tool("surrogate-ask")
    assert text_of(result) == "asked with a surrogate id"
    await harness.server_received(r"recv response id=\ud800")
    assert any("surrogate" in v.message for v in harness.of_type(ProtocolViolation))
    # What went out is in the log: valid UTF-8, the id as the escape it came as.
    answers = [e for e in harness.log if e.kind == "response" and e.direction == "out"]
    assert answers
    raw = answers[-1].raw
    text = raw if isinstance(raw, str) else raw.decode("utf-8")
    text.encode("utf-8")
    assert json.loads(text)["id"] == "\ud800"
    await assert_still_works(harness)


async def test_deep_nesting_fails_the_call_at_once(make: Callable[..., Harness]) -> None:
    harness = await connected(make, "hostile")
    with pytest.raises(ProtocolFailure, match="malformed"):
        await harness.session.request("tools/call", {"name": "deep"}, timeout=20)
    await assert_still_works(harness)


@pytest.mark.parametrize(("version", "flagged"), [("2025-03-26", False), ("2025-06-18", True)])
async def test_a_json_rpc_batch_is_unpacked_into_its_messages(
    make: Callable[..., Harness], version: str, flagged: bool
) -> None:
    harness = await connected(make, "hostile", "--protocol", version)
    assert harness.session.protocol_version == version
    result = await harness.session.request("tools/call", {"name": "batch"}, timeout=5)
    assert text_of(result) == "batched"
    logs = [
        e.notification
        for e in harness.of_type(NotificationReceived)
        if e.notification.method == "notifications/message"
    ]
    assert [n.params for n in logs] == [{"level": "info", "data": "in a batch"}]
    # The log has one row per member, each its exact text, saying it came in a batch.
    rows = [e for e in harness.log if e.direction == "in" and "batch" in (e.note or "")]
    assert [r.kind for r in rows] == ["notification", "response"]
    assert all("of 2 in one JSON-RPC batch" in (r.note or "") for r in rows)
    assert not any(e.kind == "invalid" for e in harness.log)
    violations = [v for v in harness.of_type(ProtocolViolation) if "batch" in v.message]
    assert bool(violations) is flagged
    if flagged:
        assert "2025-03-26" in violations[0].message
    await assert_still_works(harness)
