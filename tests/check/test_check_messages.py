"""The messages the checks write themselves: built by the protocol's own types."""

from __future__ import annotations

from inspector.check.messages import CHECK_CLIENT_INFO, initialize_request
from inspector.protocol.wire.jsonrpc import Request, encode, parse_frame


def test_initialize_request_is_a_legacy_initialize_with_id_1() -> None:
    message = initialize_request("1999-01-01")
    assert message == {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "1999-01-01",
            "capabilities": {},
            "clientInfo": CHECK_CLIENT_INFO,
        },
    }
    frame = parse_frame(encode(Request(1, "initialize", message["params"])))
    assert isinstance(frame, Request) and frame.params == message["params"]
