"""The pending-request table: pairing answers with requests, and what happens when that fails."""

from __future__ import annotations

import pytest

from inspector.protocol.machine.connection import ClientConfig, ClientConnection, ConnectionState
from inspector.protocol.machine.events import (
    AskCancelled,
    InvalidFrame,
    LateResponse,
    RequestCompleted,
    RequestFailed,
    ServerAskReceived,
    UnmatchedResponse,
)
from inspector.protocol.wire.errors import LocalProtocolError
from inspector.protocol.wire.jsonrpc import Request
from inspector.protocol.wire.versions import EraSetting
from tests.helpers.fake_server import FakeServer, legacy_session, modern_session, of_type, one


def test_response_to_an_unknown_id() -> None:
    conn, server = legacy_session()
    conn.send_request("tools/list", now=0.0)
    events = server.reply(999, {"tools": []})
    unmatched = one(events, UnmatchedResponse)
    assert (unmatched.wire_id, unmatched.reason) == (999, "unknown id")
    assert unmatched.message == "a response to id 999, which was never sent"
    assert conn.pending_count == 1  # the real request still waits


def test_error_to_an_unknown_string_id() -> None:
    _, server = legacy_session()
    unmatched = one(server.fail("nope", -32600, "bad"), UnmatchedResponse)
    assert unmatched.reason == "unknown id"
    assert "'nope'" in unmatched.message


def test_duplicate_response() -> None:
    conn, server = legacy_session()
    conn.send_request("tools/list", now=0.0)
    req = server.last_request("tools/list")
    assert one(server.reply(req, {"tools": []}), RequestCompleted)
    events = server.reply(req, {"tools": [{"name": "again"}]})
    dup = one(events, UnmatchedResponse)
    assert (dup.wire_id, dup.reason) == (req.id, "duplicate")
    assert dup.message == f"a second response to request {req.id!r} (tools/list)"
    assert of_type(events, RequestCompleted) == []


def test_error_after_result_is_a_duplicate_too() -> None:
    conn, server = legacy_session()
    conn.send_request("tools/list", now=0.0)
    req = server.last_request("tools/list")
    server.reply(req, {"tools": []})
    assert one(server.fail(req, -32603, "oops"), UnmatchedResponse).reason == "duplicate"


def test_error_with_null_id() -> None:
    conn, server = legacy_session()
    conn.send_request("tools/list", now=0.0)
    unmatched = one(server.fail(None, -32700, "Parse error"), UnmatchedResponse)
    assert unmatched.reason == "null id"
    assert unmatched.wire_id is None
    assert "-32700 Parse error" in unmatched.message
    assert "could not read a request" in unmatched.message
    assert conn.pending_count == 1


def test_error_with_null_id_that_is_no_parse_error_does_not_claim_one() -> None:
    """bachai-calculator-mcp answers notifications/initialized with {"id": null, "error":
    {-32000 "Unknown method: notifications/initialized"}}: it read the message fine."""
    _conn, server = legacy_session()
    unmatched = one(server.fail(None, -32000, "Unknown method: x"), UnmatchedResponse)
    assert unmatched.reason == "null id"
    assert "could not read" not in unmatched.message
    assert "answered a notification" in unmatched.message
    assert "-32000 Unknown method: x" in unmatched.message


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ('{"jsonrpc":"2.0","id":ID,"result":[1,2]}', '"result" must be an object'),
        ('{"id":ID,"result":{}}', 'missing "jsonrpc"'),
        ('{"jsonrpc":"2.0","id":ID,"result":{},"error":{"code":1,"message":"x"}}', "both"),
        ('{"jsonrpc":"2.0","id":ID,"error":{"message":"no code"}}', '"error.code"'),
    ],
)
def test_malformed_response_fails_its_request(raw: str, reason: str) -> None:
    conn, server = legacy_session()
    key = conn.send_request("tools/list", now=0.0)
    req = server.last_request("tools/list")
    events = server.feed(raw.replace("ID", str(req.id)))
    assert reason in one(events, InvalidFrame).invalid.reason
    failed = one(events, RequestFailed)
    assert (failed.key, failed.kind, failed.wire_id) == (key, "protocol", req.id)
    assert failed.message.startswith("tools/list: the server's response was malformed (")
    assert reason in failed.message
    assert conn.pending_count == 0
    # A correct answer after that is a duplicate, not a crash.
    assert one(server.reply(req, {"tools": []}), UnmatchedResponse).reason == "duplicate"


