"""jsonrpc.parse_frame: every frame becomes a Message or an Invalid with a readable reason."""

from __future__ import annotations

import json

import pytest

from inspector.protocol.wire.jsonrpc import (
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    UNSUPPORTED_PROTOCOL_VERSION,
    USER_REJECTED,
    ErrorResponse,
    Invalid,
    Notification,
    Request,
    Response,
    encode,
    error_name,
    parse_frame,
)


def invalid(frame: str | bytes) -> Invalid:
    parsed = parse_frame(frame)
    assert isinstance(parsed, Invalid), f"expected Invalid for {frame!r}, got {parsed!r}"
    return parsed


# --------------------------------------------------------------- valid messages
def test_request_with_params() -> None:
    msg = parse_frame('{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"c"}}')
    assert msg == Request(7, "tools/list", {"cursor": "c"})


def test_request_with_string_id_and_no_params() -> None:
    assert parse_frame('{"jsonrpc":"2.0","id":"abc","method":"ping"}') == Request("abc", "ping")


def test_notification_has_no_id() -> None:
    msg = parse_frame('{"jsonrpc":"2.0","method":"notifications/initialized"}')
    assert msg == Notification("notifications/initialized")


def test_response() -> None:
    assert parse_frame('{"jsonrpc":"2.0","id":1,"result":{}}') == Response(1, {})


def test_error_response_keeps_data() -> None:
    msg = parse_frame(
        '{"jsonrpc":"2.0","id":3,"error":{"code":-32022,"message":"nope",'
        '"data":{"supported":["2026-07-28"]}}}'
    )
    assert msg == ErrorResponse(3, -32022, "nope", {"supported": ["2026-07-28"]})


def test_error_response_with_null_id_is_valid() -> None:
    # JSON-RPC: a server that cannot read the request id answers with id null.
    msg = parse_frame('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse"}}')
    assert msg == ErrorResponse(None, -32700, "Parse")


def test_bytes_frame_and_surrounding_whitespace() -> None:
    msg = parse_frame(b'  {"jsonrpc":"2.0","id":1,"result":{"a":"\xc3\xa9"}}\r\n')
    assert msg == Response(1, {"a": "é"})


def test_zero_and_negative_ids_are_valid() -> None:
    assert parse_frame('{"jsonrpc":"2.0","id":0,"result":{}}') == Response(0, {})
    assert parse_frame('{"jsonrpc":"2.0","id":-5,"method":"x"}') == Request(-5, "x")


# --------------------------------------------------------------- invalid frames
def test_invalid_utf8_keeps_the_bytes_and_names_the_offset() -> None:
    raw = b'{"jsonrpc":"2.0","id":1,"result":{"t":"\xff\xfe"}}'
    bad = invalid(raw)
    assert bad.raw == raw
    assert isinstance(bad.raw, bytes)
    offset = raw.index(b"\xff")
    assert f"invalid UTF-8 at byte {offset}: invalid start byte" == bad.reason


def test_invalid_utf8_response_still_names_its_id() -> None:
    # The protocol layer fails request 1 at once instead of waiting for a timeout.
    bad = invalid(b'{"jsonrpc":"2.0","id":1,"result":{"t":"caf\xe9"}}')
    assert bad.id == 1
    assert bad.value["result"] == {"t": "caf\ufffd"}


def test_invalid_utf8_garbage_has_no_id() -> None:
    bad = invalid(b"\x80\x81 not even json")
    assert bad.id is None
    assert bad.raw == b"\x80\x81 not even json"


def test_not_json_keeps_the_text() -> None:
    bad = invalid("Server starting on port 3000...")
    assert bad.raw == "Server starting on port 3000..."
    assert bad.reason.startswith("not JSON")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_standard_constants_are_rejected(constant: str) -> None:
    bad = invalid(f'{{"jsonrpc":"2.0","id":1,"result":{{"x":{constant}}}}}')
    assert "not JSON" in bad.reason
    assert constant.lstrip("-") in bad.reason


def test_batch_is_invalid_and_says_so() -> None:
    raw = '[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{}}]'
    bad = invalid(raw)
    assert "batch of 2 messages" in bad.reason
    assert bad.raw == raw
    assert bad.id is None


