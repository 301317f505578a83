"""A fuzz campaign over what reads the server's bytes (not part of the test suite).

Targets (atheris, coverage-guided; `pip install atheris`):

  parse     `parse_frame` on arbitrary bytes and text
  sse       the SSE decoder, fed the same stream whole and cut at fuzzed points
  lines     the stdio transport's line splitter (transports/lines.LineSplitter, cut anywhere)
  conn      `ClientConnection.receive` in the legacy, modern and auto eras, with
            sequences of frames (raw bytes, answers to the client's own requests, errors,
            notifications, server requests with odd ids), client requests, asks answered
            or refused, and the clock moving

Invariants checked on every case (a failure is a crash, and libFuzzer keeps the input):
  - nothing raises (except the documented LocalProtocolError of a request the state
    does not allow);
  - nothing is lost: an invalid frame keeps its raw text or bytes; the SSE decoder gives
    the same events however the stream is cut; the line splitter accounts for every byte;
    every frame the connection receives yields an event, or an answer on the wire;
  - memory is bounded: a frame, event or line over its cap keeps only its head;
  - what the client sends is valid UTF-8, strict JSON (no NaN/Infinity), and parses back
    to the same message;
  - a frame's id is kept whenever the frame has a usable one.

Run:
  python bench/fuzz.py all --runs 1000000        # every target, split evenly; a summary
  python bench/fuzz.py conn -runs=200000         # one target (libFuzzer flags pass through)

The summary prints cases, crashes and seconds per target. Regressions of what it found
are tests: tests/protocol/machine/test_fuzz_regressions.py,
tests/transports/test_stdio_hostile_values.py.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import atheris  # noqa: E402

with atheris.instrument_imports():
    from inspector.protocol.machine.connection import ClientConfig, ClientConnection
    from inspector.protocol.machine.events import ServerAskReceived
    from inspector.protocol.wire.errors import LocalProtocolError
    from inspector.protocol.wire.json_text import has_lone_surrogate
    from inspector.protocol.wire.jsonrpc import (
        ErrorResponse,
        Invalid,
        Message,
        Notification,
        Request,
        Response,
        encode,
        parse_frame,
    )
    from inspector.protocol.wire.versions import EraSetting
    from inspector.transports.base import FrameReceived, FramesReceived
    from inspector.transports.lines import LineSplitter
    from inspector.transports.sse import SseDecoder

TARGETS = ("parse", "sse", "lines", "conn")


# ----------------------------------------------------------------- invariants
def _no_constant(name: str) -> Any:
    raise AssertionError(f"the client wrote {name}, which is not JSON")


def check_sent(message: Message) -> None:
    """What the client sends: valid UTF-8, strict JSON, the same message when parsed back."""
    text = encode(message)
    data = text.encode("utf-8")  # raises on a lone surrogate
    json.loads(data, parse_constant=_no_constant)
    again = parse_frame(data)
    if again != message:
        # Only a str holding a high and a low surrogate as two code points may come back
        # otherwise: JSON has one way to write them, which means the pair's character
        # (Python's own ensure_ascii escapes say the same). Nothing else may differ.
        assert has_lone_surrogate(json.dumps(message.to_dict(), ensure_ascii=False)), again
        reference = json.loads(json.dumps(message.to_dict(), ensure_ascii=True))
        assert json.loads(data) == reference, f"{message!r} came back as {again!r}"


def usable_id(value: Any) -> bool:
    return isinstance(value, str | int) and not isinstance(value, bool)


def check_parsed(frame: str | bytes, parsed: Any) -> None:
    assert isinstance(parsed, Request | Notification | Response | ErrorResponse | Invalid)
    if isinstance(parsed, Invalid):
        assert parsed.reason
        if isinstance(frame, bytes):
            assert parsed.raw in (frame, frame.decode("utf-8", "replace"))
        else:
            assert parsed.raw == frame
    else:
        check_sent(parsed)
    # The id is kept whenever the frame has a usable one.
    text = frame.decode("utf-8", "replace") if isinstance(frame, bytes) else frame
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return
    if not isinstance(value, dict) or "id" not in value or not usable_id(value["id"]):
        return
    if isinstance(frame, bytes) and text.encode("utf-8") != frame:
        # Invalid UTF-8: an id is kept only when no replaced character is in it.
        rid = value["id"]
        if isinstance(rid, str) and "\ufffd" in rid:
            assert getattr(parsed, "id", None) is None, parsed
            return
    if isinstance(value, dict):
        if isinstance(parsed, Notification):
            raise AssertionError("a frame with an id parsed as a notification")
        got = parsed.id
        assert got == value["id"] and type(got) is type(value["id"]), (value["id"], parsed)


# ----------------------------------------------------------------- parse
def fuzz_parse(data: bytes) -> None:
    check_parsed(data, parse_frame(data))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    check_parsed(text, parse_frame(text))  # the same frame as text (memory transport)


# ----------------------------------------------------------------- sse
_SSE_CAP = 64


def fuzz_sse(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    cuts = sorted(fdp.ConsumeIntListInRange(fdp.ConsumeIntInRange(0, 6), 0, 4096))
    stream = fdp.ConsumeBytes(fdp.remaining_bytes())
    whole = SseDecoder(_SSE_CAP)
    expected = whole.feed(stream)
    expected_notes = whole.take_notes()
    chunked = SseDecoder(_SSE_CAP)
    got = []
    notes: list[str] = []
    last = 0
    for cut in [*cuts, len(stream)]:
        cut = min(cut, len(stream))
        if cut < last:
            continue
        got.extend(chunked.feed(stream[last:cut]))
        notes.extend(chunked.take_notes())
        assert len(chunked._buf) <= chunked._line_cap + 1, "the decoder buffered past its cap"
        last = cut
    assert got == expected, "chunking changed the events"
    assert notes == expected_notes
    assert chunked.last_event_id == whole.last_event_id
    assert chunked.retry_ms == whole.retry_ms
    for event in got:
        assert len(event.data) <= _SSE_CAP
        assert event.size >= len(event.data.encode() if isinstance(event.data, str) else event.data)
        if not event.truncated:
            assert event.size == len(
                event.data.encode() if isinstance(event.data, str) else event.data
            )
    chunked.close()


# ----------------------------------------------------------------- lines
_LINE_CAP = 96


def fuzz_lines(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    cuts = sorted(fdp.ConsumeIntListInRange(fdp.ConsumeIntInRange(0, 6), 0, 1024))
    stream = fdp.ConsumeBytes(fdp.remaining_bytes())
    frames = _split(stream, cuts)
    # Every byte is accounted for: each line's size plus its newline.
    assert sum(f.size for f in frames) + stream.count(b"\n") == len(stream), (frames, stream)
    lines = stream.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    assert len(frames) == len(lines)
    for frame, line in zip(frames, lines, strict=True):
        raw = frame.raw.encode("utf-8") if isinstance(frame.raw, str) else frame.raw
        if frame.truncated:
            assert len(line) > _LINE_CAP and frame.size == len(line)
            assert line.startswith(raw) and len(raw) <= 64 * 1024
        else:
            assert raw == (line[:-1] if line.endswith(b"\r") else line)
        check_parsed(frame.raw, parse_frame(frame.raw))


def _split(stream: bytes, cuts: list[int]) -> list[FrameReceived]:
    """The stdio transport's splitter (sans-IO) fed the stream cut at `cuts`."""
    splitter = LineSplitter(_LINE_CAP)
    events = []
    last = 0
    for cut in [*cuts, len(stream)]:
        cut = min(cut, len(stream))
        if cut > last:
            events.extend(splitter.feed(stream[last:cut]))
            last = cut
    events.extend(splitter.end())
    frames: list[FrameReceived] = []
    for item in events:
        if isinstance(item, FramesReceived):
            frames.extend(item.frames())
        elif isinstance(item, FrameReceived):
            frames.append(item)
    return frames