def test_invalid_utf8_response_fails_its_request() -> None:
    conn, server = legacy_session()
    key = conn.send_request("tools/call", {"name": "x"}, now=0.0)
    req = server.last_request("tools/call")
    wire_id = str(req.id).encode()
    events = server.feed(b'{"jsonrpc":"2.0","id":' + wire_id + b',"result":{"t":"caf\xe9"}}')
    assert "invalid UTF-8" in one(events, InvalidFrame).invalid.reason
    failed = one(events, RequestFailed)
    assert (failed.key, failed.kind) == (key, "protocol")
    assert "invalid UTF-8" in failed.message


def test_malformed_frame_with_an_unknown_id_fails_nothing() -> None:
    conn, server = legacy_session()
    conn.send_request("tools/list", now=0.0)
    events = server.feed('{"jsonrpc":"2.0","id":4242,"result":"text"}')
    assert [type(e) for e in events] == [InvalidFrame]
    assert conn.pending_count == 1


def test_malformed_server_request_sharing_our_id_fails_nothing() -> None:
    # Ids are per direction: a broken server *request* with id 2 is not our answer.
    conn, server = legacy_session()
    conn.send_request("tools/list", now=0.0)
    req = server.last_request("tools/list")
    events = server.feed(f'{{"jsonrpc":"2.0","id":{req.id},"method":"ping","params":[1]}}')
    assert [type(e) for e in events] == [InvalidFrame]
    assert conn.pending_count == 1


def test_non_json_line_is_an_invalid_frame_only() -> None:
    conn, server = legacy_session()
    conn.send_request("tools/list", now=0.0)
    events = server.feed("Listening on stdio...")
    assert one(events, InvalidFrame).invalid.raw == "Listening on stdio..."
    assert conn.pending_count == 1


def test_malformed_initialize_response_fails_the_handshake() -> None:
    conn = ClientConnection()
    server = FakeServer(conn)
    conn.start(0.0)
    init = server.last_request("initialize")
    events = server.feed(f'{{"jsonrpc":"2.0","id":{init.id},"result":null}}')
    assert one(events, RequestFailed).kind == "protocol"
    assert conn.state is ConnectionState.FAILED
    assert conn.failure == "malformed initialize response"


def test_late_response_after_cancel() -> None:
    conn, server = legacy_session()
    key = conn.send_request("tools/call", {"name": "x"}, now=0.0)
    req = server.last_request("tools/call")
    conn.cancel(key, "changed my mind", 0.5)
    late = one(server.reply(req, {"content": []}), LateResponse)
    assert (late.wire_id, late.method, late.why_given_up) == (
        req.id,
        "tools/call",
        "changed my mind",
    )


def test_requests_get_distinct_ids_and_keys() -> None:
    conn, server = modern_session()
    keys = [conn.send_request("tools/list", now=0.0) for _ in range(5)]
    ids = [r.id for r in server.requests("tools/list")]
    assert len(set(keys)) == 5 and len(set(ids)) == 5
    assert all(conn.key_of_wire_id(i) == k for i, k in zip(ids, keys, strict=True))
    assert all(conn.pending_method(k) == "tools/list" for k in keys)


def test_answers_out_of_order_pair_by_id() -> None:
    conn, server = legacy_session()
    a = conn.send_request("tools/list", now=0.0)
    b = conn.send_request("prompts/list", now=0.0)
    req_a, req_b = server.requests()[-2:]
    assert one(server.reply(req_b, {"prompts": []}), RequestCompleted).key == b
    assert one(server.reply(req_a, {"tools": []}), RequestCompleted).key == a


# --------------------------------------------------------------- raw requests
def test_raw_request_pairs_with_its_answer() -> None:
    conn, server = legacy_session()
    raw = Request("hand-typed", "tools/list", {"cursor": "x"})
    key = conn.track_raw_request(raw, 0.0)
    done = one(server.reply("hand-typed", {"tools": []}), RequestCompleted)
    assert (done.key, done.method, done.wire_id) == (key, "tools/list", "hand-typed")


