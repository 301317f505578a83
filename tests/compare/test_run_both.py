"""Run on both against real servers: the demo server in its two eras answers the same;
the two `mcp` 2.x catalog builds answer a call with their own words; a side that is not
connected says so and the other side's answer stays."""

from __future__ import annotations

from inspector.compare import run_on_both
from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.wire.versions import EraSetting
from inspector.transports.stdio import StdioParams, StdioTransport
from tests.helpers.peers import PY, REPO, SERVERS, subprocess_env
from tests.helpers.sessions import OpenSessions

CATALOG = str(SERVERS / "sdk" / "catalog_server.py")


def stdio(*args: str) -> StdioTransport:
    return StdioTransport(StdioParams(PY, list(args), env=subprocess_env(), cwd=str(REPO)))


async def test_demo_legacy_and_modern_answer_the_same(sessions: OpenSessions) -> None:
    legacy = await sessions.connection(stdio("-m", "inspector.demo"))
    modern = await sessions.connection(
        stdio("-m", "inspector.demo"), ClientConfig(era=EraSetting.MODERN)
    )
    tool = await run_on_both(legacy, modern, "tool", "echo", {"message": "hi"})
    assert tool.left.error is None and tool.right.error is None
    assert tool.same, [c.describe() for c in tool.changes]  # resultType is a volatile path
    read = await run_on_both(legacy, modern, "resource", "demo://readme")
    assert read.left.result and read.left.result["contents"]
    # The 2026-07-28 result carries cache hints a legacy one has no word for: real
    # differences of the two answers, shown as such; the contents are the same.
    assert {c.path for c in read.changes} <= {"/ttlMs", "/cacheScope"}
    prompt = await run_on_both(legacy, modern, "prompt", "greet", {"name": "Ada"})
    assert prompt.same and "Ada" in str(prompt.left.result)


async def test_two_builds_and_a_missing_side(sessions: OpenSessions) -> None:
    v1 = await sessions.connection(stdio(CATALOG))
    v2 = await sessions.connection(stdio(CATALOG, "--build", "v2"))
    both = await run_on_both(v1, v2, "tool", "search", {"query": "q", "limit": 3})
    assert [(c.path, c.old, c.new) for c in both.changes] == [
        ("/content/0/text", "3 results for q", "3.0 results for q"),
        ("/structuredContent/result", "3 results for q", "3.0 results for q"),
    ]
    unknown = await run_on_both(v1, v2, "tool", "translate", {"text": "a", "to": "fr"})
    assert unknown.left.result is not None and unknown.left.result["isError"] is True
    assert "isError: true" in unknown.left.summary()
    assert {c.path for c in unknown.changes} >= {"/isError", "/content/0/text"}
    missing = await run_on_both(None, v2, "tool", "echo", {"text": "x"})
    assert missing.left.error == "not connected"
    assert missing.right.result is not None and missing.right.error is None
    assert missing.changes[0].path == "" or missing.changes  # the whole answer differs
    assert "not connected" in missing.left.summary()
