"""The tools' `x-mcp-header` specs of one session, shared by the client and the driver.

spec 2026-07-28 streamable HTTP: a tool argument marked `x-mcp-header` also travels as an
`Mcp-Param-*` header, and a tool whose annotations are invalid must be left out of
tools/list. The MCP client fills this registry when it lists tools; the driver reads it when
it builds a tools/call's headers. Tools left out stay visible in `excluded` with the reason.
"""

from __future__ import annotations

import logging
from typing import Any

from inspector.protocol.wire.http_headers import ToolHeaderSpec, parse_tool_headers

__all__ = ["ToolHeaderRegistry"]

log = logging.getLogger(__name__)


class ToolHeaderRegistry:
    def __init__(self) -> None:
        self._specs: dict[str, ToolHeaderSpec] = {}
        self.excluded: dict[str, str] = {}  # tool name -> why it was left out
        self.looked_up: set[str] = set()  # names a tools/list was sent for before a call

    def spec_for(self, name: str) -> ToolHeaderSpec | None:
        return self._specs.get(name)

    def clear(self) -> None:
        self._specs.clear()
        self.excluded.clear()

    def admit(self, tools: list[dict[str, Any]], *, fresh: bool) -> list[dict[str, Any]]:
        """Keep each valid tool's spec; note the invalid ones. Returns the tools kept."""
        kept: list[dict[str, Any]] = []
        if fresh:
            self.clear()
        for tool in tools:
            name = tool.get("name")
            spec = parse_tool_headers(tool.get("inputSchema"))
            if not isinstance(name, str):
                continue
            if spec.valid:
                self._specs[name] = spec
                self.excluded.pop(name, None)
                kept.append(tool)
            else:
                why = f"invalid x-mcp-header: {spec.describe_problems()}"
                self.excluded[name] = why
                self._specs.pop(name, None)
                log.warning("tool %r excluded: %s", name, why)
        return kept
