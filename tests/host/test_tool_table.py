"""The tool table: tools of several tabs offered as `tab__tool`, sanitized to what providers
accept, two servers' tools never shadowing each other; the approval policy's reasons."""

from __future__ import annotations

import re

from inspector.host.policy import ask_reasons, describe_reasons, parse_policy
from inspector.host.tool_table import HostTool, ToolTable, qualified_name

PROVIDER_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


def test_tools_of_two_tabs_are_namespaced_sanitized_and_never_shadow_each_other() -> None:
    table = ToolTable.build(
        [
            ("weather", [{"name": "get.forecast"}, {"name": "get_forecast"}, {"x": 1}], None),
            ("weather", [{"name": "echo"}], None),  # a second tab with the same name
            ("My Files (local)", [{"name": "read file", "description": "Reads."}], None),
            ("a" * 80, [{"name": "b" * 80}, {"name": "b" * 80 + "c"}], None),
        ]
    )
    names = list(table.tools)
    assert all(PROVIDER_NAME.match(n) for n in names), names
    assert len(names) == len(set(names)) == 6
    assert names[:3] == ["weather__get_forecast", "weather__get_forecast_2", "weather__echo"]
    assert "My_Files__local___read_file" in names
    # the collisions are said, each naming both tools and the name given to the second
    assert any("'get.forecast'" in n and "'get_forecast'" in n and "_2" in n for n in table.notes)
    assert any("has no name" in n for n in table.notes)
    assert sum("both come out as" in n for n in table.notes) == 2  # sanitized, truncated
    # a renamed tool tells the model its server name; one that was not renamed does not
    files = table.tools["My_Files__local___read_file"].spec()
    assert files.description.startswith("Reads.") and "'read file'" in files.description
    assert table.tools["weather__echo"].spec().description == ""
    assert table.get("weather__get_forecast_2") == HostTool(
        "weather__get_forecast_2", "weather", {"name": "get_forecast"}
    )
    assert qualified_name("t", "x") == "t__x"


def test_the_policy_asks_by_annotation_and_destructive_always_asks() -> None:
    plain = HostTool("t__a", "t", {"name": "a"})
    read_only = HostTool("t__r", "t", {"name": "r", "annotations": {"readOnlyHint": True}})
    destructive = HostTool("t__d", "t", {"name": "d", "annotations": {"destructiveHint": True}})
    assert ask_reasons("all", plain, False) == ()
    assert ask_reasons("read-only", read_only, False) == ()
    assert ask_reasons("read-only", plain, False) == ("policy",)
    assert ask_reasons("ask", read_only, False) == ("policy",)
    assert ask_reasons("all", destructive, False) == ("destructive",)
    assert ask_reasons("all", plain, True) == ("schema",)
    why = describe_reasons(("policy", "destructive"), "read-only")
    assert why.startswith("The tool is not annotated read-only") and "(a hint)" in why
    assert parse_policy("none") == "none"
    try:
        parse_policy("sometimes")
    except ValueError as exc:
        assert "ask, read-only, all, none" in str(exc)
    else:
        raise AssertionError("an unknown policy must be refused")
