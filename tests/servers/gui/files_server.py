"""A stdio MCP server with a destructive tool, for the Playground's approval tests: a tool
annotated destructive always asks the person, whatever the conversation's policy.

- list_files: read-only, answers three file names;
- delete_all: annotated destructive; answers "deleted everything" (nothing is deleted).
Minimal legacy handshake. Stdlib only.
"""

from __future__ import annotations

import json
import sys
from typing import Any

TOOLS: list[dict[str, Any]] = [
    {
        "name": "list_files",
        "description": "Lists the files.",
        "inputSchema": {"type": "object", "properties": {}},
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "delete_all",
        "description": "Deletes every file.",
        "inputSchema": {"type": "object", "properties": {}},
        "annotations": {"readOnlyHint": False, "destructiveHint": True},
    },
]


def call(name: str) -> dict[str, Any]:
    if name == "list_files":
        return {"content": [{"type": "text", "text": "a.txt, b.txt, c.txt"}]}
    if name == "delete_all":
        return {"content": [{"type": "text", "text": "deleted everything"}]}
    return {"content": [{"type": "text", "text": f"no tool {name}"}], "isError": True}


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
                "serverInfo": {"name": "files", "version": "1"},
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
