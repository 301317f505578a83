"""parse_frame's fast path (the common compact frame) decides exactly as the full rules do:
for every frame below, the answer is the one `_parse` (the full rules alone) gives."""

from __future__ import annotations

import pytest

from inspector.protocol.wire import jsonrpc
from inspector.protocol.wire.jsonrpc import Invalid, Notification, Response, parse_frame

FRAMES = [
    '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}',
    '{"jsonrpc":"2.0","method":"n"}',
    '{"jsonrpc":"2.0","method":"n","params":null}',
    '{"jsonrpc":"2.0","method":"n","params":[1]}',
    '{"jsonrpc":"2.0","method":1}',
    '{"jsonrpc":"2.0","method":"m","id":1}',
    '{"jsonrpc":"2.0","method":"m","id":true}',
    '{"jsonrpc":"2.0","method":"m","result":{}}',
    '{"jsonrpc":"2.0","id":1,"result":{}}',
    '{"jsonrpc":"2.0","id":"a","result":{"x":[1,2]}}',
    '{"jsonrpc":"2.0","id":1.5,"result":{}}',
    '{"jsonrpc":"2.0","id":false,"result":{}}',
    '{"jsonrpc":"2.0","id":null,"result":{}}',
    '{"jsonrpc":"2.0","result":{}}',
    '{"jsonrpc":"2.0","id":1,"result":[]}',
    '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}',
    '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}',
    '{"jsonrpc":"1.0","id":1,"result":{}}',
    '{"id":1,"result":{}}',
    '{"jsonrpc":"2.0","id":1,"result":{}} ',
    ' {"jsonrpc":"2.0","id":1,"result":{}}',
    '{"jsonrpc":"2.0","id":1,"result":{}}{}',
    '{"jsonrpc":"2.0","id":1,"result":{"n":NaN}}',
    '{"jsonrpc":"2.0","id":1,"result":{"n":1e400}}',
    '{"jsonrpc":"2.0","method":"n","params":{"s":"\\ud800"}}',
    '{"jsonrpc":"2.0","id":1,"result":{',
    "{",
    "{}",
    "[]",
    "",
    '{"jsonrpc":"2.0","id":1,"result":{}}\r',
    "[" * 100_000,
    "{" + '"a":' * 3 + "1" + "}",
    '{"jsonrpc":"2.0","id":' + "9" * 5000 + ',"result":{}}',
]


def same(a: object, b: object) -> bool:
    if isinstance(a, Invalid) and isinstance(b, Invalid):
        return (a.raw, a.reason, a.id) == (b.raw, b.reason, b.id)
    return a == b


@pytest.mark.parametrize("frame", FRAMES, ids=range(len(FRAMES)))
def test_the_fast_path_agrees_with_the_full_rules(frame: str) -> None:
    assert same(parse_frame(frame), jsonrpc._parse(frame))


def test_the_common_frames_take_the_fast_path() -> None:
    assert type(parse_frame(FRAMES[0])) is Notification
    assert type(parse_frame(FRAMES[8])) is Response
