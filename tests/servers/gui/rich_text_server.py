"""A stdio MCP server whose every text is HTML, to prove the GUI shows it as plain text.

Minimal legacy handshake; tools/list returns one tool with markup in its title and
description; stderr gets markup too. Stdlib only.
"""

from __future__ import annotations

import json
import sys
from typing import Any

MARKUP = '<img src=x onerror="alert(1)"> and <b>bold</b> <a href="http://evil">link</a>'


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> int:
    sys.stderr.write("<b>stderr markup</b> <img src=x>\n")
    sys.stderr.flush()
    for line in sys.stdin:
        msg = json.loads(line)
        method, msg_id = msg.get("method"), msg.get("id")
        if msg_id is None:
            continue
        if method == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "<b>html-server</b>", "version": "<i>1</i>"},
                "instructions": f"Instructions with {MARKUP}",
            }
        elif method == "tools/list":
            result = {
                "tools": [
                    {
                        "name": "<b>markup</b>",
                        "description": f"A tool whose description has {MARKUP}",
                        "inputSchema": {"type": "object"},
                    }
                ]
            }
        else:
            result = {}
        send({"jsonrpc": "2.0", "id": msg_id, "result": result})
    return 0


if __name__ == "__main__":
    sys.exit(main())
