"""The MCP client API: every MCP method as a call on a session, in both eras.

`McpClient` is composed over the driver (`Session.client`); it turns a method and its
parameters into requests on a `RequestChannel` and knows each era's spelling
(logging/setLevel or the per-request level, resources/subscribe or subscriptions/listen).
The driver only moves messages. Each method has a `start_*` form that returns the `Call`
at once (for progress and cancel) and an awaitable form that returns the result.

Widgets and commands reach these through `ServerConnection` (inspector/core/
server_connection.py) and never build JSON-RPC params themselves. A new kind of request gets
its method there; it gets one here too when the two eras spell it differently.
"""

from __future__ import annotations

from typing import Any, TypedDict

from typing_extensions import Unpack

from inspector.protocol.wire.pagination import Paginator
from inspector.protocol.wire.versions import Era
from inspector.session.call import Call, ProgressCallback, RequestChannel, Timeout
from inspector.session.tool_definitions import ToolDefinitions
from inspector.session.tool_headers import ToolHeaderRegistry

__all__ = ["CallOptions", "McpClient", "tool_call_params"]


def tool_call_params(
    name: str | None, arguments: dict[str, Any] | None = None, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The params of a tools/call (the one place they are spelled): `extra` adds top-level
    params (e.g. `task`, to run the call as a task)."""
    params: dict[str, Any] = {"name": name, "arguments": arguments or {}}
    if extra:
        params.update(extra)
    return params


class CallOptions(TypedDict, total=False):
    """How a tools/call is sent: progress, its timeout, past the capability check."""

    on_progress: ProgressCallback | None
    timeout: Timeout
    override: bool


class McpClient:
    def __init__(
        self,
        channel: RequestChannel,
        tool_headers: ToolHeaderRegistry,
        tool_definitions: ToolDefinitions | None = None,
    ) -> None:
        self._channel = channel
        self._tool_headers = tool_headers
        # Filled by the driver from every tools/list result (a channel without one: here).
        self._definitions = tool_definitions or ToolDefinitions()

    @property
    def era(self) -> Era:
        return self._channel.era

    @property
    def excluded_tools(self) -> dict[str, str]:
        """Tools left out of tools/list (modern HTTP, invalid x-mcp-header), with why."""
        return self._tool_headers.excluded

    @property
    def mirrors_tool_headers(self) -> bool:
        """Whether tool arguments marked x-mcp-header go out as Mcp-Param-* headers
        (spec 2026-07-28: on streamable HTTP only)."""
        return self.era is Era.MODERN and self._channel.transport_kind == "http"

    async def _request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        timeout: Timeout = "default",
        on_progress: ProgressCallback | None = None,
        override: bool = False,
    ) -> dict[str, Any]:
        call = self._channel.start_request(
            method, params, timeout=timeout, on_progress=on_progress, override=override
        )
        return await call.result()

    # ------------------------------------------------------------------ lists
    async def list_all(
        self,
        method: str,
        items_key: str,
        params: dict[str, Any] | None = None,
        *,
        override: bool = False,
    ) -> list[dict[str, Any]]:
        """Every page of a list method (follows nextCursor; stops on loops). `override`:
        send it though no protocol version lists it (an extension's method)."""
        pager = Paginator(method, items_key, max_pages=self._channel.max_pages)
        while (page_params := pager.next_params()) is not None:
            merged = dict(params or {})
            merged.update(page_params)
            pager.add_page(await self._request(method, merged or None, override=override))
        return [item for item in pager.items if isinstance(item, dict)]

    async def list_tools(self) -> list[dict[str, Any]]:
        """All tools. Over modern HTTP, tools whose x-mcp-header annotations are invalid are
        left out, as the spec requires; they stay visible in `excluded_tools` with why."""
        tools = await self.list_all("tools/list", "tools")
        if not self.mirrors_tool_headers:
            return tools
        return self._tool_headers.admit(tools, fresh=True)

    async def list_tools_page(self, cursor: str | None = None) -> dict[str, Any]:
        """One page of tools/list, as the server sent it (the explorer's "load more").

        Over modern HTTP, each tool's x-mcp-header spec is kept for calls, and tools whose
        annotations are invalid are noted in `excluded_tools` (they stay in the result, so
        the caller can show them flagged). The first page (no cursor) starts afresh."""
        result = await self._request("tools/list", {"cursor": cursor} if cursor else None)
        if cursor is None:
            self._tool_headers.clear()
        tools = result.get("tools")
        if self.mirrors_tool_headers and isinstance(tools, list):
            self._tool_headers.admit([t for t in tools if isinstance(t, dict)], fresh=False)
        return result

    async def list_resources(self) -> list[dict[str, Any]]:
        return await self.list_all("resources/list", "resources")

    async def list_resource_templates(self) -> list[dict[str, Any]]:
        return await self.list_all("resources/templates/list", "resourceTemplates")

    async def list_prompts(self) -> list[dict[str, Any]]:
        return await self.list_all("prompts/list", "prompts")

    # ------------------------------------------------------------------ tools
    def start_tool_call(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        on_progress: ProgressCallback | None = None,
        timeout: Timeout = "default",
        override: bool = False,
        extra: dict[str, Any] | None = None,
    ) -> Call:
        """tools/call as a Call. `extra` adds top-level params (e.g. `task` to run the call
        as a task)."""
        return self._channel.start_request(
            "tools/call",
            tool_call_params(name, arguments, extra),
            on_progress=on_progress,
            timeout=timeout,
            override=override,
        )

    async def call_tool(
        self, name: str, arguments: dict[str, Any] | None = None, **options: Unpack[CallOptions]
    ) -> dict[str, Any]:
        await self.learn_tool(name)
        return await self.start_tool_call(name, arguments, **options).result()

    async def learn_tool(self, name: str) -> None:
        """Modern HTTP: before a tools/call, make sure the tool's definition is known, so
        its x-mcp-header arguments go out as Mcp-Param-* headers (a correct server rejects
        the call with -32020 without them). Lists every page once per unknown name."""
        headers = self._tool_headers
        if not self.mirrors_tool_headers or headers.spec_for(name) is not None:
            return
        if name in headers.excluded or name in headers.looked_up:
            return
        headers.looked_up.add(name)
        await self.list_tools()

    async def tool_definition(self, name: str) -> dict[str, Any] | None:
        """The tool's definition as the server last listed it in this session; if no
        tools/list named it yet, every page is listed first (once per name: a tool the
        server does not list is None). A failed listing raises as the request does."""
        known = self._definitions.get(name)
        if known is not None or name in self._definitions.looked_up:
            return known
        self._definitions.looked_up.add(name)
        tools = await self.list_all("tools/list", "tools")
        self._definitions.learn({"tools": tools})  # a channel that does not learn itself
        return self._definitions.get(name)

    # -------------------------------------------------------------- resources
    def start_read_resource(self, uri: str, *, override: bool = False) -> Call:
        return self._channel.start_request("resources/read", {"uri": uri}, override=override)

    async def read_resource(self, uri: str, *, override: bool = False) -> dict[str, Any]:
        return await self.start_read_resource(uri, override=override).result()

    def subscribe(self, uri: str) -> Call:
        """Watch a resource. Legacy: resources/subscribe. Modern: a subscriptions/listen stream
        (a long-lived call: cancel it to stop)."""
        if self.era is Era.MODERN:
            return self.listen({"resourceSubscriptions": [uri]})
        return self._channel.start_request("resources/subscribe", {"uri": uri})

    def unsubscribe(self, uri: str) -> Call:
        """Legacy only: resources/unsubscribe (a modern watch ends by cancelling its stream)."""
        return self._channel.start_request("resources/unsubscribe", {"uri": uri})

    def listen(self, notifications: dict[str, Any]) -> Call:
        """Modern: open a subscriptions/listen stream with this filter."""
        return self._channel.start_request(
            "subscriptions/listen",
            {"notifications": notifications},
            timeout=None,
            max_total=None,
        )

    # ---------------------------------------------------------------- prompts
    def start_get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, *, override: bool = False
    ) -> Call:
        params: dict[str, Any] = {"name": name}
        if arguments:
            params["arguments"] = arguments
        return self._channel.start_request("prompts/get", params, override=override)

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, *, override: bool = False
    ) -> dict[str, Any]:
        return await self.start_get_prompt(name, arguments, override=override).result()

    # ------------------------------------------------------------- completion
    def start_complete(
        self,
        ref: dict[str, Any],
        argument_name: str,
        value: str,
        context_arguments: dict[str, str] | None = None,
        *,
        override: bool = False,
    ) -> Call:
        params: dict[str, Any] = {"ref": ref, "argument": {"name": argument_name, "value": value}}
        if context_arguments:
            params["context"] = {"arguments": context_arguments}
        return self._channel.start_request("completion/complete", params, override=override)

    async def complete(
        self,
        ref: dict[str, Any],
        argument_name: str,
        value: str,
        context_arguments: dict[str, str] | None = None,
        *,
        override: bool = False,
    ) -> dict[str, Any]:
        call = self.start_complete(ref, argument_name, value, context_arguments, override=override)
        return await call.result()

    # ------------------------------------------------------------------ misc
    def start_ping(self) -> Call:
        return self._channel.start_request("ping", override=self.era is Era.MODERN)

    async def ping(self) -> dict[str, Any]:
        return await self.start_ping().result()

    def clear_log_level(self) -> bool:
        """Stop asking for logs, where the protocol can: modern requests no longer carry a
        level (True). Legacy has no way to unset logging/setLevel: the server keeps the
        last level set (False, nothing sent)."""
        if self.era is Era.MODERN:
            self._channel.use_log_level(None)
            return True
        return False

    async def set_log_level(self, level: str) -> dict[str, Any]:
        """Legacy: logging/setLevel. Modern: the level rides in every request's _meta."""
        if self.era is Era.MODERN:
            self._channel.use_log_level(level)
            return {}
        return await self._request("logging/setLevel", {"level": level})
