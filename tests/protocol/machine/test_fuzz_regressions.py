"""What the fuzz campaign (bench/fuzz.py) found in the sans-IO core, kept as regressions.

Each case once raised out of the core, lost a request id, or made the client send
something that is not valid UTF-8 JSON. The invariants they break are the fuzzer's:
never raise, keep a usable id, and send only UTF-8 JSON that parses back to the message.
"""

from __future__ import annotations

import json
import math

import pytest

from inspector.protocol.machine.events import NotificationReceived, ProtocolViolation, RequestFailed
from inspector.protocol.wire.errors import LocalProtocolError
from inspector.protocol.wire.jsonrpc import (
    ErrorResponse,
    Invalid,
    Notification,
    Request,
    Response,
    encode,
    parse_frame,
)
from inspector.transports.sse import SseDecoder
from tests.helpers.fake_server import legacy_session, of_type, one


def wire_ok(text: str) -> None:
    """What the client sends: valid UTF-8, strict JSON (no NaN/Infinity)."""
    data = text.encode("utf-8")  # raises on a lone surrogate
    data.decode("utf-8")

    def no_constant(name: str) -> None:
        raise AssertionError(f"not JSON: {name}")

    json.loads(data, parse_constant=no_constant)


# ------------------------------------------------------------ SSE retry digits
def test_sse_retry_of_thousands_of_digits_is_bounded_and_flagged() -> None:
    decoder = SseDecoder()
    events = decoder.feed(b"retry: " + b"9" * 5000 + b"\ndata: {}\n\n")
    assert [e.data for e in events] == ["{}"]
    assert decoder.retry_ms is None  # not believed
    notes = decoder.take_notes()
    assert len(notes) == 1 and "retry" in notes[0] and "5000 digits" in notes[0]
    assert decoder.take_notes() == []
    # A sane value still counts.
    decoder.feed(b"retry: 1500\n\n")
    assert decoder.retry_ms == 1500


# ------------------------------------------------------------ huge progress ints
@pytest.mark.parametrize("field", ["progress", "total"])
def test_progress_with_an_integer_beyond_a_double_is_kept_and_flagged(field: str) -> None:
    _conn, server = legacy_session()
    params = {"progressToken": "t", "progress": 1, "total": 2}
    params[field] = 10**400
    raw = json.dumps({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})
    events = server.feed(raw)  # must not raise OverflowError
    note = one(events, NotificationReceived)
    assert note.notification.params == params  # the number is kept exactly
    assert note.typed is None
    violation = one(events, ProtocolViolation)
    assert "progress" in violation.message and "double" in violation.message


# ------------------------------------------------------------ lone surrogates
@pytest.mark.parametrize("rid", ["\ud800", "a\udcffb", "\udc80"])
def test_a_server_request_id_with_a_lone_surrogate_is_answered_in_valid_utf8(rid: str) -> None:
    conn, server = legacy_session()
    raw = json.dumps({"jsonrpc": "2.0", "id": rid, "method": "ping"})  # ASCII escapes
    assert raw.isascii()
    events = server.feed(raw)
    violation = one(events, ProtocolViolation)
    assert "surrogate" in violation.message
    sent = conn.data_to_send()
    assert len(sent) == 1
    text = encode(sent[0])
    wire_ok(text)
    assert parse_frame(text.encode("utf-8")) == Response(rid, {})  # echoed faithfully


def test_an_unknown_method_with_a_lone_surrogate_is_answered_in_valid_utf8() -> None:
    conn, server = legacy_session()
    events = server.feed(json.dumps({"jsonrpc": "2.0", "id": 7, "method": "x/\udfff"}))
    assert of_type(events, ProtocolViolation)
    (answer,) = conn.data_to_send()
    assert isinstance(answer, ErrorResponse)
    wire_ok(encode(answer))


def test_encode_never_writes_a_lone_surrogate() -> None:
    for message in (
        Request("\ud800", "m\udc80", {"k\udfff": ["\ud83d"]}),
        Notification("n", {"x": "\ud800\ud800"}),
        Response(1, {"text": "ok \U0001f600 and \udcff"}),
    ):
        text = encode(message)
        wire_ok(text)
        assert parse_frame(text) == message
    # Ordinary text is still written as itself, not escaped.
    assert encode(Notification("n", {"x": "café \U0001f600"})) == (
        '{"jsonrpc":"2.0","method":"n","params":{"x":"café \U0001f600"}}'
    )


# ------------------------------------------------------------ deep nesting
@pytest.mark.parametrize("depth", [900, 990, 5000, 100_000])
def test_deep_nesting_elsewhere_keeps_the_id(depth: int) -> None:
    deep = "[" * depth + "]" * depth
    raw = '{"jsonrpc":' + deep + ',"id":42,"result":{}}'
    parsed = parse_frame(raw)
    assert isinstance(parsed, Invalid)
    assert parsed.id == 42
    assert parsed.raw == raw


def test_deep_nesting_fails_the_matching_request_at_once() -> None:
    conn, server = legacy_session()
    key = conn.send_request("tools/list", now=server.now)
    (request,) = [m for m in server.take() if isinstance(m, Request)]
    deep = "[" * 990 + "]" * 990
    events = server.feed('{"jsonrpc":' + deep + ',"id":' + json.dumps(request.id) + ',"result":{}}')
    failed = one(events, RequestFailed)
    assert failed.key == key


