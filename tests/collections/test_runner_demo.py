"""Every assertion kind, passing and failing, against the demo server in both eras; asks
answered from the saved answers; ${env:NAME}; timeouts; update snapshot."""

from __future__ import annotations

import pytest

from inspector.collections.file import loads_collection
from inspector.collections.results import CallResult
from inspector.collections.snapshots import update_snapshots
from tests.collections.runs import run, stdio
from tests.helpers.peers import demo_command

pytestmark = pytest.mark.timeout(120)

COLLECTION = """{
  "version": 1,
  "name": "demo",
  "calls": [
    {"name": "echo passes", "kind": "tool", "tool": "echo",
     "arguments": {"message": "hi ${env:WHO}"},
     "assert": [
       {"outcome": "ok"},
       {"pointer": "/content/0/text", "equals": "hi bob"},
       {"pointer": "/content/0", "contains": {"type": "text"}},
       {"pointer": "/content/0/text", "contains": "bob"},
       {"pointer": "/content/0/text", "matches": "^hi b.b$"},
       {"pointer": "/content", "type": "array"},
       {"snapshot": {"content": [{"type": "text", "text": "hi bob"}]}},
       {"latencyUnderMs": 20000}
     ]},
    {"name": "echo fails", "kind": "tool", "tool": "echo",
     "arguments": {"message": "hi"},
     "assert": [
       {"outcome": "isError"},
       {"pointer": "/content/0/text", "equals": "bye"},
       {"pointer": "/content/0/text", "contains": "bob"},
       {"pointer": "/content/0/text", "matches": "^bye"},
       {"pointer": "/content/0/text", "type": "number"},
       {"pointer": "/content/7/text", "equals": "x"},
       {"snapshot": {"content": [{"type": "text", "text": "hello"}]}},
       {"latencyUnderMs": 0.001}
     ]},
    {"name": "add", "kind": "tool", "tool": "add", "arguments": {"a": 1, "b": 2},
     "assert": [{"outputSchema": "valid"}, {"pointer": "/structuredContent/sum", "equals": 3.0}]},
    {"name": "echo has no outputSchema", "kind": "tool", "tool": "echo",
     "arguments": {"message": "x"}, "assert": [{"outputSchema": "valid"}]},
    {"name": "explode", "kind": "tool", "tool": "explode",
     "assert": [{"outcome": "error", "code": -32603}]},
    {"name": "explode wrong code", "kind": "tool", "tool": "explode",
     "assert": [{"outcome": "error", "code": -32602}]},
    {"name": "tool error", "kind": "tool", "tool": "fail_sometimes", "arguments": {"mode": "fail"},
     "assert": [{"outcome": "isError"}]},
    {"name": "slow", "kind": "tool", "tool": "slow_count",
     "arguments": {"steps": 1, "delay_ms": 3000}, "timeoutMs": 300,
     "assert": [{"outcome": "timeout"}]},
    {"name": "unset env", "kind": "tool", "tool": "echo", "arguments": {"message": "${env:NOPE}"}},
    {"name": "readme", "kind": "resource", "uri": "demo://readme",
     "assert": [{"pointer": "/contents/0/mimeType", "equals": "text/markdown"}]},
    {"name": "greet", "kind": "prompt", "prompt": "greet", "arguments": {"name": "Ada"},
     "assert": [{"pointer": "/messages/0/content/text", "contains": "Ada"}]},
    {"name": "complete", "kind": "completion",
     "ref": {"type": "ref/prompt", "name": "review_code"},
     "argument": {"name": "language", "value": "py"},
     "assert": [{"pointer": "/completion/values", "contains": "python"}]},
    {"name": "catalog: echo", "kind": "catalog", "tool": "echo",
     "assert": [{"toolExists": true}, {"inputSchema": {"type": "object",
       "properties": {"message": {"type": "string", "description": "Text to echo back"}},
       "required": ["message"]}}]},
    {"name": "catalog: echo changed", "kind": "catalog", "tool": "echo",
     "assert": [{"inputSchema": {"type": "object", "properties": {}}}]},
    {"name": "catalog: gone", "kind": "catalog", "tool": "no_such_tool",
     "assert": [{"toolExists": true}]},
    {"name": "catalog: really gone", "kind": "catalog", "tool": "no_such_tool",
     "assert": [{"toolExists": false}]},
    {"name": "ask llm", "kind": "tool", "tool": "ask_llm", "arguments": {"question": "q"},
     "answers": [{"method": "sampling/createMessage",
                  "result": {"role": "assistant", "model": "m1",
                             "content": {"type": "text", "text": "forty-two"}}}],
     "assert": [{"pointer": "/content/0/text", "contains": "forty-two"}]},
    {"name": "ask user rejected", "kind": "tool", "tool": "ask_user",
     "answers": [{"method": "elicitation/create", "result": {"action": "decline"}}],
     "assert": [{"pointer": "/content/0/text", "contains": "'decline'"}]}
  ]
}"""