# ----------------------------------------------------------------- conn
_ERAS = (EraSetting.LEGACY, EraSetting.MODERN, EraSetting.AUTO)
_MODERN = "2026-07-28"
_LEGACY = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "1999-01-01")
_CAPS = {
    "tools": {"listChanged": True},
    "resources": {"subscribe": True, "listChanged": True},
    "prompts": {"listChanged": True},
    "logging": {},
    "completions": {},
}
_CLIENT_METHODS = (
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "prompts/get",
    "ping",
    "completion/complete",
    "subscriptions/listen",
    "logging/setLevel",
)
_SERVER_NOTES = (
    "notifications/progress",
    "notifications/message",
    "notifications/cancelled",
    "notifications/tools/list_changed",
    "notifications/resources/updated",
    "notifications/subscriptions/acknowledged",
    "notifications/unknown",
)
_SERVER_ASKS = ("ping", "roots/list", "sampling/createMessage", "elicitation/create", "x/y")
_STRINGS = ("", "t", "\ud800", "\udcff", "\x85", "é\U0001f600", "2.0", "progressToken")


def _value(fdp: Any, depth: int = 0) -> Any:
    kind = fdp.ConsumeIntInRange(0, 9 if depth < 3 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return fdp.ConsumeBool()
    if kind == 2:
        return fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 8)) * (10 ** (400 * fdp.ConsumeBool()))
    if kind == 3:
        return fdp.ConsumeFloat()
    if kind == 4:
        return _STRINGS[fdp.ConsumeIntInRange(0, len(_STRINGS) - 1)]
    if kind == 5:
        return fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 12))
    if kind in (6, 7):
        return [_value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 3))]
    keys = ("progressToken", "progress", "total", "requestId", "level", "uri", "_meta", "x")
    return {
        keys[fdp.ConsumeIntInRange(0, len(keys) - 1)]: _value(fdp, depth + 1)
        for _ in range(fdp.ConsumeIntInRange(0, 4))
    }