def test_deep_nesting_after_the_id_in_a_usable_message() -> None:
    deep = "[" * 5000 + "]" * 5000
    parsed = parse_frame('{"jsonrpc":"2.0","id":"x","result":{"deep":' + deep + "}}")
    assert isinstance(parsed, Invalid) and parsed.id == "x"
    assert "deep" in parsed.reason


# ------------------------------------------------------------ whitespace
@pytest.mark.parametrize("pad", ["\x85", "\u2028", "\u3000", "\x0b", "\x0c", "\xa0"])
def test_only_rfc8259_whitespace_pads_a_frame(pad: str) -> None:
    frame = pad + '{"jsonrpc":"2.0","method":"n"}' + pad
    parsed = parse_frame(frame)
    assert isinstance(parsed, Invalid)
    assert parsed.raw == frame


def test_rfc8259_whitespace_is_accepted() -> None:
    assert parse_frame(' \t\r\n{"jsonrpc":"2.0","method":"n"}\n\r\t ') == Notification("n")


# ------------------------------------------------------------ 1e400
def test_a_number_beyond_a_double_is_never_written_as_infinity() -> None:
    parsed = parse_frame('{"jsonrpc":"2.0","id":1,"result":{"a":1e400,"b":-1e400}}')
    assert isinstance(parsed, Response)
    assert parsed.result == {"a": math.inf, "b": -math.inf}
    text = encode(Request(2, "tools/call", {"requestState": parsed.result}))
    wire_ok(text)
    assert "Infinity" not in text
    again = parse_frame(text)
    assert isinstance(again, Request) and again.params == {"requestState": parsed.result}


def test_nan_cannot_be_sent() -> None:
    with pytest.raises(ValueError, match="NaN"):
        encode(Notification("n", {"x": math.nan}))


def test_sse_event_size_counts_the_line_feeds_that_join_data_lines() -> None:
    decoder = SseDecoder(64)
    (first,) = decoder.feed(b"data\ndata\n\n")
    assert (first.data, first.size) == ("\n", 1)
    (second,) = decoder.feed(b"data: x\ndata: y\n\n")
    assert (second.data, second.size) == ("x\ny", 3)


def test_an_id_damaged_by_invalid_utf8_is_not_kept() -> None:
    parsed = parse_frame(b'{"jsonrpc":"2.0","id":"\xed\xa0\x80","method":"x/y"}')
    assert isinstance(parsed, Invalid) and parsed.id is None
    parsed = parse_frame(b'{"jsonrpc":"2.0","id":7,"result":{"t":"\xff"}}')
    assert isinstance(parsed, Invalid) and parsed.id == 7


@pytest.mark.parametrize(
    ("frame", "rid"),
    [
        ('{"jsonrpc":"2.0","id":1,"result":{"x":NaN}}', 1),  # Python's json.dumps default
        ('{"jsonrpc":"2.0","id":"a","result":{"cut', "a"),  # a line cut short
        ('{"jsonrpc":"2.0","id":3,"result":{}}{"x":1}', 3),  # two values on a line
        ('{"jsonrpc":"2.0","result":{"id":9},"error":NaN}', None),  # only a nested id
    ],
)
def test_not_json_as_a_whole_still_keeps_a_readable_top_level_id(frame: str, rid: object) -> None:
    parsed = parse_frame(frame)
    assert isinstance(parsed, Invalid) and parsed.id == rid


def test_params_with_a_meta_that_is_not_an_object_are_refused_clearly() -> None:
    conn, _server = legacy_session()
    with pytest.raises(LocalProtocolError, match='"_meta" must be an object'):
        conn.send_request("tools/list", {"_meta": True}, now=0.0, progress=True)


def test_split_array_keeps_each_members_exact_text() -> None:
    from inspector.protocol.wire.json_text import split_array

    text = ' [ {"a": "x,]"} ,\n[1, [2]],3 , "s\\"]" ]'
    assert split_array(text) == ['{"a": "x,]"}', "[1, [2]]", "3", '"s\\"]"']
    assert split_array("[]") == []
    assert split_array('{"a":1}') is None
    assert split_array("[1,") is None


def test_params_json_cannot_carry_are_refused_before_they_are_queued() -> None:
    conn, server = legacy_session()
    with pytest.raises(LocalProtocolError, match="NaN"):
        conn.send_request("tools/call", {"name": "x", "arguments": {"n": math.nan}}, now=0.0)
    with pytest.raises(LocalProtocolError, match="NaN"):
        conn.send_notification("notifications/x", {"n": [math.nan]})
    assert server.take() == []  # nothing reached the outbox; the writer never sees it
    conn.send_request("tools/list", now=0.0)
    assert [m.method for m in server.take() if isinstance(m, Request)] == ["tools/list"]


def test_skipping_a_deeply_nested_value_is_fast_and_exact() -> None:
    from inspector.protocol.wire.json_text import top_level_member

    deep = '[{"a":"]}"},' * 50_000 + "1" + "]" * 50_000
    text = '{"x":' + deep + ',"id":"k"}'
    assert top_level_member(text, "id") == (True, "k")


def test_a_surrogate_pair_held_as_two_code_points_goes_out_as_its_character() -> None:
    """Only a str built in code can hold one (a parsed frame or Qt text never does): JSON
    has one way to write it, the two escapes, which mean the pair's character."""
    text = encode(Notification("n", {"x": "\ud83d\ude00"}))
    wire_ok(text)
    assert parse_frame(text.encode("utf-8")) == Notification("n", {"x": "\U0001f600"})