@pytest.mark.parametrize(
    ("raw", "kind"),
    [("42", "a number"), ('"hello"', "a string"), ("null", "null"), ("true", "a boolean")],
)
def test_bare_json_values(raw: str, kind: str) -> None:
    assert invalid(raw).reason == f"not a JSON object but {kind}"


@pytest.mark.parametrize("raw", ["", "   ", "\n", b"", b"\r\n"])
def test_empty_frame(raw: str | bytes) -> None:
    assert invalid(raw).reason == "empty frame"


def test_missing_jsonrpc_keeps_the_usable_id() -> None:
    bad = invalid('{"id":4,"result":{}}')
    assert bad.reason == 'missing "jsonrpc": "2.0"'
    assert bad.id == 4


@pytest.mark.parametrize("version", ['"1.0"', "2.0", "null"])
def test_wrong_jsonrpc_version(version: str) -> None:
    bad = invalid(f'{{"jsonrpc":{version},"id":"a","result":{{}}}}')
    assert bad.reason.startswith('"jsonrpc" must be "2.0", got ')
    assert version in bad.reason
    assert bad.id == "a"


@pytest.mark.parametrize(
    ("id_json", "described"),
    [
        ("true", "a boolean"),
        ("1.5", "a number (1.5)"),
        ("1.0", "a number (1.0)"),
        ("null", "null"),
        ('{"a":1}', "an object"),
        ("[1]", "an array"),
    ],
)
def test_bad_request_ids(id_json: str, described: str) -> None:
    bad = invalid(f'{{"jsonrpc":"2.0","id":{id_json},"method":"ping"}}')
    assert bad.reason.startswith("request id must be a string or integer, got ")
    assert described in bad.reason
    assert bad.id is None


@pytest.mark.parametrize("id_json", ["false", "2.5", "null", '{"x":1}'])
def test_bad_response_ids(id_json: str) -> None:
    bad = invalid(f'{{"jsonrpc":"2.0","id":{id_json},"result":{{}}}}')
    assert bad.reason.startswith("response id must be a string or integer")
    assert bad.id is None


@pytest.mark.parametrize("id_json", ["true", "1.5", "[2]"])
def test_bad_error_ids(id_json: str) -> None:
    bad = invalid(f'{{"jsonrpc":"2.0","id":{id_json},"error":{{"code":1,"message":"m"}}}}')
    assert bad.reason.startswith("error id must be a string, integer or null")


def test_bool_id_is_not_taken_for_an_int() -> None:
    # JSON true must never match our request id 1.
    bad = invalid('{"jsonrpc":"2.0","id":true,"result":{}}')
    assert bad.id is None


def test_result_and_error_together() -> None:
    bad = invalid('{"jsonrpc":"2.0","id":9,"result":{},"error":{"code":1,"message":"m"}}')
    assert bad.reason == 'a response cannot have both "result" and "error"'
    assert bad.id == 9


def test_method_with_result() -> None:
    bad = invalid('{"jsonrpc":"2.0","id":9,"method":"x","result":{}}')
    assert "both" in bad.reason


@pytest.mark.parametrize(
    ("error_json", "reason"),
    [
        ('{"message":"m"}', '"error.code" must be an integer'),
        ('{"code":"1","message":"m"}', '"error.code" must be an integer'),
        ('{"code":true,"message":"m"}', '"error.code" must be an integer'),
        ('{"code":1.5,"message":"m"}', '"error.code" must be an integer'),
        ('{"code":-32600}', '"error.message" must be a string'),
        ('{"code":-32600,"message":5}', '"error.message" must be a string'),
        ('"boom"', '"error" must be an object, got a string'),
    ],
)
def test_malformed_error_objects(error_json: str, reason: str) -> None:
    bad = invalid(f'{{"jsonrpc":"2.0","id":2,"error":{error_json}}}')
    assert bad.reason == reason
    assert bad.id == 2


@pytest.mark.parametrize(
    ("params_json", "kind"), [("[1,2]", "an array"), ('"p"', "a string"), ("3", "a number")]
)
def test_positional_or_scalar_params(params_json: str, kind: str) -> None:
    bad = invalid(f'{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{params_json}}}')
    assert bad.reason == f'"params" must be an object, got {kind}'


