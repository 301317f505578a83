"""A legacy stdio server whose requests to the client are malformed or hostile, for the
ask dialogs' bad-input tests. Standard library only.

Each tool sends one server request and returns what the client answered:
- `bad_sampling`: sampling/createMessage with messages that are not messages, a string
  maxTokens and priorities out of range.
- `html_elicitation`: an elicitation whose message and field titles are HTML.
- `odd_schema`: requestedSchema with a nested object and a non-object property.
- `js_url`: a URL-mode elicitation with a javascript: URL.
- `withdrawn`: an elicitation the server cancels itself (notifications/cancelled) after
  0.3 s, then answers the tool call.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any

LOCK = threading.Lock()
PENDING: dict[str, threading.Event] = {}
ANSWERS: dict[str, Any] = {}

ASKS: dict[str, tuple[str, dict[str, Any]]] = {
    "bad_sampling": (
        "sampling/createMessage",
        {
            "messages": ["not a message", {"role": "robot", "content": 42}],
            "maxTokens": "lots",
            "modelPreferences": {"costPriority": 7, "hints": "claude"},
        },
    ),
    "html_elicitation": (
        "elicitation/create",
        {
            "message": "<h1>Click</h1><img src=x onerror=alert(1)> <a href='file:///'>here</a>",
            "requestedSchema": {
                "type": "object",
                "properties": {"who": {"type": "string", "title": "<b>Name</b>"}},
            },
        },
    ),
    "odd_schema": (
        "elicitation/create",
        {
            "message": "odd",
            "requestedSchema": {
                "type": "object",
                "properties": {
                    "nested": {"type": "object", "properties": {"a": {"type": "string"}}},
                    "weird": 5,
                    "fine": {"type": "string"},
                },
                "required": ["ghost"],
            },
        },
    ),
    "js_url": (
        "elicitation/create",
        {
            "mode": "url",
            "message": "Open this",
            "url": "javascript:alert(document.cookie)",
            "elicitationId": "e1",
        },
    ),
    "withdrawn": (
        "elicitation/create",
        {
            "message": "This request will be withdrawn by the server.",
            "requestedSchema": {"type": "object", "properties": {}},
        },
    ),
}


def send(message: dict[str, Any]) -> None:
    with LOCK:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def run_tool(call_id: Any, name: str) -> None:
    method, params = ASKS[name]
    ask_id = f"ask-{call_id}"
    event = threading.Event()
    PENDING[ask_id] = event
    send({"jsonrpc": "2.0", "id": ask_id, "method": method, "params": params})
    if name == "withdrawn":
        time.sleep(0.3)
        send(
            {
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": ask_id, "reason": "the server changed its mind"},
            }
        )
        text = "withdrawn"
    else:
        event.wait(60)
        text = json.dumps(ANSWERS.get(ask_id))
    result = {"content": [{"type": "text", "text": text}]}
    send({"jsonrpc": "2.0", "id": call_id, "result": result})


def handle(msg: dict[str, Any]) -> None:
    method = msg.get("method")
    if method is None:  # an answer to one of our requests
        key = str(msg.get("id"))
        ANSWERS[key] = msg.get("result", msg.get("error"))
        event = PENDING.pop(key, None)
        if event is not None:
            event.set()
        return
    if "id" not in msg:
        return
    if method == "initialize":
        result: dict[str, Any] = {
            "protocolVersion": msg["params"].get("protocolVersion", "2025-11-25"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "bad-asks", "version": "1"},
        }
    elif method == "tools/list":
        tools = [{"name": n, "inputSchema": {"type": "object"}} for n in ASKS]
        result = {"tools": tools}
    elif method == "tools/call":
        name = msg["params"]["name"]
        threading.Thread(target=run_tool, args=(msg["id"], name), daemon=True).start()
        return
    else:
        result = {}
    send({"jsonrpc": "2.0", "id": msg["id"], "result": result})


def main() -> None:
    for line in sys.stdin:
        if line.strip():
            handle(json.loads(line))


if __name__ == "__main__":
    main()