def _text(obj: Any, fdp: Any) -> bytes:
    """A message as a server puts it on the wire: bytes (raw surrogates become the
    invalid UTF-8 they would be; escaped ones stay escapes)."""
    return json.dumps(obj, ensure_ascii=fdp.ConsumeBool()).encode("utf-8", "surrogatepass")


def _handshake_reply(req: Request, fdp: Any) -> dict[str, Any]:
    if req.method == "server/discover":
        versions = [_MODERN] if fdp.ConsumeBool() else [_LEGACY[0], _MODERN]
        return {
            "resultType": "complete",
            "supportedVersions": versions,
            "capabilities": _CAPS,
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "f", "version": "1"}},
        }
    version = _LEGACY[fdp.ConsumeIntInRange(0, len(_LEGACY) - 1)]
    return {"protocolVersion": version, "capabilities": _CAPS, "serverInfo": {"name": "f"}}


def fuzz_conn(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    era = _ERAS[fdp.ConsumeIntInRange(0, 2)]
    conn = ClientConnection(ClientConfig(era=era, request_timeout=5.0))
    now = 0.0
    conn.start(now)
    open_ids: list[Any] = []  # ids of the client's requests on the wire
    answered_server: set[Any] = set()

    def drain() -> list[Message]:
        out = conn.data_to_send()
        for message in out:
            check_sent(message)
            if isinstance(message, Request):
                open_ids.append(message.id)
        return out

    def receive(frame: str | bytes) -> None:
        parsed = parse_frame(frame)
        check_parsed(frame, parsed)
        events = conn.receive(parsed, now)
        out = drain()
        if isinstance(parsed, Request):
            answered = any(
                isinstance(m, Response | ErrorResponse) and m.id == parsed.id for m in out
            )
            asked = any(isinstance(e, ServerAskReceived) for e in events)
            assert events or answered or asked or parsed.id in answered_server, parsed
            answered_server.add(parsed.id)
        else:
            assert events, f"{parsed!r} vanished"

    first = drain()
    if first and fdp.ConsumeBool() and isinstance(first[0], Request):
        receive(
            json.dumps(
                {"jsonrpc": "2.0", "id": first[0].id, "result": _handshake_reply(first[0], fdp)}
            )
        )
    for _ in range(fdp.ConsumeIntInRange(1, 24)):
        if fdp.remaining_bytes() == 0:
            break
        op = fdp.ConsumeIntInRange(0, 9)
        if op == 0:
            receive(fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 200)))
        elif op in (1, 2) and open_ids:
            rid = open_ids[fdp.ConsumeIntInRange(0, len(open_ids) - 1)]
            body: dict[str, Any] = {"jsonrpc": "2.0", "id": rid}
            if op == 1:
                result = _value(fdp)
                body["result"] = result if fdp.ConsumeBool() else {"content": [], "x": result}
            else:
                body["error"] = {"code": fdp.ConsumeInt(4), "message": fdp.ConsumeUnicode(8)}
                if fdp.ConsumeBool():
                    body["error"]["data"] = _value(fdp)
            receive(_text(body, fdp))
        elif op == 3:
            method = _SERVER_NOTES[fdp.ConsumeIntInRange(0, len(_SERVER_NOTES) - 1)]
            note: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
            params = _value(fdp)
            if isinstance(params, dict) or fdp.ConsumeBool():
                note["params"] = params
            receive(_text(note, fdp))
        elif op == 4:
            method = _SERVER_ASKS[fdp.ConsumeIntInRange(0, len(_SERVER_ASKS) - 1)]
            rid = fdp.ConsumeInt(4) if fdp.ConsumeBool() else _value(fdp)
            ask: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
            if fdp.ConsumeBool():
                ask["params"] = _value(fdp)
            receive(_text(ask, fdp))
        elif op == 5:
            method = _CLIENT_METHODS[fdp.ConsumeIntInRange(0, len(_CLIENT_METHODS) - 1)]
            params = _value(fdp)
            with contextlib.suppress(LocalProtocolError):
                conn.send_request(
                    method,
                    params if isinstance(params, dict) else None,
                    now=now,
                    progress=fdp.ConsumeBool(),
                    override=fdp.ConsumeBool(),
                )
            drain()
        elif op == 6:
            now += fdp.ConsumeIntInRange(0, 20) / 2
            conn.handle_timer(now)
            drain()
        elif op == 7 and conn.open_asks():
            asks = conn.open_asks()
            ask_id = asks[fdp.ConsumeIntInRange(0, len(asks) - 1)].ask_id
            if fdp.ConsumeBool():
                result = _value(fdp)
                # LocalProtocolError: an answer JSON cannot carry (NaN) is refused, documented.
                with contextlib.suppress(LocalProtocolError):
                    conn.answer_ask(ask_id, result if isinstance(result, dict) else {}, now)
            else:
                conn.reject_ask(ask_id, fdp.ConsumeUnicode(6), now)
            drain()
        elif op == 8 and open_ids:
            # Deep nesting around a usable id.
            rid = open_ids[fdp.ConsumeIntInRange(0, len(open_ids) - 1)]
            depth = fdp.ConsumeIntInRange(1, 1100)  # past the recursion limit of 1000
            receive(
                '{"jsonrpc":'
                + "[" * depth
                + "]" * depth
                + ',"id":'
                + json.dumps(rid)
                + ',"result":{}}'
            )
        elif op == 9:
            deadline = conn.next_deadline()
            if deadline is not None and math.isfinite(deadline):
                now = max(now, deadline)
                conn.handle_timer(now)
                drain()