def test_null_params_are_not_an_object() -> None:
    bad = invalid('{"jsonrpc":"2.0","method":"notifications/x","params":null}')
    assert bad.reason == '"params" must be an object, got null'


@pytest.mark.parametrize(("result_json", "kind"), [("[]", "an array"), ("null", "null")])
def test_non_object_result(result_json: str, kind: str) -> None:
    bad = invalid(f'{{"jsonrpc":"2.0","id":5,"result":{result_json}}}')
    assert bad.reason == f'"result" must be an object, got {kind}'
    assert bad.id == 5


def test_method_must_be_a_string() -> None:
    assert invalid('{"jsonrpc":"2.0","id":1,"method":7}').reason == '"method" must be a string'


def test_neither_request_nor_response() -> None:
    bad = invalid('{"jsonrpc":"2.0","id":1}')
    assert bad.reason.startswith("neither a request")
    assert bad.id == 1


def test_deep_nesting_is_invalid_not_a_recursion_error() -> None:
    raw = "[" * 100_000 + "]" * 100_000
    bad = invalid(raw)
    assert "too deep" in bad.reason
    assert bad.raw == raw


def test_deep_nesting_inside_a_response() -> None:
    raw = '{"jsonrpc":"2.0","id":1,"result":{"x":' + "[" * 50_000 + "]" * 50_000 + "}}"
    assert "too deep" in invalid(raw).reason


def test_huge_integer_is_invalid() -> None:
    # Python refuses to parse ints of more than 4300 digits; that must not escape.
    bad = invalid('{"jsonrpc":"2.0","id":' + "9" * 5000 + ',"result":{}}')
    assert bad.reason.startswith("not JSON")


def test_raw_text_is_kept_exactly() -> None:
    raw = '  {"jsonrpc":"2.0","id":1,"result":[]}  \n'
    assert invalid(raw).raw == raw


def test_invalid_keeps_the_decoded_value_for_display() -> None:
    bad = invalid('{"jsonrpc":"1.0","id":1,"result":{"a":1}}')
    assert bad.value == {"jsonrpc": "1.0", "id": 1, "result": {"a": 1}}


# ----------------------------------------------------------------- encode
@pytest.mark.parametrize(
    "msg",
    [
        Request(1, "tools/call", {"name": "echo", "arguments": {"text": "héllo ✓"}}),
        Request("req-1", "ping"),
        Notification("notifications/initialized"),
        Notification("notifications/cancelled", {"requestId": 3, "reason": "timed out"}),
        Response(2, {"content": [{"type": "text", "text": "ok"}]}),
        Response("x", {}),
        ErrorResponse(4, METHOD_NOT_FOUND, "Method not found: foo"),
        ErrorResponse(None, INVALID_REQUEST, "bad", {"detail": [1, 2]}),
        ErrorResponse(5, USER_REJECTED, "User rejected", 0),
    ],
)
def test_encode_round_trips(msg: Request | Notification | Response | ErrorResponse) -> None:
    line = encode(msg)
    assert "\n" not in line
    assert parse_frame(line) == msg
    assert parse_frame(line.encode()) == msg


def test_encode_is_compact_json_rpc() -> None:
    line = encode(Request(1, "ping"))
    assert line == '{"jsonrpc":"2.0","id":1,"method":"ping"}'
    assert json.loads(encode(ErrorResponse(None, -32700, "x"))) == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32700, "message": "x"},
    }


def test_encode_keeps_non_ascii_and_escapes_newlines() -> None:
    line = encode(Response(1, {"text": "a\nb é"}))
    assert "é" in line
    assert "\\n" in line


# ------------------------------------------------------------- error names
@pytest.mark.parametrize(
    ("code", "name"),
    [
        (-32700, "Parse error"),
        (METHOD_NOT_FOUND, "Method not found"),
        (UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version"),
        (USER_REJECTED, "Rejected by user"),
        (-32050, "Server error"),
        (42, "Application error"),
    ],
)
def test_error_names(code: int, name: str) -> None:
    assert error_name(code) == name
