"""A stdio MCP server with long, paged lists, for the explorer (stdlib only).

Minimal legacy handshake. tools/list hands out --tools tools in pages of --page-size
(250 over 3 pages by default); resources/list 25 resources in pages of 10; one resource
template; prompts/list one prompt. Tool "tool-000" has a data: URI icon and annotations;
"markup" has HTML in its description (shown as text, never rendered). Every request is
logged to stderr as ``recv <method> cursor=<cursor>``.

Modes (--mode):
  normal         as above
  cursor-loop    the second tools/list page hands back the cursor of the first again
  endless        every tools/list page has a fresh cursor, forever (3 tools a page)
  bad-cursor     the first tools/list page has a numeric nextCursor
  prompts-error  prompts/list answers a JSON-RPC error; everything else works
  dies-paging    asked for the second tools/list page, says so on stderr and exits 4
  hangs-paging   never answers the second tools/list page (everything else works)
--description TEXT sets the description of "tool-001" (pinning tests change it).
"""

from __future__ import annotations

import argparse
import base64
import json
import struct
import sys
import zlib
from typing import Any

MARKUP = '<img src=x onerror="alert(1)"> and <b>bold</b>'


def png_1px(rgb: tuple[int, int, int]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"\x00" + bytes(rgb) * 16
    pixels = zlib.compress(raw * 16)
    head = struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0)
    body = chunk(b"IHDR", head) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + body


ICON = "data:image/png;base64," + base64.b64encode(png_1px((40, 120, 220))).decode()


def tools(count: int, description: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(count):
        tool: dict[str, Any] = {
            "name": f"tool-{i:03d}",
            "description": f"Tool number {i}.",
            "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}},
        }
        out.append(tool)
    if count:
        out[0]["title"] = "First tool"
        out[0]["icons"] = [
            {"src": ICON, "mimeType": "image/png"},
            {"src": "https://example.invalid/icon.png"},  # never fetched
        ]
        out[0]["annotations"] = {"readOnlyHint": True, "openWorldHint": False}
    if count > 1:
        out[1]["description"] = description
        out[1]["outputSchema"] = {"type": "object", "properties": {"r": {"type": "string"}}}
    if count > 2:
        out[2] = {
            "name": "markup",
            "title": "<b>Markup</b> title",
            "description": f"Description with {MARKUP}\nsecond line",
            "inputSchema": {"type": "object"},
            "annotations": {"destructiveHint": False, "idempotentHint": True},
        }
    return out


RESOURCES = [
    {
        "uri": f"test://res/{i}",
        "name": f"res-{i}",
        "mimeType": "text/plain",
        "size": 1000 * i,
        "annotations": {"audience": ["user"], "priority": 0.5},
    }
    for i in range(25)
]
TEMPLATES = [{"uriTemplate": "test://res/{id}", "name": "by id", "mimeType": "text/plain"}]
PROMPTS = [
    {
        "name": "greet",
        "description": "Say hello",
        "arguments": [{"name": "who", "required": True}, {"name": "tone"}],
    }
]


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def page(items: list[dict[str, Any]], cursor: Any, size: int, key: str) -> dict[str, Any]:
    start = int(cursor) if isinstance(cursor, str) and cursor.isdigit() else 0
    result: dict[str, Any] = {key: items[start : start + size]}
    if start + size < len(items):
        result["nextCursor"] = str(start + size)
    return result


def tools_page(args: argparse.Namespace, cursor: Any) -> dict[str, Any]:
    all_tools = tools(args.tools, args.description)
    if args.mode == "endless":
        n = int(cursor) if isinstance(cursor, str) and cursor.isdigit() else 0
        batch = [
            {"name": f"endless-{n * 3 + k}", "inputSchema": {"type": "object"}} for k in range(3)
        ]
        return {"tools": batch, "nextCursor": str(n + 1)}
    if args.mode == "dies-paging" and cursor is not None:
        sys.stderr.write("paging server: dying while listing tools\n")
        sys.stderr.flush()
        sys.exit(4)
    result = page(all_tools, cursor, args.page_size, "tools")
    if args.mode == "cursor-loop" and cursor is not None:
        result["nextCursor"] = str(args.page_size)  # the first page's cursor, again
    if args.mode == "bad-cursor" and cursor is None:
        result["nextCursor"] = 7
    return result


def parse_options(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="normal")
    parser.add_argument("--tools", type=int, default=250)
    parser.add_argument("--page-size", type=int, default=100)
    parser.add_argument("--description", default="Tool number 1.")
    return parser.parse_args(argv)


def answer(msg: dict[str, Any], args: argparse.Namespace) -> dict[str, Any] | None:
    """The answer to one message (None for a notification). Tests also run this in-process
    over a MemoryTransport, where the stdio process adds nothing to what they check."""
    method, msg_id = msg.get("method"), msg.get("id")
    params = msg.get("params") or {}
    cursor = params.get("cursor")
    if msg_id is None:
        return None
    result: dict[str, Any]
    if method == "initialize":
        result = {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {
                "tools": {"listChanged": True},
                "resources": {},
                "prompts": {},
            },
            "serverInfo": {"name": "paging-server", "version": "1"},
        }
    elif method == "tools/list":
        result = tools_page(args, cursor)
    elif method == "resources/list":
        result = page(RESOURCES, cursor, 10, "resources")
    elif method == "resources/templates/list":
        result = {"resourceTemplates": TEMPLATES}
    elif method == "prompts/list":
        if args.mode == "prompts-error":
            return {
                "jsonrpc": "2.0",
                "id": msg_id,
                "error": {"code": -32603, "message": "prompts are broken today"},
            }
        result = {"prompts": PROMPTS}
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": "ok"}]}
    else:
        result = {}
    return {"jsonrpc": "2.0", "id": msg_id, "result": result}


def received_line(msg: dict[str, Any]) -> str:
    """What the server logs to stderr for each message."""
    return f"recv {msg.get('method')} cursor={(msg.get('params') or {}).get('cursor')}"


def main() -> int:
    args = parse_options()
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        sys.stderr.write(received_line(msg) + "\n")
        sys.stderr.flush()
        params = msg.get("params") or {}
        if (
            args.mode == "hangs-paging"
            and msg.get("method") == "tools/list"
            and isinstance(params, dict)
            and params.get("cursor") is not None
        ):
            continue
        reply = answer(msg, args)
        if reply is not None:
            send(reply)
    return 0


if __name__ == "__main__":
    sys.exit(main())