def test_raw_request_id_already_in_flight_is_refused() -> None:
    conn, server = legacy_session()
    conn.send_request("tools/list", now=0.0)
    req = server.last_request("tools/list")
    with pytest.raises(LocalProtocolError, match="already in flight"):
        conn.track_raw_request(Request(req.id, "ping"), 0.0)


def test_fresh_ids_skip_ids_typed_by_hand() -> None:
    conn, server = legacy_session()
    conn.track_raw_request(Request(conn.fresh_id() + 1, "ping"), 0.0)
    conn.send_request("tools/list", now=0.0)
    conn.send_request("tools/list", now=0.0)
    ids = [r.id for r in server.requests("tools/list")]
    assert len(set(ids)) == 2
    assert all(conn.key_of_wire_id(i) is not None for i in ids)


def test_raw_modern_request_skips_mrtr() -> None:
    conn, server = modern_session()
    conn.track_raw_request(Request(77, "tools/call", {"name": "x"}), 0.0)
    events = server.reply(77, {"resultType": "input_required", "requestState": "s"})
    assert one(events, RequestCompleted).result["resultType"] == "input_required"
    assert of_type(events, ServerAskReceived) == []


# ------------------------------------------------------------ connection lost
def test_connection_lost_fails_everything_pending() -> None:
    conn, _server = legacy_session()
    keys = {conn.send_request(m, now=0.0) for m in ("tools/list", "prompts/list")}
    events = conn.connection_lost("the server exited with code 1")
    failures = of_type(events, RequestFailed)
    assert {f.key for f in failures} == keys
    assert all(f.kind == "closed" for f in failures)
    assert all(f.message == "the server exited with code 1" for f in failures)
    assert conn.state is ConnectionState.CLOSED
    assert conn.pending_count == 0
    assert conn.next_deadline() is None
    with pytest.raises(LocalProtocolError, match="closed: the server exited with code 1"):
        conn.send_request("tools/list", now=0.0)


def test_connection_lost_cancels_open_asks_in_both_eras() -> None:
    conn, server = legacy_session()
    _, events = server.ask("roots/list")
    legacy_ask = one(events, ServerAskReceived).ask
    lost = conn.connection_lost("EOF on stdout")
    cancelled = one(lost, AskCancelled)
    assert (cancelled.ask_id, cancelled.reason) == (legacy_ask.ask_id, "EOF on stdout")
    assert conn.open_asks() == []
    assert conn.answer_ask(legacy_ask.ask_id, {"roots": []}, 0.0) == []
    assert server.responses() == []

    mconn, mserver = modern_session()
    key = mconn.send_request("tools/call", {"name": "x"}, now=0.0)
    events = mserver.reply(
        mserver.last_request(),
        {"resultType": "input_required", "inputRequests": {"r": {"method": "roots/list"}}},
    )
    modern_ask = one(events, ServerAskReceived).ask
    lost = mconn.connection_lost("HTTP 404: session expired")
    assert one(lost, AskCancelled).ask_id == modern_ask.ask_id
    failed = one(lost, RequestFailed)
    assert (failed.key, failed.kind, failed.message) == (key, "closed", "HTTP 404: session expired")


def test_connection_lost_during_the_handshake() -> None:
    conn = ClientConnection(ClientConfig(era=EraSetting.LEGACY))
    conn.start(0.0)
    failed = one(conn.connection_lost("spawn failed"), RequestFailed)
    assert (failed.method, failed.kind) == ("initialize", "closed")
    assert conn.state is ConnectionState.CLOSED


def test_connection_lost_after_a_failure_keeps_the_first_reason() -> None:
    conn = ClientConnection()
    server = FakeServer(conn)
    conn.start(0.0)
    server.fail(server.last_request(), -32603, "crash")
    conn.connection_lost("EOF")
    assert conn.state is ConnectionState.FAILED
    assert conn.failure == "initialize failed: -32603 crash"


def test_answers_after_connection_lost_are_not_crashes() -> None:
    conn, server = legacy_session()
    conn.send_request("tools/list", now=0.0)
    req = server.last_request("tools/list")
    conn.connection_lost("gone")
    late = one(server.reply(req, {"tools": []}), LateResponse)
    assert (late.wire_id, late.why_given_up) == (req.id, "gone")
