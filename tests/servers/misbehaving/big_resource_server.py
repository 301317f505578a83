"""A stdio MCP server (legacy, stdlib only) whose resources are huge or malformed.

Resources (sizes are of the text or of the decoded blob):
  big://text-15mb     15 MB of text in 100-character lines
  big://text-20mb     20 MB of text (over a 16 MiB profile limit; under the 64 MiB default)
  big://oneline-8mb   8 MB of text on a single line
  big://blob-10mb     10 MB of binary data (base64: ~13.3 MB)
  big://bad-blob      a blob that is not base64
  big://weird         contents with shape problems (no text or blob, a non-object, ...)
  big://two-parts     a text part and a PNG blob part

Every answer is built once, on first use, and sent as one line.
"""

from __future__ import annotations

import base64
import json
import sys
import zlib
from typing import Any

OUT = sys.stdout.buffer
MB = 1_000_000


def _text(size: int, line: int = 100) -> str:
    row = ("The quick brown fox jumps over the lazy dog. " * 3)[: line - 1] + "\n"
    full, rest = divmod(size, len(row))
    return row * full + row[:rest]


def _png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    rows = b"".join(b"\x00" + bytes([x * 16, 128, 255 - x * 16]) * 16 for x in range(16))
    header = (16).to_bytes(4, "big") * 2 + b"\x08\x02\x00\x00\x00"
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def _contents(uri: str) -> list[Any] | None:
    if uri == "big://text-15mb":
        return [{"uri": uri, "mimeType": "text/plain", "text": _text(15 * MB)}]
    if uri == "big://text-20mb":
        return [{"uri": uri, "mimeType": "text/plain", "text": _text(20 * MB)}]
    if uri == "big://oneline-8mb":
        return [{"uri": uri, "mimeType": "text/plain", "text": "x" * (8 * MB)}]
    if uri == "big://blob-10mb":
        data = bytes(range(256)) * (10 * MB // 256)
        blob = base64.b64encode(data).decode("ascii")
        return [{"uri": uri, "mimeType": "application/octet-stream", "blob": blob}]
    if uri == "big://bad-blob":
        return [{"uri": uri, "mimeType": "image/png", "blob": "iVBORw0K***not base64***"}]
    if uri == "big://weird":
        return [{"uri": uri}, "a string", {"uri": uri, "text": "fine", "blob": "AAAA"}]
    if uri == "big://two-parts":
        png = base64.b64encode(_png()).decode("ascii")
        return [
            {"uri": uri + "#readme", "mimeType": "text/markdown", "text": "# Two parts\n"},
            {"uri": uri + "#logo", "mimeType": "image/png", "blob": png},
        ]
    return None


RESOURCES = [
    "big://text-15mb",
    "big://text-20mb",
    "big://oneline-8mb",
    "big://blob-10mb",
    "big://bad-blob",
    "big://weird",
    "big://two-parts",
]


def send(message: dict[str, Any]) -> None:
    OUT.write(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")
    OUT.flush()


def main() -> int:
    cache: dict[str, bytes] = {}
    for raw in sys.stdin.buffer:
        try:
            msg = json.loads(raw)
        except ValueError:
            continue
        method, rid = msg.get("method"), msg.get("id")
        if rid is None:
            continue
        params = msg.get("params") or {}
        if method == "initialize":
            send(
                {
                    "jsonrpc": "2.0",
                    "id": rid,
                    "result": {
                        "protocolVersion": params.get("protocolVersion", "2025-06-18"),
                        "capabilities": {"resources": {}},
                        "serverInfo": {"name": "big-resources", "version": "1"},
                    },
                }
            )
        elif method == "resources/list":
            listed = [{"uri": u, "name": u.split("//")[1]} for u in RESOURCES]
            send({"jsonrpc": "2.0", "id": rid, "result": {"resources": listed}})
        elif method == "resources/read":
            uri = str(params.get("uri"))
            if uri not in cache:
                contents = _contents(uri)
                if contents is None:
                    error = {"code": -32002, "message": f"Resource not found: {uri}"}
                    send({"jsonrpc": "2.0", "id": rid, "error": error})
                    continue
                body = json.dumps({"contents": contents}, separators=(",", ":"))
                cache[uri] = body.encode("utf-8")
            head = f'{{"jsonrpc":"2.0","id":{json.dumps(rid)},"result":'.encode()
            OUT.write(head + cache[uri] + b"}\n")
            OUT.flush()
        elif method == "ping":
            send({"jsonrpc": "2.0", "id": rid, "result": {}})
        else:
            error = {"code": -32601, "message": f"Method not found: {method}"}
            send({"jsonrpc": "2.0", "id": rid, "error": error})
    return 0


if __name__ == "__main__":
    sys.exit(main())
