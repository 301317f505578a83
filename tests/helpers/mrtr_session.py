"""A modern-era session file with multi-round-trip operations (MRTR), written by hand.

- `tools/call ask_user`, three rounds: answered `input_required` (requestState `st-1`), the
  retry echoes it and is answered `input_required` again (`st-2`), the last retry gets the
  final answer. An unrelated `tools/call echo` runs between the first two rounds.
  Times: 1.0 -> 7.5 s in all, server 1.5 s (three rounds of 0.5 s), user 5.0 s (4.0 + 1.0).
- `tools/call ask_llm`, two rounds without requestState (the retry carries inputResponses
  and the same arguments): 8.0 -> 9.5 s, server 0.5 s, user 1.0 s.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["MRTR_FRAMES", "WALL0", "write_mrtr_session"]

WALL0 = 1_796_000_000.0
_META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}
_ELICIT = {
    "method": "elicitation/create",
    "params": {"message": "Who?", "requestedSchema": {"type": "object", "properties": {}}},
}
_SAMPLE = {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}}


def _call(rid: int, name: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    params: dict[str, Any] = {"name": name, "arguments": {"message": "Who?"}, "_meta": _META}
    params.update(extra or {})
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params}


def _answer(rid: int, result: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def _asks(state: str | None, **asks: Any) -> dict[str, Any]:
    result: dict[str, Any] = {"resultType": "input_required", "inputRequests": asks}
    if state is not None:
        result["requestState"] = state
    return result


def _final(text: str) -> dict[str, Any]:
    return {"resultType": "complete", "content": [{"type": "text", "text": text}]}


_ACCEPT = {"user": {"action": "accept", "content": {"name": "Ada"}}}

MRTR_FRAMES: list[tuple[float, str, dict[str, Any]]] = [
    (1.0, "out", _call(1, "ask_user")),
    (1.5, "in", _answer(1, _asks("st-1", user=_ELICIT))),
    (2.0, "out", _call(2, "echo")),
    (2.25, "in", _answer(2, _final("echo"))),
    (5.5, "out", _call(3, "ask_user", {"inputResponses": _ACCEPT, "requestState": "st-1"})),
    (6.0, "in", _answer(3, _asks("st-2", user=_ELICIT))),
    (7.0, "out", _call(4, "ask_user", {"inputResponses": _ACCEPT, "requestState": "st-2"})),
    (7.5, "in", _answer(4, _final("Hello, Ada"))),
    (8.0, "out", _call(5, "ask_llm")),
    (8.25, "in", _answer(5, _asks(None, llm=_SAMPLE))),
    (9.25, "out", _call(6, "ask_llm", {"inputResponses": {"llm": {"role": "assistant"}}})),
    (9.5, "in", _answer(6, _final("sampled"))),
]


def write_mrtr_session(path: Path) -> Path:
    header = {
        "type": "header",
        "format": "mcp-inspector-session",
        "version": 1,
        "created": "2026-12-01T00:00:00.000+00:00",
        "connection": {"transport": "stdio", "name": "MRTR", "command": "x", "args": []},
        "era": "modern",
        "protocol_version": "2026-07-28",
    }
    lines: list[dict[str, Any]] = [header]
    for t, direction, message in MRTR_FRAMES:
        kind = "request" if "method" in message else "response"
        lines.append(
            {
                "type": "frame",
                "t": t,
                "wall": WALL0 + t,
                "transport": "stdio",
                "dir": direction,
                "kind": kind,
                "text": json.dumps(message),
            }
        )
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path
