"""A stdio MCP server with tools whose schemas and results are odd, for the tool Call view.

- bad_schema: an inputSchema that is not valid JSON Schema ("type": "strin");
- remote_ref: an inputSchema with a network $ref (which must never be fetched);
- mismatch: structuredContent that breaks its outputSchema and differs from its text JSON;
- odd_content: HTML and markdown text, a broken image, an unknown content type, a
  resource link and an embedded blob;
- no_content: a result without `content`;
- huge: about 8 MB of text.
Minimal legacy handshake. Stdlib only.
"""

from __future__ import annotations

import json
import sys
from typing import Any

TOOLS: list[dict[str, Any]] = [
    {
        "name": "bad_schema",
        "description": "Its inputSchema is not valid JSON Schema.",
        "inputSchema": {"type": "object", "properties": {"x": {"type": "strin"}}},
    },
    {
        "name": "remote_ref",
        "description": "Its inputSchema points at the network.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "thing": {"$ref": "http://127.0.0.1:9/never.json"},
                "name": {"type": "string"},
            },
        },
    },
    {
        "name": "mismatch",
        "description": "structuredContent breaks the outputSchema.",
        "inputSchema": {"type": "object"},
        "outputSchema": {
            "type": "object",
            "properties": {"count": {"type": "integer"}, "items": {"type": "array"}},
            "required": ["count", "items"],
        },
    },
    {
        "name": "odd_content",
        "description": "Every kind of block.",
        "inputSchema": {"type": "object"},
    },
    {"name": "no_content", "description": "No content at all.", "inputSchema": {"type": "object"}},
    {"name": "huge", "description": "About 8 MB of text.", "inputSchema": {"type": "object"}},
]


def call(name: str) -> dict[str, Any]:
    if name == "mismatch":
        return {
            "content": [{"type": "text", "text": json.dumps({"count": 2, "items": []})}],
            "structuredContent": {"count": "two"},
        }
    if name == "odd_content":
        return {
            "content": [
                {"type": "text", "text": "<b>not bold</b> <script>alert(1)</script> **bold**"},
                {"type": "image", "mimeType": "image/png", "data": "!!not base64!!"},
                {"type": "hologram", "depth": 3},
                {"type": "resource_link", "uri": "odd://doc", "name": "doc"},
                {"type": "resource", "resource": {"uri": "odd://bin", "blob": "AAECAw=="}},
            ]
        }
    if name == "no_content":
        return {"isError": False}
    if name == "huge":
        line = "all work and no play makes a very long tool result indeed\n"
        return {"content": [{"type": "text", "text": line * (8_000_000 // len(line))}]}
    return {"content": [{"type": "text", "text": f"{name} called"}]}


def main() -> int:
    for line in sys.stdin:
        msg = json.loads(line)
        method, msg_id = msg.get("method"), msg.get("id")
        if msg_id is None:
            continue
        if method == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "odd-tools", "version": "1"},
            }
        elif method == "tools/list":
            result = {"tools": TOOLS}
        elif method == "tools/call":
            result = call(str(msg.get("params", {}).get("name")))
        else:
            result = {}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result}) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
