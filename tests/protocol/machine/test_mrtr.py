"""Multi-round-trip requests (2026-07-28): input_required, inputResponses, requestState."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.protocol.machine.events import (
    AskCancelled,
    ProtocolViolation,
    RequestCompleted,
    RequestFailed,
    ServerAskReceived,
    UnmatchedResponse,
)
from inspector.protocol.wire.jsonrpc import ErrorResponse, Request
from inspector.protocol.wire.versions import Era
from tests.helpers.fake_server import META, MODERN, legacy_session, modern_session, of_type, one

ELICIT: dict[str, Any] = {
    "method": "elicitation/create",
    "params": {
        "message": "Please provide your GitHub username",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}},
    },
}
SAMPLE: dict[str, Any] = {
    "method": "sampling/createMessage",
    "params": {
        "messages": [{"role": "user", "content": {"type": "text", "text": "Capital of France?"}}],
        "maxTokens": 100,
    },
}
ROOTS: dict[str, Any] = {"method": "roots/list", "params": {}}


def input_required(
    requests: dict[str, Any] | None = None, state: str | None = None
) -> dict[str, Any]:
    result: dict[str, Any] = {"resultType": "input_required"}
    if requests is not None:
        result["inputRequests"] = requests
    if state is not None:
        result["requestState"] = state
    return result


def asks_of(events: list[Any]) -> dict[str, Any]:
    return {str(e.ask.input_key): e.ask for e in of_type(events, ServerAskReceived)}


def params(req: Request) -> dict[str, Any]:
    assert req.params is not None
    return req.params


CALL = {"name": "deploy", "arguments": {"env": "prod"}}


def test_input_required_raises_one_ask_per_key() -> None:
    conn, server = modern_session()
    key = conn.send_request("tools/call", CALL, now=0.0)
    first = server.last_request("tools/call")
    events = server.reply(first, input_required({"login": ELICIT, "capital": SAMPLE}, "s1"))
    asks = asks_of(events)
    assert set(asks) == {"login", "capital"}
    login = asks["login"]
    assert (login.kind, login.method, login.era) == (
        "elicitation",
        "elicitation/create",
        Era.MODERN,
    )
    assert login.params == ELICIT["params"]
    assert (login.request_key, login.request_method) == (key, "tools/call")
    assert login.wire_id is None
    assert login.origin == f"input request 'login' of tools/call #{key}"
    assert asks["capital"].kind == "sampling"
    assert of_type(events, RequestCompleted) == []
    assert {a.ask_id for a in conn.open_asks()} == {a.ask_id for a in asks.values()}
    assert server.take() == []  # nothing goes out until the user answers


def test_answering_every_ask_resends_the_request_under_a_new_id() -> None:
    conn, server = modern_session()
    key = conn.send_request("tools/call", CALL, now=0.0)
    first = server.last_request("tools/call")
    asks = asks_of(server.reply(first, input_required({"login": ELICIT, "cap": SAMPLE}, "s1")))

    answer_login = {"action": "accept", "content": {"name": "octocat"}}
    answer_cap = {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"}
    assert conn.answer_ask(asks["login"].ask_id, answer_login, 1.0) == []
    assert server.take() == []  # one answer is still missing
    assert conn.answer_ask(asks["cap"].ask_id, answer_cap, 2.0) == []

    retry = server.last_request("tools/call")
    assert retry.id != first.id
    p = params(retry)
    assert p["name"] == "deploy" and p["arguments"] == {"env": "prod"}  # the original params
    assert p["inputResponses"] == {"login": answer_login, "cap": answer_cap}
    assert p["requestState"] == "s1"
    assert p["_meta"][META + "protocolVersion"] == MODERN

    done = one(
        server.reply(retry, {"content": [{"type": "text", "text": "deployed"}]}), RequestCompleted
    )
    assert (done.key, done.rounds, done.wire_id) == (key, 2, retry.id)
    assert conn.open_asks() == []


def test_retry_without_request_state_sends_none() -> None:
    conn, server = modern_session()
    conn.send_request("tools/call", CALL, now=0.0)
    asks = asks_of(server.reply(server.last_request(), input_required({"r": ROOTS})))
    conn.answer_ask(asks["r"].ask_id, {"roots": []}, 0.0)
    p = params(server.last_request("tools/call"))
    assert "requestState" not in p
    assert p["inputResponses"] == {"r": {"roots": []}}


def test_each_round_sends_only_its_own_responses() -> None:
    conn, server = modern_session()
    key = conn.send_request("tools/call", CALL, now=0.0)
    asks = asks_of(server.reply(server.last_request(), input_required({"a": ROOTS}, "s1")))
    conn.answer_ask(asks["a"].ask_id, {"roots": []}, 0.0)
    asks = asks_of(server.reply(server.last_request(), input_required({"b": ELICIT}, "s2")))
    conn.answer_ask(asks["b"].ask_id, {"action": "decline"}, 0.0)
    third = params(server.last_request("tools/call"))
    assert third["inputResponses"] == {"b": {"action": "decline"}}
    assert third["requestState"] == "s2"
    done = one(server.reply(server.last_request(), {"content": []}), RequestCompleted)
    assert (done.key, done.rounds) == (key, 3)
    ids = [r.id for r in server.requests("tools/call")]
    assert len(set(ids)) == 3


def test_progress_token_survives_the_rounds() -> None:
    conn, server = modern_session()
    conn.send_request("tools/call", CALL, now=0.0, progress=True)
    token = params(server.last_request())["_meta"]["progressToken"]
    asks = asks_of(server.reply(server.last_request(), input_required({"a": ROOTS})))
    conn.answer_ask(asks["a"].ask_id, {"roots": []}, 0.0)
    assert params(server.last_request())["_meta"]["progressToken"] == token


def test_answer_to_an_old_round_is_a_duplicate() -> None:
    conn, server = modern_session()
    conn.send_request("tools/call", CALL, now=0.0)
    first = server.last_request()
    asks = asks_of(server.reply(first, input_required({"a": ROOTS})))
    conn.answer_ask(asks["a"].ask_id, {"roots": []}, 0.0)
    events = server.reply(first, {"content": []})
    assert one(events, UnmatchedResponse).reason == "duplicate"
    assert conn.pending_count == 1  # the retry is still in flight


# ------------------------------------------------------------ state-only rounds
def test_request_state_only_retries_after_a_backoff() -> None:
    conn, server = modern_session()
    key = conn.send_request("tools/call", CALL, now=0.0)
    first = server.last_request()
    assert server.reply(first, input_required(state="working")) == []
    assert server.take() == []
    assert conn.next_deadline() == pytest.approx(0.05)
    assert server.advance(0.04) == []
    assert server.take() == []
    server.advance(0.01)
    retry = server.last_request("tools/call")
    assert retry.id != first.id
    assert params(retry)["requestState"] == "working"
    assert "inputResponses" not in params(retry)
    assert params(retry)["name"] == "deploy"
    done = one(server.reply(retry, {"content": []}), RequestCompleted)
    assert (done.key, done.rounds) == (key, 2)


def test_state_only_backoff_grows_then_caps() -> None:
    conn, server = modern_session()
    conn.send_request("tools/call", CALL, now=0.0)
    delays = []
    for _ in range(5):
        before = server.now
        server.reply(server.last_request(), input_required(state="again"))
        deadline = conn.next_deadline()
        assert deadline is not None
        delays.append(round(deadline - before, 6))
        server.run_to_deadline()
    assert delays == [0.05, 0.1, 0.2, 0.25, 0.25]


def test_max_rounds_fails_the_request() -> None:
    conn, server = modern_session(max_mrtr_rounds=3)
    key = conn.send_request("tools/call", CALL, now=0.0)
    for _ in range(3):
        assert (
            of_type(server.reply(server.last_request(), input_required(state="x")), RequestFailed)
            == []
        )
        server.run_to_deadline()
    events = server.reply(server.last_request(), input_required(state="x"))
    failed = one(events, RequestFailed)
    assert (failed.key, failed.kind) == (key, "protocol")
    assert "more than 3 rounds" in failed.message
    assert conn.pending_count == 0
    assert conn.next_deadline() is None


@pytest.mark.parametrize(
    ("result", "why"),
    [
        (input_required(), "neither inputRequests nor requestState"),
        ({"resultType": "input_required", "inputRequests": []}, "inputRequests is not an object"),
        ({"resultType": "input_required", "inputRequests": {}}, "neither"),
    ],
)
def test_input_required_with_nothing_to_do_is_a_protocol_failure(
    result: dict[str, Any], why: str
) -> None:
    conn, server = modern_session()
    conn.send_request("tools/call", CALL, now=0.0)
    failed = one(server.reply(server.last_request(), result), RequestFailed)
    assert failed.kind == "protocol"
    assert why in failed.message


def test_unknown_input_request_method_fails_and_drops_the_siblings() -> None:
    conn, server = modern_session()
    key = conn.send_request("tools/call", CALL, now=0.0)
    events = server.reply(
        server.last_request(),
        input_required({"ok": ELICIT, "weird": {"method": "tools/call", "params": {}}}, "s"),
    )
    failed = one(events, RequestFailed)
    assert (failed.key, failed.kind) == (key, "protocol")
    assert "'weird'" in failed.message and "'tools/call'" in failed.message
    shown = one(events, ServerAskReceived).ask
    assert one(events, AskCancelled).ask_id == shown.ask_id
    assert conn.open_asks() == []
    assert conn.answer_ask(shown.ask_id, {"action": "accept"}, 0.0) == []
    assert server.take() == []


def test_input_request_without_a_method_fails() -> None:
    conn, server = modern_session()
    conn.send_request("tools/call", CALL, now=0.0)
    failed = one(server.reply(server.last_request(), input_required({"x": "text"})), RequestFailed)
    assert "'x': unknown input request method None" in failed.message


# ------------------------------------------------------------------- rejection
def test_reject_ask_in_modern_fails_the_request_and_cancels_siblings() -> None:
    conn, server = modern_session()
    key = conn.send_request("tools/call", CALL, now=0.0)
    asks = asks_of(server.reply(server.last_request(), input_required({"a": ELICIT, "b": SAMPLE})))
    events = conn.reject_ask(asks["a"].ask_id, "not today", 1.0)
    failed = one(events, RequestFailed)
    assert (failed.key, failed.kind) == (key, "rejected")
    assert failed.message == "tools/call: elicitation request 'a' rejected: not today"
    assert one(events, AskCancelled).ask_id == asks["b"].ask_id
    assert server.take() == []  # MRTR has no error slot: nothing is sent
    assert conn.pending_count == 0
    assert conn.answer_ask(asks["b"].ask_id, {"role": "assistant"}, 2.0) == []
    assert server.take() == []


def test_reject_ask_in_legacy_answers_error_minus_one() -> None:
    conn, server = legacy_session()
    rid, events = server.ask("sampling/createMessage", SAMPLE["params"])
    ask = one(events, ServerAskReceived).ask
    assert conn.reject_ask(ask.ask_id, "User rejected sampling", 0.0) == []
    assert server.responses() == [ErrorResponse(rid, -1, "User rejected sampling")]


def test_rejecting_twice_sends_once() -> None:
    conn, server = legacy_session()
    _, events = server.ask("roots/list")
    ask = one(events, ServerAskReceived).ask
    conn.reject_ask(ask.ask_id, "no", 0.0)
    conn.reject_ask(ask.ask_id, "no", 0.0)
    assert len(server.responses()) == 1


def test_cancel_while_waiting_for_input_drops_the_asks() -> None:
    conn, server = modern_session()
    key = conn.send_request("tools/call", CALL, now=0.0)
    asks = asks_of(server.reply(server.last_request(), input_required({"a": ELICIT})))
    events = conn.cancel(key, "user closed the dialog", 1.0)
    assert one(events, AskCancelled).ask_id == asks["a"].ask_id
    assert one(events, RequestFailed).kind == "cancelled"
    # The server already answered; there is no request in flight to cancel.
    assert server.notifications("notifications/cancelled") == []


def test_no_timeout_while_the_user_is_answering() -> None:
    conn, server = modern_session(request_timeout=5.0)
    conn.send_request("tools/call", CALL, now=0.0)
    asks = asks_of(server.reply(server.last_request(), input_required({"a": ELICIT})))
    assert conn.next_deadline() is None
    assert server.advance(3600.0) == []
    conn.answer_ask(asks["a"].ask_id, {"action": "accept", "content": {}}, server.now)
    assert conn.next_deadline() == pytest.approx(server.now + 5.0)


def test_url_elicitation_mode_is_visible() -> None:
    conn, server = modern_session()
    conn.send_request("tools/call", CALL, now=0.0)
    url = {
        "method": "elicitation/create",
        "params": {
            "mode": "url",
            "url": "https://example.com/auth",
            "message": "Log in",
            "elicitationId": "e1",
        },
    }
    asks = asks_of(server.reply(server.last_request(), input_required({"u": url, "f": ELICIT})))
    assert asks["u"].elicitation_mode == "url"
    assert asks["f"].elicitation_mode == "form"


def test_input_request_for_an_undeclared_capability_is_flagged_but_shown() -> None:
    conn, server = modern_session(capabilities={"elicitation": {}})
    conn.send_request("tools/call", CALL, now=0.0)
    events = server.reply(server.last_request(), input_required({"s": SAMPLE, "e": ELICIT}))
    violation = one(events, ProtocolViolation)
    assert violation.rule == "undeclared-capability"
    assert "'s'" in violation.message and "sampling" in violation.message
    assert set(asks_of(events)) == {"s", "e"}


def test_input_required_on_a_method_that_may_not_use_it_is_flagged() -> None:
    conn, server = modern_session()
    conn.send_request("tools/list", None, now=0.0)
    events = server.reply(server.last_request("tools/list"), input_required({"q": ELICIT}))
    flagged = [v for v in of_type(events, ProtocolViolation) if v.rule == "mrtr-method"]
    assert flagged and "tools/list" in flagged[0].message
    assert set(asks_of(events)) == {"q"}  # still handled, so the user sees what was asked


def test_input_required_on_tools_call_is_not_flagged() -> None:
    conn, server = modern_session()
    conn.send_request("tools/call", CALL, now=0.0)
    events = server.reply(server.last_request("tools/call"), input_required({"q": ELICIT}))
    assert not [v for v in of_type(events, ProtocolViolation) if v.rule == "mrtr-method"]