FAILURES = {
    "echo fails": [
        "expected outcome isError, got ok",
        '/content/0/text is "hi", expected "bye"',
        '/content/0/text = "hi" does not contain "bob"',
        '/content/0/text = "hi" does not match /^bye/',
        "/content/0/text is of type string, expected number",
        "/content/7/text is not there",
        '1 change(s) from the snapshot: ~ /content/0/text: "hello" → "hi"',
        ", the limit is 0.001 ms",
    ],
    "echo has no outputSchema": ["the tool declares no outputSchema"],
    "explode wrong code": ["expected outcome error -32602, got error -32603"],
    "unset env": ["${env:NOPE} is used but the environment variable NOPE is not set"],
    "catalog: echo changed": ["the inputSchema changed (2)"],
    "catalog: gone": ["the tool 'no_such_tool' is not listed"],
}


def _by_name(results: list[CallResult]) -> dict[str, CallResult]:
    return {r.name: r for r in results}


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_every_assertion_kind_passes_and_fails_on_the_demo_server(era: str) -> None:
    collection = loads_collection(COLLECTION)
    report = run(stdio(demo_command()), collection, era=era, env={"WHO": "bob"})
    results = _by_name(report.results)
    assert list(results) == [c.name for c in collection.calls]
    for name, result in results.items():
        expected = FAILURES.get(name)
        if expected is None:
            assert result.passed, (name, result.failure_text())
            continue
        assert not result.passed, name
        text = result.failure_text()
        for message in expected:
            assert message in text, (name, message, text)
    assert results["slow"].outcome.kind == "timeout"
    assert results["unset env"].outcome.kind == "not-run" and results["unset env"].ms is None
    assert results["echo fails"].failures[0].label == "outcome is isError"
    snapshot = next(a for a in results["echo fails"].failures if a.changes)
    assert [c.path for c in snapshot.changes] == ["/content/0/text"]
    assert report.exit_code == 1
    assert report.failed == len(FAILURES)
    # JSON for machines carries the same verdicts
    as_json = report.to_json()
    assert as_json["failed"] == len(FAILURES) and as_json["exit_code"] == 1


def test_update_snapshot_takes_the_new_result() -> None:
    collection = loads_collection(COLLECTION)
    collection.calls = [
        c for c in collection.calls if c.name in ("echo fails", "catalog: echo changed")
    ]
    first = run(stdio(demo_command()), collection)
    changed = update_snapshots(collection, first.results)
    assert changed == ["echo fails", "catalog: echo changed"]
    second = run(stdio(demo_command()), collection)
    for result in second.results:
        kinds = {type(a.assertion).__name__ for a in result.failures}
        assert "SnapshotAssertion" not in kinds and "InputSchemaAssertion" not in kinds
    snap = collection.call("echo fails")
    assert snap is not None
    stored = [a for a in snap.assertions if type(a).__name__ == "SnapshotAssertion"]
    assert stored[0].snapshot == {"content": [{"type": "text", "text": "hi"}]}  # type: ignore[union-attr]


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_a_list_changed_makes_the_catalog_listed_again(era: str) -> None:
    collection = loads_collection(
        """{"version": 1, "calls": [
          {"name": "before", "kind": "catalog", "tool": "reverse",
           "assert": [{"toolExists": false}]},
          {"name": "toggle", "kind": "tool", "tool": "toggle_bonus_tool"},
          {"name": "after", "kind": "catalog", "tool": "reverse",
           "assert": [{"toolExists": true}]}
        ]}"""
    )
    report = run(stdio(demo_command()), collection, era=era)
    assert [r.passed for r in report.results] == [True, True, True], [
        r.failure_text() for r in report.results
    ]
