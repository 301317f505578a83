"""A stdio MCP server (stdlib only, legacy handshake) whose tools' results break the
outputSchema they declare, listed over two pages of tools/list (a client must follow the
cursor to know them):

  page 1  "fine"      declares {"n": number}; its result keeps it
          "plain"     declares no outputSchema; its result is any structuredContent
  page 2  "weather"   declares {"temp": number} (required); its result sends "hot"
          "nostruct"  declares an outputSchema; its result has no structuredContent

Every request is logged to stderr as ``recv <method>``, so a test can see what was asked.
"""

from __future__ import annotations

import json
import sys
from typing import Any

_OBJECT = {"type": "object"}
PAGES: list[list[dict[str, Any]]] = [
    [
        {
            "name": "fine",
            "inputSchema": _OBJECT,
            "outputSchema": {"type": "object", "properties": {"n": {"type": "number"}}},
        },
        {"name": "plain", "inputSchema": _OBJECT},
    ],
    [
        {
            "name": "weather",
            "inputSchema": _OBJECT,
            "outputSchema": {
                "type": "object",
                "properties": {"temp": {"type": "number"}},
                "required": ["temp"],
            },
        },
        {"name": "nostruct", "inputSchema": _OBJECT, "outputSchema": {"type": "object"}},
    ],
]
STRUCTURED: dict[str, Any] = {"fine": {"n": 1}, "plain": {"x": "y"}, "weather": {"temp": "hot"}}


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def answer(method: str, params: dict[str, Any]) -> dict[str, Any]:
    if method == "initialize":
        return {
            "result": {
                "protocolVersion": params.get("protocolVersion") or "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "output-schema-breaker", "version": "1"},
            }
        }
    if method == "ping":
        return {"result": {}}
    if method == "tools/list":
        second = params.get("cursor") == "2"
        result: dict[str, Any] = {"tools": PAGES[1 if second else 0]}
        if not second:
            result["nextCursor"] = "2"
        return {"result": result}
    if method == "tools/call":
        name = params.get("name")
        if name not in STRUCTURED and name != "nostruct":
            return {"error": {"code": -32602, "message": f"unknown tool {name}"}}
        out: dict[str, Any] = {
            "content": [{"type": "text", "text": json.dumps(STRUCTURED.get(name))}]
        }
        if name in STRUCTURED:
            out["structuredContent"] = STRUCTURED[name]
        return {"result": out}
    return {"error": {"code": -32601, "message": f"no method {method}"}}


def main() -> int:
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if not isinstance(msg, dict) or "method" not in msg:
            continue
        sys.stderr.write(f"recv {msg['method']}\n")
        sys.stderr.flush()
        if "id" in msg:
            send(
                {
                    "jsonrpc": "2.0",
                    "id": msg["id"],
                    **answer(msg["method"], msg.get("params") or {}),
                }
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
