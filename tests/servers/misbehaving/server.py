"""A stdio MCP server that misbehaves on purpose, one way per --mode (stdlib only).

It does a minimal legacy handshake (initialize, then notifications/initialized) and
answers ping, tools/list and tools/call of a tool named "ok" correctly, unless the
mode breaks exactly that. Every message it receives is logged to stderr as
``recv <method-or-response> id=<id>`` so tests can check what reached the server.

Modes:
  garbage        non-JSON lines on stdout around valid responses (print debugging)
  bad-utf8       invalid UTF-8: a stray line, and a response to tools/call "bad"
  oversized      a line of --size bytes (no newline inside) before valid responses;
                 tools/call "big" gets an oversized *response* to its own id
  crash          tools/call: write to stderr, then exit 3 without answering
  exit-early     print an error to stderr and exit 1 before reading anything
  hang           never answer tools/call (tools/call "ok" still works)
  unknown-id     answer id 9999 (never sent) before answering tools/call
  duplicate      answer every tools/call twice
  early-request  send roots/list and sampling/createMessage before answering initialize
                 (so before notifications/initialized could have arrived)
  stubborn       ignore stdin EOF and SIGTERM (only SIGKILL ends it)
  deaf-to-eof    ignore stdin EOF, end on SIGTERM (as server-everything does)
  orphan-stdout  on tools/call, start a grandchild that keeps stdout open, then exit 0
  flood          tools/call: --count notifications/message lines, then the answer
  mute           read everything, answer nothing (not even initialize)
  close-stdout   tools/call: close stdout but keep running until stdin EOF
  bad-request    tools/call: a malformed server request reusing the call's id, then
                 the real answer
  hostile        what the fuzzer found, by tool name: "huge-progress" (progress and total
                 of 10**400, then the answer), "surrogate-ask" (a roots/list request whose
                 id is the escape "\ud800", then the answer), "deep" (an answer whose
                 "jsonrpc" member nests 990 arrays deep), "batch" (the answer and a log
                 notification in one JSON array)
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from typing import Any

OUT = sys.stdout.buffer
TOOLS = [
    {"name": "ok", "inputSchema": {"type": "object"}},
    {"name": "bad", "inputSchema": {"type": "object"}},
    {"name": "big", "inputSchema": {"type": "object"}},
]


def log(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def write(data: bytes) -> None:
    OUT.write(data)
    OUT.flush()


def send(message: dict[str, Any]) -> None:
    write(json.dumps(message, separators=(",", ":")).encode() + b"\n")


def result(msg_id: Any, value: dict[str, Any]) -> None:
    send({"jsonrpc": "2.0", "id": msg_id, "result": value})


def text_result(msg_id: Any, text: str) -> None:
    result(msg_id, {"content": [{"type": "text", "text": text}]})


def read_messages() -> Any:
    """Yield parsed messages from stdin, logging each; ends at EOF."""
    for line in sys.stdin.buffer:
        try:
            msg = json.loads(line)
        except ValueError:
            log(f"recv unparsable line {line[:80]!r}")
            continue
        if "method" in msg:
            log(f"recv {msg['method']} id={msg.get('id')}")
        else:
            log(f"recv response id={msg.get('id')} {json.dumps(msg)[:200]}")
        yield msg


PROTOCOL = ["2025-06-18"]  # --protocol


def initialize_result() -> dict[str, Any]:
    return {
        "protocolVersion": PROTOCOL[0],
        "capabilities": {"tools": {}, "logging": {}},
        "serverInfo": {"name": "misbehaving", "version": "0"},
    }


def send_early_requests() -> None:
    """Server requests before the handshake is done (only ping is allowed then)."""
    send({"jsonrpc": "2.0", "id": "early-1", "method": "roots/list"})
    hello = {"role": "user", "content": {"type": "text", "text": "hi"}}
    send(
        {
            "jsonrpc": "2.0",
            "id": "early-2",
            "method": "sampling/createMessage",
            "params": {"messages": [hello], "maxTokens": 5},
        }
    )


def serve(mode: str, args: argparse.Namespace) -> int:
    for msg in read_messages():
        method = msg.get("method")
        msg_id = msg.get("id")
        if "method" not in msg or "id" not in msg or mode == "mute":
            continue  # responses and notifications: logged above, nothing to do
        if method == "initialize":
            if mode == "garbage":
                write(b"Starting misbehaving server v0 (debug print)\n")
            if mode == "early-request":
                send_early_requests()
            result(msg_id, initialize_result())
        elif method == "ping":
            result(msg_id, {})
        elif method == "tools/list":
            if mode == "garbage":
                write(b"DEBUG: listing tools\n")
            if mode == "bad-utf8":
                write(b"\xff\xfe stray bytes \xc3\x28\n")
            if mode == "oversized":
                write(b"x" * args.size + b"\n")
            result(msg_id, {"tools": TOOLS})
        elif method == "tools/call":
            name = (msg.get("params") or {}).get("name")
            args.last_params = msg.get("params")
            call_tool(mode, args, msg_id, name)
        else:
            send(
                {
                    "jsonrpc": "2.0",
                    "id": msg_id,
                    "error": {"code": -32601, "message": f"Method not found: {method}"},
                }
            )
    log("stdin closed")
    if mode in ("stubborn", "deaf-to-eof"):
        log("ignoring stdin EOF; sleeping")
        while True:
            time.sleep(1)
    return 0


def call_tool(mode: str, args: argparse.Namespace, msg_id: Any, name: str | None) -> None:
    if name == "ok":
        text_result(msg_id, "ok")
    elif mode == "garbage":
        write(b"about to answer\n{not json either\n")
        text_result(msg_id, "answered after garbage")
        write(b"trailing garbage\n")
    elif mode == "bad-utf8" and name == "bad":
        head = b'{"jsonrpc":"2.0","id":' + json.dumps(msg_id).encode()
        write(head + b',"result":{"content":[{"type":"text","text":"caf\xe9"}]}}\n')
    elif mode == "oversized" and name == "big":
        head = b'{"jsonrpc":"2.0","id":' + json.dumps(msg_id).encode()
        write(head + b',"result":{"content":[{"type":"text","text":"')
        chunk = b"y" * 65536
        for _ in range(args.size // len(chunk)):
            OUT.write(chunk)
        write(b'"}]}}\n')
    elif mode == "crash":
        log("tool started")
        log("Traceback (most recent call last):")
        log("RuntimeError: simulated crash in the tool")
        sys.stdout.flush()
        os._exit(3)
    elif mode == "hang":
        log(f"not answering tools/call id={msg_id}")
    elif mode == "unknown-id":
        text_result(9999, "an answer to nothing")
        text_result(msg_id, "the real answer")
    elif mode == "duplicate":
        text_result(msg_id, "first answer")
        text_result(msg_id, "second answer")
    elif mode == "orphan-stdout":
        # The grandchild inherits stdin/stdout/stderr and outlives us.
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        log(f"child pid {child.pid} holds stdout; exiting 0")
        os._exit(0)
    elif mode == "flood":
        line = (
            b'{"jsonrpc":"2.0","method":"notifications/message",'
            b'"params":{"level":"info","data":"flood %d"}}\n'
        )
        for i in range(args.count):
            OUT.write(line % i)
        OUT.flush()
        text_result(msg_id, f"sent {args.count} notifications")
    elif mode == "close-stdout":
        log("closing stdout, staying alive")
        os.close(1)
    elif mode == "hostile" and name == "huge-progress":
        token = ((args.last_params or {}).get("_meta") or {}).get("progressToken", "none")
        huge = 10**400
        send(
            {
                "jsonrpc": "2.0",
                "method": "notifications/progress",
                "params": {"progressToken": token, "progress": huge, "total": huge},
            }
        )
        text_result(msg_id, "after huge progress")
    elif mode == "hostile" and name == "surrogate-ask":
        send({"jsonrpc": "2.0", "id": "\ud800", "method": "roots/list"})  # ASCII escape
        text_result(msg_id, "asked with a surrogate id")
    elif mode == "hostile" and name == "deep":
        deep = "[" * 990 + "]" * 990
        write(('{"jsonrpc":' + deep + ',"id":' + json.dumps(msg_id) + ',"result":{}}\n').encode())
    elif mode == "hostile" and name == "batch":
        note = {
            "jsonrpc": "2.0",
            "method": "notifications/message",
            "params": {"level": "info", "data": "in a batch"},
        }
        answer = {
            "jsonrpc": "2.0",
            "id": msg_id,
            "result": {"content": [{"type": "text", "text": "batched"}]},
        }
        write(json.dumps([note, answer]).encode() + b"\n")
    elif mode == "bad-request":
        send({"jsonrpc": "2.0", "id": msg_id, "method": "roots/list", "params": ["positional"]})
        text_result(msg_id, "the real answer")
    else:
        text_result(msg_id, f"{name} in mode {mode}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", required=True)
    parser.add_argument("--size", type=int, default=20 * 1024 * 1024)
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--protocol", default="2025-06-18", help="the version it answers")
    args = parser.parse_args()
    PROTOCOL[0] = args.protocol
    if args.mode == "exit-early":
        log("fatal: missing required environment variable API_KEY")
        return 1
    if args.mode == "stubborn":
        signal.signal(signal.SIGTERM, lambda *_: log("ignoring SIGTERM"))
    return serve(args.mode, args)


if __name__ == "__main__":
    sys.exit(main())
