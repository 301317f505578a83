"""Property tests: parse_frame never raises, whatever the server writes."""

from __future__ import annotations

import json
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from inspector.protocol.wire.jsonrpc import (  # noqa: E402
    ErrorResponse,
    Invalid,
    Notification,
    Request,
    Response,
    encode,
    parse_frame,
)

MESSAGE_TYPES = (Request, Notification, Response, ErrorResponse, Invalid)

json_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
rpc_keys = st.sampled_from(["jsonrpc", "id", "method", "params", "result", "error"])
rpc_like = st.dictionaries(rpc_keys, json_values | st.just("2.0"), max_size=6)


@settings(max_examples=300)
@given(st.binary(max_size=200))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    parsed = parse_frame(data)
    assert isinstance(parsed, MESSAGE_TYPES)
    if isinstance(parsed, Invalid):
        assert parsed.raw in (data, data.decode("utf-8", "replace"))
        assert parsed.reason


@settings(max_examples=300)
@given(st.text(max_size=200))
def test_arbitrary_text_never_raises(text: str) -> None:
    parsed = parse_frame(text)
    assert isinstance(parsed, MESSAGE_TYPES)
    if isinstance(parsed, Invalid):
        assert parsed.raw == text


# 200: most of the time goes into generating the nested values (about 20 ms each).
@settings(max_examples=200)
@given(rpc_like)
def test_json_rpc_shaped_objects_never_raise(obj: dict[str, Any]) -> None:
    text = json.dumps(obj)  # may contain NaN/Infinity: those must come back Invalid
    parsed = parse_frame(text)
    assert isinstance(parsed, MESSAGE_TYPES)
    if isinstance(parsed, Invalid):
        assert parsed.id is None or (
            isinstance(parsed.id, str | int) and not isinstance(parsed.id, bool)
        )
    else:
        # What parses as a message must round-trip through encode.
        assert parse_frame(encode(parsed)) == parsed


ids = st.integers(min_value=-(2**53), max_value=2**53) | st.text(max_size=10)
plain_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=10,
)
params = st.none() | st.dictionaries(st.text(max_size=6), plain_json, max_size=4)
messages = (
    st.builds(Request, ids, st.text(min_size=1, max_size=20), params)
    | st.builds(Notification, st.text(min_size=1, max_size=20), params)
    | st.builds(Response, ids, st.dictionaries(st.text(max_size=6), plain_json, max_size=4))
    | st.builds(ErrorResponse, ids | st.none(), st.integers(), st.text(max_size=20), plain_json)
)


@settings(max_examples=300)
@given(messages)
def test_encode_round_trips(msg: Request | Notification | Response | ErrorResponse) -> None:
    assert parse_frame(encode(msg)) == msg
