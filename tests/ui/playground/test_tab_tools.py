"""The tools offered from the ticked tabs: namespaced by tab, a name collision said, a tab
that is not connected or fails to list said and left out, each server's instructions kept."""

from __future__ import annotations

import asyncio
from typing import Any

from inspector.ui.playground.tab_tools import PlaygroundTab, list_tab_tools


class _Server:
    def __init__(self, tools: list[dict[str, Any]] | None, instructions: str = "") -> None:
        self.tools = tools
        self.instructions = instructions

    async def list_tools(self) -> list[dict[str, Any]]:
        if self.tools is None:
            raise RuntimeError("the server went away")
        return self.tools


def _tab(name: str, server: _Server | None) -> PlaygroundTab:
    return PlaygroundTab(name, "connected", lambda: server, lambda _i, _d: True, lambda _r: True)  # type: ignore[arg-type,return-value]


def test_tools_of_the_ticked_tabs_with_what_had_to_be_said() -> None:
    tabs = [
        _tab("a b", _Server([{"name": "x"}], "Be nice.")),
        _tab("a_b", _Server([{"name": "x"}, {"name": "y"}])),
        _tab("gone", None),
        _tab("broken", _Server(None)),
    ]
    found = asyncio.run(list_tab_tools(tabs))
    assert [t.qualified for t in found.table] == ["a_b__x", "a_b__x_2", "a_b__y"]
    assert [t.name for t in found.taking_part] == ["a b", "a_b"]
    assert found.instructions() == {"a b": "Be nice."}
    assert found.note().splitlines() == [
        "3 tool(s) offered to the model.",
        "Tool 'x' of 'a_b' and tool 'x' of 'a b' both come out as 'a_b__x'; the second is "
        "offered as 'a_b__x_2'.",
        "gone is not connected: its tools are not offered.",
        "Listing the tools of broken failed: the server went away",
    ]
