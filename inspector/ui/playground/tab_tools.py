"""The open tabs as the Playground and the Evals view see them (`PlaygroundTab`), and the
tools the model is offered: those of the ticked tabs that are connected, listed now (all
pages, over each tab's own connection, so the listing shows in its traffic log) and
namespaced `tab__tool` (host/tool_table). A tab that is not connected, or fails to list, is
said and left out; the others are offered."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from inspector.core.server_connection import ServerConnection
from inspector.host.tool_table import ToolTable

__all__ = ["PlaygroundTab", "TabTools", "list_tab_tools"]


@dataclass(frozen=True, slots=True)
class PlaygroundTab:
    """An open tab as the Playground sees it (the shell builds these from its tabs)."""

    name: str  # as its tab shows it (twins told apart)
    state: str  # "connected", "disconnected", ... (shown beside the name)
    server: Callable[[], ServerConnection | None]  # its connection while ready
    record: Callable[[str, dict[str, Any]], bool]  # keep a conversation in its recording
    reveal: Callable[[str | int], bool]  # select a request (by JSON-RPC id) in its log


@dataclass(slots=True)
class TabTools:
    table: ToolTable
    taking_part: list[PlaygroundTab] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def note(self) -> str:
        """What the person reads: how many tools, the name collisions, the tabs left out."""
        return "\n".join(
            [f"{len(self.table)} tool(s) offered to the model.", *self.table.notes, *self.problems]
        )

    def instructions(self) -> dict[str, str]:
        """Each taking part server's instructions, by tab."""
        found = {}
        for tab in self.taking_part:
            server = tab.server()
            if server is not None and server.instructions:
                found[tab.name] = server.instructions
        return found


async def list_tab_tools(tabs: Sequence[PlaygroundTab]) -> TabTools:
    listings: list[tuple[str, list[Any], ServerConnection | None]] = []
    out = TabTools(ToolTable())
    for tab in tabs:
        server = tab.server()
        if server is None:
            out.problems.append(f"{tab.name} is not connected: its tools are not offered.")
            continue
        try:
            tools = await server.list_tools()
        except Exception as exc:  # a server that fails or goes away while listing
            out.problems.append(f"Listing the tools of {tab.name} failed: {exc}")
            continue
        listings.append((tab.name, tools, server))
        out.taking_part.append(tab)
    out.table = ToolTable.build(listings)
    return out
