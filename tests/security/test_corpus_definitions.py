"""The real servers of the corpus (docs/corpus.md), their definitions as recorded by
scripts/record_corpus_definitions.py: no finding of high severity, and what is found is
true (every finding listed here, checked by hand). The demo server has none."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.demo import content
from inspector.demo.tools import tool_specs
from inspector.security import ServerDefinitions, Severity, scan

DEFINITIONS = Path(__file__).resolve().parent.parent / "corpus" / "definitions.json"

# Checked by hand: two calculators share `calculate`, two time servers `convert_timezone`
# (true collisions, when both are open together), and sequential-thinking's one tool has
# a 2781-character description (true: long).
EXPECTED = {
    ("shadow.name-collision", "bachai-calculator", "calculate"),
    ("shadow.name-collision", "mcp-server-calculator", "calculate"),
    ("shadow.name-collision", "cortex-mcp", "convert_timezone"),
    ("shadow.name-collision", "mcp-time-go", "convert_timezone"),
    ("hidden.long-description", "server-sequential-thinking", "sequentialthinking"),
}


def corpus() -> list[ServerDefinitions]:
    recorded = json.loads(DEFINITIONS.read_text(encoding="utf-8"))
    return [
        ServerDefinitions(
            name,
            tools=entry.get("tools") or [],
            prompts=entry.get("prompts") or [],
            resources=entry.get("resources") or [],
            templates=entry.get("templates") or [],
            instructions=entry.get("instructions"),
        )
        for name, entry in sorted(recorded.items())
    ]


def test_the_corpus_was_recorded_with_its_tools() -> None:
    servers = corpus()
    assert len(servers) >= 13
    assert sum(len(s.tools) for s in servers) > 100


def test_no_high_finding_on_a_real_server_and_every_finding_is_true() -> None:
    found = scan(corpus())
    assert [f.line() for f in found if f.severity >= Severity.HIGH] == []
    assert {(f.rule, f.server, f.item) for f in found} == EXPECTED


def test_each_real_server_alone_has_no_finding_above_low() -> None:
    for server in corpus():
        assert [f.line() for f in scan([server]) if f.severity > Severity.LOW] == [], server.name


def test_the_demo_server_has_no_finding() -> None:
    demo = ServerDefinitions(
        "demo",
        tools=[t.definition for t in tool_specs(bonus=True)],
        prompts=content.PROMPTS,
        resources=content.RESOURCES,
        templates=content.RESOURCE_TEMPLATES,
        instructions=content.INSTRUCTIONS,
    )
    assert [f.line() for f in scan([demo])] == []
