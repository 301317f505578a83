"""Server Cards (a draft, SEP-2127): where a card is looked for, a card that is not JSON or
not the shape, caps; the comparison with what a server reports; and `check`'s
card.consistent against the demo server over HTTP, in process, serving its own card (which
agrees), a card that disagrees (the stand-in: each difference a finding, a warning that
does not fail the run), and no card (skipped, not an error)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from inspector.check.battery import run_battery
from inspector.check.card_checks import CARD_CHECKS
from inspector.check.report import Status
from inspector.demo.http import DemoHttpServer
from inspector.registry.card_compare import Observed, compare_card
from inspector.registry.server_card import (
    CARD_SCHEMA_URL,
    MAX_CARD_BYTES,
    CardState,
    card_locations,
    fetch_server_card,
    read_card,
    summary_lines,
)
from inspector.settings.profiles import HttpSettings, Profile

pytestmark = pytest.mark.timeout(60)


def card(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "$schema": CARD_SCHEMA_URL,
        "name": "example.test/weather",
        "version": "1.0.0",
        "description": "Weather.",
    }
    return {**base, **fields}


@pytest.fixture
def carded_demo() -> Iterator[DemoHttpServer]:
    """The demo server over HTTP, in this process (its card is changed by each test)."""
    server = DemoHttpServer("127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.close_all()
        server.server_close()
        thread.join(5)


def test_the_card_is_looked_for_under_the_endpoint_then_at_the_well_known_path() -> None:
    assert card_locations("https://h.example:8443/api/mcp/?x=1") == [
        "https://h.example:8443/api/mcp/server-card",
        "https://h.example:8443/.well-known/mcp/server-card",
    ]
    assert card_locations("stdio:npx") == []
    assert card_locations("http://") == []


def test_a_body_that_is_not_a_card_says_why() -> None:
    value, problems = read_card(b"<html>hi</html>", "text/html; charset=utf-8")
    assert value is None
    assert str(problems[0]) == "(the whole document): It is not JSON (text/html)."
    value, problems = read_card(b"[1, 2]")
    assert value is None and "must be a JSON object" in str(problems[0])
    value, problems = read_card(json.dumps({"name": "no slash", "version": 2}).encode())
    assert value is not None
    said = [str(p) for p in problems]
    assert "/$schema: “$schema” is required but missing." in said
    assert "/description: “description” is required but missing." in said
    assert "/version: It must be a string, not a number." in said
    assert any(s.startswith('/name: "no slash" does not have the expected form') for s in said)
    assert read_card(json.dumps(card()).encode()) == (card(), [])


def test_the_summary_is_plain_lines_and_names_unknown_fields() -> None:
    remote = {"type": "sse", "url": "https://x/sse", "headers": [{"name": "K", "isSecret": True}]}
    lines = summary_lines(card(remotes=[remote], tools=[{"name": "a"}], weird={"x": 1}))
    assert "remote 1: sse https://x/sse" in lines
    assert "  protocol versions: (not given)" in lines
    assert "  header: K (secret)" in lines
    assert "tools: 1 listed (a field of earlier drafts)" in lines
    assert "other fields: weird" in lines


def test_each_difference_is_one_finding() -> None:
    live = Observed(
        url="http://h/mcp",
        transport="streamable-http",
        server_info={"name": "Weather Server", "version": "1.0.1", "title": "W"},
        supported_versions=["2026-07-28"],
        tools=["forecast"],
        prompts=None,
    )
    remote = {"type": "sse", "url": "http://h/mcp/", "supportedProtocolVersions": ["2099-01-01"]}
    diffs, _notes = compare_card(
        card(
            name="example.test/weather-server",  # folds to the server's name: no finding
            remotes=[remote],
            tools=[{"name": "forecast"}, {"name": "ghost"}],
            prompts=[{"name": "p"}],
        ),
        live,
    )
    assert [str(d) for d in diffs] == [
        "version: the card says '1.0.0', the server '1.0.1'",
        "transport: the card says 'sse' at this URL, the server speaks 'streamable-http'",
        "protocol versions: the card claims '2099-01-01', which the server does not support",
        "protocol versions: the server supports '2026-07-28', which the card leaves out",
        "tools: the card lists 'ghost', the server does not",
        "prompts: the card lists 'p'; the server has none",
    ]
    # A card of today's draft: no primitives, nothing else to say.
    diffs, notes = compare_card(card(name="example.test/weather-server", version="1.0.1"), live)
    assert diffs == []
    assert "the card names no remotes: transports not compared" in notes


def test_fetching_found_missing_broken_and_huge(carded_demo: DemoHttpServer) -> None:
    async def scenario() -> None:
        found = await fetch_server_card(carded_demo.url)
        assert found.state is CardState.FOUND and found.problems == []
        assert found.url == carded_demo.url + "/server-card"
        carded_demo.card = None
        missing = await fetch_server_card(carded_demo.url)
        assert missing.state is CardState.MISSING
        assert len(missing.tried) == 2 and missing.describe().startswith("No Server Card")
        carded_demo.card = b"<!doctype html><p>welcome</p>"
        broken = await fetch_server_card(carded_demo.url)
        assert broken.state is CardState.BROKEN
        assert "It is not JSON" in str(broken.problems[0])
        carded_demo.card = b" " * (MAX_CARD_BYTES + 10)
        huge = await fetch_server_card(carded_demo.url)
        assert huge.state is CardState.BROKEN and "KiB: not read" in huge.note

    asyncio.run(scenario())


def test_a_server_that_is_not_running_says_what_to_look_at() -> None:
    import socket

    with socket.socket() as spare:  # a port nothing listens on once it is closed
        spare.bind(("127.0.0.1", 0))
        port = spare.getsockname()[1]
    url = f"http://127.0.0.1:{port}/mcp"
    fetched = asyncio.run(fetch_server_card(url, timeout=5))
    assert fetched.state is CardState.UNREACHABLE
    assert fetched.note.startswith(f"Could not reach {url}/server-card (")
    assert fetched.note.endswith("): is the server running, and is its URL right?")
    assert "ConnectError" not in fetched.note


def _card_result(server: DemoHttpServer, era: str) -> Any:
    profile = Profile(name="demo", transport="http", http=HttpSettings(url=server.url), era=era)
    report = asyncio.run(run_battery(profile, checks=CARD_CHECKS))
    assert report.unreachable is None, report.unreachable
    return report, report.results[0]


def test_check_flags_each_difference_of_a_disagreeing_card(carded_demo: DemoHttpServer) -> None:
    _report, agrees = _card_result(carded_demo, "legacy")
    assert agrees.status is Status.PASSED, agrees.evidence
    carded_demo.card = json.dumps(
        card(
            remotes=[
                {
                    "type": "sse",
                    "url": carded_demo.url,
                    "supportedProtocolVersions": ["2024-11-05"],
                }
            ],
            prompts=[{"name": "ghost_prompt"}],
        )
    ).encode()
    report, result = _card_result(carded_demo, "modern")
    assert result.status is Status.WARNED
    lines = result.evidence.splitlines()
    assert lines[0].startswith("6 finding(s) in the Server Card (draft)")
    assert "name: the card says 'example.test/weather', the server 'mcp-inspector-qt demo'" in lines
    assert "version: the card says '1.0.0', the server '0.1.0'" in lines
    assert any(line.startswith("transport: the card says 'sse'") for line in lines)
    assert any("the server supports '2026-07-28'" in line for line in lines)
    assert "prompts: the card lists 'ghost_prompt', the server does not" in lines
    assert report.exit_code == 0 and "1 warned" in report.summary()
    assert "WARN  card.consistent" in report.table()


def test_no_card_is_no_finding_and_a_broken_card_a_warning(carded_demo: DemoHttpServer) -> None:
    carded_demo.card = None
    report, result = _card_result(carded_demo, "legacy")
    assert result.status is Status.SKIPPED and "not an error" in result.evidence
    assert report.exit_code == 0
    carded_demo.card = b"{not json"
    _report, result = _card_result(carded_demo, "legacy")
    assert result.status is Status.WARNED and "not with a card" in result.evidence
