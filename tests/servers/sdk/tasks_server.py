"""A small modern-era (2026-07-28) stdio server offering the io.modelcontextprotocol/tasks
extension (SEP-2663), for the Tasks panel tests. Standard library only.

- server/discover advertises `capabilities.extensions["io.modelcontextprotocol/tasks"]`.
- tools/call returns a CreateTaskResult (`resultType: "task"`) only when the request
  declared the extension in its `_meta` client capabilities; otherwise it answers at once.
- `slow_task(seconds)`: working, then completed with the result inline in tasks/get.
- `confirm_task`: working, then input_required with an elicitation in `inputRequests`;
  after tasks/update with the answer it completes, quoting it.
- `failing_task`: fails with a JSON-RPC error inline.
- tasks/cancel acknowledges and cancels; an unknown task id is error -32602.
"""

from __future__ import annotations

import itertools
import json
import sys
import time
from datetime import UTC, datetime
from typing import Any

VERSION = "2026-07-28"
EXT = "io.modelcontextprotocol/tasks"
META_CAPS = "io.modelcontextprotocol/clientCapabilities"
POLL_MS = 100

TOOLS = [
    {
        "name": "slow_task",
        "description": "Finishes after a while (as a task when the client allows it).",
        "inputSchema": {"type": "object", "properties": {"seconds": {"type": "number"}}},
    },
    {
        "name": "confirm_task",
        "description": "Needs the user's confirmation mid-way (input_required).",
        "inputSchema": {"type": "object", "properties": {}},
    },
    {
        "name": "failing_task",
        "description": "Fails with a JSON-RPC error.",
        "inputSchema": {"type": "object", "properties": {}},
    },
]


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class Task:
    def __init__(self, task_id: str, tool: str, args: dict[str, Any]) -> None:
        self.task_id = task_id
        self.tool = tool
        self.args = args
        self.started = time.monotonic()
        self.created = now_iso()
        self.updated = self.created
        self.cancelled = False
        self.answer: dict[str, Any] | None = None

    def view(self) -> dict[str, Any]:
        base: dict[str, Any] = {
            "taskId": self.task_id,
            "createdAt": self.created,
            "lastUpdatedAt": now_iso(),
            "ttlMs": 60_000,
            "pollIntervalMs": POLL_MS,
        }
        elapsed = time.monotonic() - self.started
        if self.cancelled:
            return {**base, "status": "cancelled", "statusMessage": "cancelled by the client"}
        if self.tool == "slow_task":
            if elapsed < float(self.args.get("seconds", 0.3)):
                return {**base, "status": "working", "statusMessage": f"{elapsed:.1f} s in"}
            return {**base, "status": "completed", "result": run_tool("slow_task", self.args)}
        if self.tool == "failing_task":
            if elapsed < 0.2:
                return {**base, "status": "working"}
            return {
                **base,
                "status": "failed",
                "error": {"code": -32603, "message": "the task broke on purpose"},
            }
        # confirm_task
        if elapsed < 0.2:
            return {**base, "status": "working", "statusMessage": "preparing"}
        if self.answer is None:
            return {
                **base,
                "status": "input_required",
                "statusMessage": "waiting for the user",
                "inputRequests": {
                    "confirm": {
                        "method": "elicitation/create",
                        "params": {
                            "mode": "form",
                            "message": "Go ahead with the task?",
                            "requestedSchema": {
                                "type": "object",
                                "properties": {"ok": {"type": "boolean", "title": "Go ahead"}},
                                "required": ["ok"],
                            },
                        },
                    }
                },
            }
        text = f"confirmed: {json.dumps(self.answer, sort_keys=True)}"
        return {
            **base,
            "status": "completed",
            "result": {"content": [{"type": "text", "text": text}], "isError": False},
        }


def run_tool(name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": f"{name} done"}], "isError": False}


class Server:
    def __init__(self) -> None:
        self.tasks: dict[str, Task] = {}
        self.ids = itertools.count(1)

    def send(self, message: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    def handle(self, msg: dict[str, Any]) -> None:
        if "method" not in msg or "id" not in msg:
            return  # notifications and responses: nothing to do
        method = msg["method"]
        params = msg.get("params") or {}
        try:
            result = self.dispatch(method, params)
        except LookupError as exc:
            self.send(
                {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32602, "message": str(exc)}}
            )
            return
        if result is None:
            self.send(
                {
                    "jsonrpc": "2.0",
                    "id": msg["id"],
                    "error": {"code": -32601, "message": f"Method not found: {method}"},
                }
            )
            return
        result.setdefault("resultType", "complete")
        self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})

    def dispatch(self, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        if method == "server/discover":
            return {
                "supportedVersions": [VERSION],
                "capabilities": {"tools": {}, "extensions": {EXT: {}}},
                "serverInfo": {"name": "tasks-peer", "version": "1.0"},
            }
        if method == "tools/list":
            return {"tools": TOOLS}
        if method == "tools/call":
            name = params.get("name")
            args = params.get("arguments") or {}
            caps = (params.get("_meta") or {}).get(META_CAPS) or {}
            declared = EXT in (caps.get("extensions") or {})
            if not declared:
                return run_tool(str(name), args)
            task = Task(f"task-{next(self.ids)}", str(name), args)
            self.tasks[task.task_id] = task
            view = task.view()
            view["status"] = "working"
            for key in ("result", "error", "inputRequests"):
                view.pop(key, None)
            return {"resultType": "task", **view}
        if method in ("tasks/get", "tasks/update", "tasks/cancel"):
            task = self.tasks.get(str(params.get("taskId")))
            if task is None:
                raise LookupError(f"unknown task {params.get('taskId')!r}")
            if method == "tasks/get":
                return task.view()
            if method == "tasks/update":
                responses = params.get("inputResponses") or {}
                if "confirm" in responses:
                    task.answer = responses["confirm"]
                return {}
            task.cancelled = True
            return {}
        return None


def main() -> None:
    server = Server()
    for line in sys.stdin:
        line = line.strip()
        if line:
            try:
                server.handle(json.loads(line))
            except ValueError:
                continue


if __name__ == "__main__":
    main()