# ----------------------------------------------------------------- driver
_FUNCS = {"parse": fuzz_parse, "sse": fuzz_sse, "lines": fuzz_lines, "conn": fuzz_conn}
_SEEDS = {
    "parse": [
        b'{"jsonrpc":"2.0","id":1,"result":{}}',
        b'\x85{"jsonrpc":"2.0","method":"n"}',
        b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',
        b'{"jsonrpc":"2.0","id":1,"result":{"a":1e400}}',
        b'[{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"result":{}}]',
    ],
    "sse": [b"\x00\x02\x10data: {}\nretry: 99999999999999\nid: 1\n\n"],
    "lines": [b"\x00" + b'{"a":1}\r\n' + b"x" * 200 + b"\n\xff\xfe\n"],
    "conn": [bytes(range(256)) * 2],
}


def run_one(target: str, argv: list[str]) -> None:
    func = _FUNCS[target]
    corpus = Path(tempfile.gettempdir()) / f"inspector-fuzz-{target}"
    corpus.mkdir(exist_ok=True)
    for i, seed in enumerate(_SEEDS[target]):
        (corpus / f"seed{i}").write_bytes(seed)
    sys.setrecursionlimit(1000)
    atheris.Setup([sys.argv[0], *argv, str(corpus)], func)
    atheris.Fuzz()


def run_all(total: int, extra: list[str]) -> int:
    share = {"parse": 0.35, "sse": 0.35, "lines": 0.15, "conn": 0.15}
    rows = []
    for target in TARGETS:
        runs = int(total * share[target])
        started = time.monotonic()
        proc = subprocess.run(
            [
                sys.executable,
                __file__,
                target,
                f"-runs={runs}",
                "-print_final_stats=1",
                "-max_len=4096",
                *extra,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        seconds = time.monotonic() - started
        done = re.findall(r"stat::number_of_executed_units:\s*(\d+)", proc.stderr)
        cases = int(done[-1]) if done else 0
        crashed = proc.returncode != 0
        rows.append((target, cases, int(crashed), seconds))
        if crashed:
            sys.stderr.write(proc.stderr[-4000:])
        print(
            f"{target:6} {cases:>10,} cases  {int(crashed)} crashes  {seconds:7.1f} s", flush=True
        )
    cases = sum(r[1] for r in rows)
    crashes = sum(r[2] for r in rows)
    seconds = sum(r[3] for r in rows)
    print(f"{'total':6} {cases:>10,} cases  {crashes} crashes  {seconds:7.1f} s")
    return 1 if crashes else 0


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in (*TARGETS, "all"):
        sys.stderr.write(__doc__ or "")
        return 2
    target = sys.argv[1]
    if target == "all":
        args = sys.argv[2:]
        total = 1_000_000
        if args[:1] == ["--runs"]:
            total = int(args[1])
            args = args[2:]
        return run_all(total, args)
    os.environ.setdefault("PYTHONHASHSEED", "0")
    run_one(target, sys.argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
