"""Requests the server sends (legacy) and how the client answers, refuses or flags them."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.protocol.machine.events import (
    AskCancelled,
    NotificationReceived,
    ProtocolViolation,
    RequestFailed,
    ServerAskReceived,
    ServerCancelled,
)
from inspector.protocol.wire.jsonrpc import METHOD_NOT_FOUND, ErrorResponse, Response
from inspector.protocol.wire.versions import Era
from tests.helpers.fake_server import legacy_session, modern_session, of_type, one

SAMPLING = {
    "messages": [{"role": "user", "content": {"type": "text", "text": "Say hi"}}],
    "maxTokens": 20,
}
ELICIT = {"message": "Your name?", "requestedSchema": {"type": "object", "properties": {}}}


@pytest.mark.parametrize(
    ("method", "params", "kind"),
    [
        ("sampling/createMessage", SAMPLING, "sampling"),
        ("elicitation/create", ELICIT, "elicitation"),
        ("roots/list", None, "roots"),
    ],
)
def test_legacy_ask_is_shown_and_answered_by_id(
    method: str, params: dict[str, Any] | None, kind: str
) -> None:
    conn, server = legacy_session()
    _rid, events = server.ask(method, params, rid="srv-1")
    assert of_type(events, ProtocolViolation) == []
    ask = one(events, ServerAskReceived).ask
    assert (ask.kind, ask.method, ask.era, ask.wire_id) == (kind, method, Era.LEGACY, "srv-1")
    assert ask.params == (params or {})
    assert ask.origin == "server request 'srv-1'"
    assert conn.open_asks() == [ask]
    assert server.responses() == []  # waits for the user
    result = {"anything": "the user approved"}
    assert conn.answer_ask(ask.ask_id, result, 1.0) == []
    assert server.responses() == [Response("srv-1", result)]
    assert conn.open_asks() == []
    # Answering again sends nothing more.
    conn.answer_ask(ask.ask_id, result, 2.0)
    assert len(server.responses()) == 1


def test_server_cancels_its_pending_ask() -> None:
    conn, server = legacy_session()
    rid, events = server.ask("sampling/createMessage", SAMPLING)
    ask = one(events, ServerAskReceived).ask
    events = server.notify("notifications/cancelled", {"requestId": rid, "reason": "too slow"})
    cancelled = one(events, AskCancelled)
    assert (cancelled.ask_id, cancelled.reason) == (ask.ask_id, "too slow")
    typed = one(events, NotificationReceived).typed
    assert typed == ServerCancelled(rid, "too slow")
    assert conn.open_asks() == []
    assert conn.answer_ask(ask.ask_id, {"role": "assistant"}, 1.0) == []
    assert conn.reject_ask(ask.ask_id, "no", 1.0) == []
    assert server.responses() == []


def test_server_cancel_without_reason() -> None:
    _, server = legacy_session()
    rid, _ = server.ask("roots/list")
    events = server.notify("notifications/cancelled", {"requestId": rid})
    assert one(events, AskCancelled).reason == "cancelled by the server"


def test_legacy_server_cancel_never_touches_our_own_requests() -> None:
    # Request ids are per direction. In the legacy era the server can only cancel
    # its own requests, so a cancel naming id N must not end *our* request N.
    conn, server = legacy_session()
    key = conn.send_request("tools/call", {"name": "slow"}, now=0.0)
    ours = server.last_request("tools/call")
    _rid, events = server.ask("roots/list", rid=ours.id)
    conn.answer_ask(one(events, ServerAskReceived).ask.ask_id, {"roots": []}, 0.0)
    events = server.notify("notifications/cancelled", {"requestId": ours.id, "reason": "late"})
    assert of_type(events, RequestFailed) == []
    assert conn.pending_method(key) == "tools/call"


def test_sampling_when_the_client_did_not_declare_it() -> None:
    _conn, server = legacy_session(capabilities={"roots": {}})
    rid, events = server.ask("sampling/createMessage", SAMPLING)
    violation = one(events, ProtocolViolation)
    assert violation.rule == "undeclared-capability"
    assert "sampling/createMessage" in violation.message
    assert violation.request is not None and violation.request.id == rid
    assert of_type(events, ServerAskReceived) == []
    (answer,) = server.responses()
    assert isinstance(answer, ErrorResponse)
    assert (answer.id, answer.code) == (rid, METHOD_NOT_FOUND)
    assert "sampling" in answer.message


def test_unknown_server_request_is_answered_method_not_found() -> None:
    conn, server = legacy_session()
    rid, events = server.ask("tools/call", {"name": "reverse"})
    violation = one(events, ProtocolViolation)
    assert violation.rule == "unknown-server-request"
    assert "'tools/call'" in violation.message and "-32601" in violation.message
    assert server.responses() == [
        ErrorResponse(rid, METHOD_NOT_FOUND, "Method not found: tools/call")
    ]
    assert conn.open_asks() == []


def test_elicitation_in_a_version_without_it_is_flagged_but_shown() -> None:
    _, server = legacy_session("2025-03-26")
    _, events = server.ask("elicitation/create", ELICIT)
    violation = one(events, ProtocolViolation)
    assert violation.rule == "version"
    assert "2025-03-26" in violation.message
    assert one(events, ServerAskReceived).ask.kind == "elicitation"


def test_modern_server_sending_a_request_is_a_violation() -> None:
    _conn, server = modern_session()
    rid, events = server.ask("sampling/createMessage", SAMPLING)
    violation = one(events, ProtocolViolation)
    assert violation.rule == "modern-no-server-requests"
    assert "2026-07-28" in violation.message
    assert of_type(events, ServerAskReceived) == []
    (answer,) = server.responses()
    assert isinstance(answer, ErrorResponse)
    assert (answer.id, answer.code) == (rid, METHOD_NOT_FOUND)
    assert "input_required" in answer.message


def test_modern_ping_from_the_server_is_refused_too() -> None:
    _, server = modern_session()
    _rid, events = server.ask("ping")
    assert one(events, ProtocolViolation).rule == "modern-no-server-requests"
    assert [type(r) for r in server.responses()] == [ErrorResponse]


def test_modern_server_ends_a_listen_stream_with_cancelled() -> None:
    # spec 2026-07-28 stdio: notifications/cancelled from the server ends subscriptions/listen.
    conn, server = modern_session()
    key = conn.send_request("subscriptions/listen", {"notifications": {}}, now=0.0)
    listen = server.last_request("subscriptions/listen")
    events = server.notify("notifications/cancelled", {"requestId": listen.id, "reason": "bye"})
    failed = one(events, RequestFailed)
    assert (failed.key, failed.kind) == (key, "cancelled")
    assert failed.message == "subscriptions/listen: ended by the server (bye)"
    assert server.notifications("notifications/cancelled") == []  # nothing to cancel back


def test_modern_server_cancelling_another_request_is_flagged() -> None:
    # "Servers MUST NOT use this notification to cancel any other request."
    conn, server = modern_session()
    key = conn.send_request("tools/call", {"name": "x"}, now=0.0)
    call = server.last_request("tools/call")
    events = server.notify("notifications/cancelled", {"requestId": call.id})
    violation = one(events, ProtocolViolation)
    assert violation.rule == "server-cancel"
    assert "tools/call" in violation.message
    assert of_type(events, RequestFailed) == []
    assert conn.pending_method(key) == "tools/call"


def test_reject_legacy_ask_sends_user_rejected() -> None:
    conn, server = legacy_session()
    rid, events = server.ask("elicitation/create", ELICIT)
    conn.reject_ask(one(events, ServerAskReceived).ask.ask_id, "User declined", 0.0)
    assert server.responses() == [ErrorResponse(rid, -1, "User declined")]


def test_several_asks_are_answered_independently() -> None:
    conn, server = legacy_session()
    r1, e1 = server.ask("roots/list")
    r2, e2 = server.ask("roots/list")
    a1, a2 = one(e1, ServerAskReceived).ask, one(e2, ServerAskReceived).ask
    assert a1.ask_id != a2.ask_id
    conn.answer_ask(a2.ask_id, {"roots": [{"uri": "file:///b"}]}, 0.0)
    conn.answer_ask(a1.ask_id, {"roots": []}, 0.0)
    assert server.responses() == [
        Response(r2, {"roots": [{"uri": "file:///b"}]}),
        Response(r1, {"roots": []}),
    ]


def test_malformed_server_request_with_an_id_is_answered_invalid_request() -> None:
    from inspector.protocol.wire.jsonrpc import INVALID_REQUEST, parse_frame

    conn, _server = legacy_session()
    conn.data_to_send()
    conn.receive(parse_frame('{"jsonrpc":"2.0","id":"s9","method":"roots/list","params":[1]}'), 1.0)
    sent = conn.data_to_send()
    assert len(sent) == 1
    reply = sent[0]
    assert isinstance(reply, ErrorResponse)
    assert (reply.id, reply.code) == ("s9", INVALID_REQUEST)
    assert '"params" must be an object' in reply.message
