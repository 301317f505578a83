"""A big listing linted in slices finds what linting it at once finds (issue 27, big
catalogs): the same findings (rule, pointer, message, schema path, value), and the same
memory of the listing (names seen, output schemas) for the messages after it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from inspector.lint.finding import Finding
from inspector.lint.listing_lint import ListingLint
from inspector.lint.messages import MessageLinter


def big_catalog(n: int, version: str) -> dict[str, Any]:
    """`n` tools, a few of them broken in every way a tool can be, and a broken envelope."""
    tools: list[Any] = [
        {
            "name": f"gw__tool_{i}",
            "description": f"Tool {i}.",
            "inputSchema": {"type": "object", "properties": {"id": {"type": "integer"}}},
        }
        for i in range(n)
    ]
    tools[5]["name"] = "bad name!"  # tool-name-format (2025-11-25 on)
    tools[7]["name"] = "gw__tool_3"  # unique-names
    tools[9]["inputSchema"] = {"type": "object", "properties": {"a": {"type": "nope"}}}
    tools[11]["outputSchema"] = {"type": "array"}  # output-schema-invalid
    tools[13]["description"] = 5  # schema.type
    tools[15] = {"name": "x"}  # schema.required (no inputSchema)
    tools[17] = "junk"  # schema.type
    tools[19]["annotations"] = {"readOnlyHint": "yes"}  # schema.type, deep
    tools[21]["outputSchema"] = {"type": "object", "properties": {"n": {"type": "integer"}}}
    tools[n - 1]["inputSchema"] = {"type": "object", "$schema": {}}  # a hostile $schema
    result: dict[str, Any] = {"tools": tools, "nextCursor": 7}  # schema.type
    if version >= "2026":
        result["resultType"] = "complete"
    return {"jsonrpc": "2.0", "id": 2, "result": result}


def key(f: Finding) -> tuple[str, ...]:
    return (f.rule, f.pointer, f.message, f.where, f.value, f.version, str(f.index))


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25", "2026-07-28"])
def test_a_big_listing_sliced_finds_what_linting_it_at_once_finds(version: str) -> None:
    message = big_catalog(2000, version)
    request = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    eager = MessageLinter(version)
    at_once = eager.incoming(3, "response", "tools/list", copy.deepcopy(message), request)

    sliced = MessageLinter(version)
    job = ListingLint.start(sliced, 3, "tools/list", message, request)
    assert job is not None and job.total == 2000 and job.noun == "tools"
    ticks = iter(range(1, 10**9))
    found: list[Finding] = []
    slices = 0
    while not job.finished:  # slices of 8 items (the clock is past the deadline at once)
        found += job.step(0.5, lambda: float(next(ticks)))
        slices += 1
        assert job.done == min(2000, 8 * slices)
    assert slices == 250
    assert sorted(map(key, found)) == sorted(map(key, at_once))
    rules = {f.rule for f in found}
    assert {"unique-names", "input-schema-invalid", "output-schema-invalid"} <= rules
    assert {"schema.type", "schema.required"} <= rules
    assert ("tool-name-format" in rules) == (version >= "2025-11-25")
    # What the messages after it need is remembered alike.
    assert (
        sliced.ctx.output_schemas
        == eager.ctx.output_schemas
        == {"gw__tool_21": message["result"]["tools"][21]["outputSchema"]}
    )
    assert sliced.ctx.listings["tools/list"] == eager.ctx.listings["tools/list"]


def test_a_small_listing_or_another_shape_is_linted_at_once() -> None:
    linter = MessageLinter("2025-06-18")
    small = big_catalog(300, "2025-06-18")
    assert ListingLint.start(linter, 1, "tools/list", small, None) is not None
    assert ListingLint.start(linter, 1, "tools/list", small, None, sliced_from=301) is None
    assert ListingLint.start(linter, 1, "tools/call", small, None) is None
    small["result"]["tools"] = {"not": "a list"}
    assert ListingLint.start(linter, 1, "tools/list", small, None) is None
