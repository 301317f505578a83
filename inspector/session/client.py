"""The MCP methods as session calls: every page of a list, tools/call, resources/read,
prompts/get, completion/complete, ping, the log level, subscriptions.

A mixin of `Session`: these turn a method and its parameters into `request` /
`start_request` calls and know each era's spelling (logging/setLevel or the per-request
level, resources/subscribe or subscriptions/listen), so the driver in session.py only moves
messages. Over modern HTTP, tools whose x-mcp-header annotations are invalid are left out
of tools/list, as the spec requires, and kept in `excluded_tools` with why.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Literal

from inspector.protocol.connection import ClientConnection
from inspector.protocol.events import ProgressUpdate
from inspector.protocol.http_headers import ToolHeaderSpec, parse_tool_headers
from inspector.protocol.pagination import Paginator
from inspector.protocol.versions import Era
from inspector.transports.base import Transport

if TYPE_CHECKING:
    from collections.abc import Callable

    from inspector.session.driver import Call

__all__ = ["McpMethods"]

log = logging.getLogger(__name__)


class McpMethods:
    # Provided by Session.
    conn: ClientConnection
    transport: Transport
    max_pages: int
    excluded_tools: dict[str, str]
    _tool_headers: dict[str, ToolHeaderSpec]

    @property
    def era(self) -> Era:
        return self.conn.era

    def start_request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        timeout: float | Literal["default"] | None = "default",
        max_total: float | Literal["default"] | None = "default",
        on_progress: Callable[[ProgressUpdate], None] | None = None,
        override: bool = False,
    ) -> Call:
        raise NotImplementedError

    async def request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        timeout: float | Literal["default"] | None = "default",
        on_progress: Callable[[ProgressUpdate], None] | None = None,
        override: bool = False,
    ) -> dict[str, Any]:
        raise NotImplementedError

    async def list_all(
        self, method: str, items_key: str, params: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """Every page of a list method (follows nextCursor; stops on loops)."""
        pager = Paginator(method, items_key, max_pages=self.max_pages)
        while (page_params := pager.next_params()) is not None:
            merged = dict(params or {})
            merged.update(page_params)
            pager.add_page(await self.request(method, merged or None))
        return [item for item in pager.items if isinstance(item, dict)]

    async def list_tools(self) -> list[dict[str, Any]]:
        """All tools. Over modern HTTP, tools whose x-mcp-header annotations are invalid are
        left out, as the spec requires; they stay visible in `excluded_tools` with why."""
        tools = await self.list_all("tools/list", "tools")
        if not self._mirrors_headers():
            return tools
        return self._admit_tools(tools, fresh=True)

    async def list_tools_page(self, cursor: str | None = None) -> dict[str, Any]:
        """One page of tools/list, as the server sent it (the explorer's "load more").

        Over modern HTTP, each tool's x-mcp-header spec is kept for calls, and tools whose
        annotations are invalid are noted in `excluded_tools` (they stay in the result, so
        the caller can show them flagged). The first page (no cursor) starts afresh."""
        result = await self.request("tools/list", {"cursor": cursor} if cursor else None)
        if cursor is None:
            self._tool_headers.clear()
            self.excluded_tools.clear()
        tools = result.get("tools")
        if self._mirrors_headers() and isinstance(tools, list):
            self._admit_tools([t for t in tools if isinstance(t, dict)], fresh=False)
        return result

    @property
    def mirrors_tool_headers(self) -> bool:
        """Whether tool arguments marked x-mcp-header go out as Mcp-Param-* headers."""
        return self._mirrors_headers()

    def _admit_tools(self, tools: list[dict[str, Any]], *, fresh: bool) -> list[dict[str, Any]]:
        kept: list[dict[str, Any]] = []
        if fresh:
            self._tool_headers.clear()
            self.excluded_tools.clear()
        for tool in tools:
            name = tool.get("name")
            spec = parse_tool_headers(tool.get("inputSchema"))
            if not isinstance(name, str):
                continue
            if spec.valid:
                self._tool_headers[name] = spec
                self.excluded_tools.pop(name, None)
                kept.append(tool)
            else:
                why = f"invalid x-mcp-header: {spec.describe_problems()}"
                self.excluded_tools[name] = why
                self._tool_headers.pop(name, None)
                log.warning("tool %r excluded: %s", name, why)
        return kept

    def _mirrors_headers(self) -> bool:
        """spec 2026-07-28: x-mcp-header matters on streamable HTTP only."""
        return self.era is Era.MODERN and self.transport.kind == "http"

    async def list_resources(self) -> list[dict[str, Any]]:
        return await self.list_all("resources/list", "resources")

    async def list_resource_templates(self) -> list[dict[str, Any]]:
        return await self.list_all("resources/templates/list", "resourceTemplates")

    async def list_prompts(self) -> list[dict[str, Any]]:
        return await self.list_all("prompts/list", "prompts")

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        on_progress: Callable[[ProgressUpdate], None] | None = None,
        timeout: float | Literal["default"] | None = "default",
    ) -> dict[str, Any]:
        params: dict[str, Any] = {"name": name, "arguments": arguments or {}}
        return await self.request("tools/call", params, on_progress=on_progress, timeout=timeout)

    async def read_resource(self, uri: str) -> dict[str, Any]:
        return await self.request("resources/read", {"uri": uri})

    async def get_prompt(
        self, name: str, arguments: dict[str, str] | None = None
    ) -> dict[str, Any]:
        params: dict[str, Any] = {"name": name}
        if arguments:
            params["arguments"] = arguments
        return await self.request("prompts/get", params)

    async def complete(
        self,
        ref: dict[str, Any],
        argument_name: str,
        value: str,
        context_arguments: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        params: dict[str, Any] = {"ref": ref, "argument": {"name": argument_name, "value": value}}
        if context_arguments:
            params["context"] = {"arguments": context_arguments}
        return await self.request("completion/complete", params)

    async def ping(self) -> dict[str, Any]:
        return await self.request("ping", override=self.era is Era.MODERN)

    async def set_log_level(self, level: str) -> dict[str, Any]:
        """Legacy: logging/setLevel. Modern: the level rides in every request's _meta."""
        if self.era is Era.MODERN:
            self.conn.config.log_level = level
            return {}
        return await self.request("logging/setLevel", {"level": level})

    def subscribe(self, uri: str) -> Call:
        """Watch a resource. Legacy: resources/subscribe. Modern: a subscriptions/listen stream
        (a long-lived call: cancel it to stop)."""
        if self.era is Era.MODERN:
            return self.listen({"resourceSubscriptions": [uri]})
        return self.start_request("resources/subscribe", {"uri": uri})

    def listen(self, notifications: dict[str, Any]) -> Call:
        """Modern: open a subscriptions/listen stream with this filter."""
        return self.start_request(
            "subscriptions/listen",
            {"notifications": notifications},
            timeout=None,
            max_total=None,
        )
