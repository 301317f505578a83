"""Modern HTTP: a tools/call of a tool with `x-mcp-header` arguments, without a tools/list
first (the CLI, replay, a task), still sends the `Mcp-Param-*` headers: the client learns
the tool's definition first (every page of tools/list), once."""

from __future__ import annotations

import httpx

from inspector.protocol.wire.versions import EraSetting
from tests.helpers.http_fakes import Seen, result
from tests.transports.test_http_transport import (
    HEADER_TOOL,
    TOOLS,
    Opened,
    modern_fake,
    start,
)


async def test_calling_an_unlisted_tool_lists_first_and_sends_its_header(
    opened: list[Opened],
) -> None:
    fake = modern_fake()
    item = await start(opened, fake, era=EraSetting.MODERN)
    await item.session.client.call_tool("execute_sql", {"region": "eu", "query": "SELECT 1"})
    (call,) = fake.posts("tools/call")
    assert call.headers["mcp-param-region"] == "eu"
    assert len(fake.posts("tools/list")) == 1
    # Known now: a second call does not list again.
    await item.session.client.call_tool("execute_sql", {"region": "us", "query": "SELECT 2"})
    assert len(fake.posts("tools/list")) == 1


async def test_the_definition_is_found_on_a_later_page(opened: list[Opened]) -> None:
    fake = modern_fake()

    def paged(seen: Seen) -> httpx.Response | dict[str, object]:
        cursor = (seen.body.get("params") or {}).get("cursor")
        if cursor is None:
            return result(seen, {"tools": TOOLS, "nextCursor": "p2"})
        return result(seen, {"tools": [HEADER_TOOL]})

    fake.on("tools/list", paged)
    item = await start(opened, fake, era=EraSetting.MODERN)
    await item.session.client.call_tool("execute_sql", {"region": "ap", "query": "x"})
    assert fake.posts("tools/call")[0].headers["mcp-param-region"] == "ap"
    assert len(fake.posts("tools/list")) == 2


async def test_an_unknown_tool_is_still_called_once_the_list_says_nothing(
    opened: list[Opened],
) -> None:
    fake = modern_fake()
    fake.on("tools/call", lambda seen: result(seen, {"content": []}))
    item = await start(opened, fake, era=EraSetting.MODERN)
    await item.session.client.call_tool("not_listed", {})
    assert len(fake.posts("tools/call")) == 1  # the server answers for itself
