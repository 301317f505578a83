"""The tool definitions one session has seen: every tools/list result, whoever asked for it
(a list of every page, one page of the explorer, a replayed or composed request), the
latest definition of each name kept.

A client checks a tool's structuredContent against the outputSchema of its definition (as
the Python and TypeScript SDK clients do), so it must know the definition even when
nobody listed the tools: `McpClient.tool_definition` lists every page once for a name not
seen yet, and asks no more for a name the server does not list.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ToolDefinitions"]


class ToolDefinitions:
    def __init__(self) -> None:
        self._tools: dict[str, dict[str, Any]] = {}
        self.looked_up: set[str] = set()  # names a tools/list was sent for

    def learn(self, result: Any) -> None:
        """Keep each tool of a tools/list result (one page)."""
        tools = result.get("tools") if isinstance(result, dict) else None
        if not isinstance(tools, list):
            return
        for tool in tools:
            if isinstance(tool, dict) and isinstance(tool.get("name"), str):
                self._tools[tool["name"]] = tool

    def get(self, name: str) -> dict[str, Any] | None:
        return self._tools.get(name)
