"""SARIF 2.1.0 logs: a scan's findings (new, accepted by a baseline, a target that failed)
and `check`'s report (failed checks, an unreachable server), each valid against the
official schema (tests/fixtures/sarif/), levels and fingerprints as documented."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from inspector.check.report import CheckReport, CheckResult, Status
from inspector.security import RULES, Severity
from inspector.security.sarif import LEVELS, Place, security_sarif
from tests.security.scanning import found, server, tool

SCHEMA = Path(__file__).resolve().parent.parent / "fixtures" / "sarif" / "sarif-schema-2.1.0.json"


def valid(log: dict[str, Any]) -> dict[str, Any]:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema).validate(log)
    return log


def test_levels_follow_severity() -> None:
    assert [LEVELS[s] for s in Severity] == ["note", "note", "warning", "error"]


def test_a_scan_log_with_new_accepted_and_failed_targets_is_valid() -> None:
    findings = found(
        server(tool("read_file", "Reads. <IMPORTANT>do it</IMPORTANT>\u200b"), name="files")
    )
    assert len(findings) == 2
    new, accepted = findings[:1], [(findings[1], "we wrote it")]
    log = valid(
        security_sarif(
            new,
            rules=RULES,
            accepted=accepted,
            places={"files": Place("server.py", 3)},
            version="1.2.3",
            failures=["http://x: could not be reached"],
        )
    )
    run = log["runs"][0]
    assert log["version"] == "2.1.0"
    assert run["tool"]["driver"]["name"] == "mcp-inspector-qt"
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == list(RULES)
    assert run["invocations"][0]["executionSuccessful"] is False
    first, second = run["results"]
    assert first["ruleId"] == new[0].rule and first["level"] == LEVELS[new[0].severity]
    assert first["partialFingerprints"] == {"primaryLocationLineHash": new[0].fingerprint()}
    assert run["tool"]["driver"]["rules"][first["ruleIndex"]]["id"] == first["ruleId"]
    where = first["locations"][0]
    assert where["logicalLocations"][0]["fullyQualifiedName"] == "files/tool/read_file"
    assert where["physicalLocation"] == {
        "artifactLocation": {"uri": "server.py"},
        "region": {"startLine": 3},
    }
    assert new[0].evidence in first["message"]["text"]
    assert second["suppressions"] == [{"kind": "external", "justification": "we wrote it"}]


def test_a_check_report_as_sarif_is_valid() -> None:
    report = CheckReport(
        "http://127.0.0.1:9/mcp",
        server={"name": "demo"},
        results=[
            CheckResult("errors.unknown-method", "Unknown methods", Status.FAILED, "got 200", "R1"),
            CheckResult("lists.tools", "tools/list", Status.PASSED),
            CheckResult("lists.prompts", "prompts/list", Status.SKIPPED, "none"),
            CheckResult("card.consistent", "Server Card", Status.WARNED, "name differs"),
        ],
    )
    log = valid(json.loads(report.sarif()))
    run = log["runs"][0]
    assert run["tool"]["driver"]["version"]  # sarif-multitool's SARIF2005 without it
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == [
        "errors.unknown-method",
        "lists.tools",
        "lists.prompts",
        "card.consistent",
    ]
    result, warned = run["results"]
    # An advisory check (a draft's) that warned is a warning, not left out.
    assert (warned["ruleId"], warned["level"]) == ("card.consistent", "warning")
    assert (result["ruleId"], result["level"]) == ("errors.unknown-method", "error")
    assert result["message"]["text"] == "Unknown methods: got 200"
    logical = result["locations"][0]["logicalLocations"][0]
    assert logical["fullyQualifiedName"] == "demo/check/errors.unknown-method"
    phys = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert phys == "http://127.0.0.1:9/mcp"
    down = CheckReport("python server.py", unreachable="connection refused")
    log = valid(json.loads(down.sarif()))
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False
    assert log["runs"][0]["results"] == []


def test_prompts_without_required_arguments_are_the_ones_fetched() -> None:
    from inspector.compare.security_scan import prompts_without_arguments

    prompts = [
        {"name": "a"},
        {"name": "b", "arguments": [{"name": "x", "required": False}]},
        {"name": "c", "arguments": [{"name": "x", "required": True}]},
        {"name": 3},
        "not a prompt",
    ]
    assert prompts_without_arguments(prompts) == ["a", "b"]


HOSTILE_NAME = "evil\x1b]52;c;aGFja2Vk\x07\x9b31m\u202eevil"


def _server_texts(log: dict[str, Any]) -> list[str]:
    run = log["runs"][0]
    texts = [
        n["message"]["text"]
        for i in run["invocations"]
        for n in i.get("toolExecutionNotifications", [])
    ]
    for result in run["results"]:
        texts.append(result["message"]["text"])
        for where in result["locations"]:
            for logical in where["logicalLocations"]:
                texts += [logical["fullyQualifiedName"], logical.get("name", "")]
    return texts


def test_server_text_in_a_sarif_log_is_shown_not_acted_on() -> None:
    # A SARIF viewer prints these on a terminal (sarif-tools' `sarif summary` did: the
    # check's evidence wrote the clipboard with OSC 52).
    from inspector.common.terminal_text import UNSAFE_ON_TERMINAL

    check = CheckReport(
        "python server.py",
        server={"name": HOSTILE_NAME},
        results=[CheckResult("errors.ping", "ping", Status.FAILED, f"failed: {HOSTILE_NAME}")],
    )
    scanned = security_sarif(
        found(server(tool(HOSTILE_NAME), name=HOSTILE_NAME)),
        rules=RULES,
        failures=[f"x: {HOSTILE_NAME}"],
    )
    for log in (valid(json.loads(check.sarif())), valid(scanned)):
        texts = _server_texts(log)
        assert texts and not [t for t in texts if UNSAFE_ON_TERMINAL.search(t)]
        assert any("\\x1b]52" in t for t in texts)


def test_every_result_has_a_physical_location() -> None:
    # GitHub code scanning refuses a whole log with a result without an artifact URI
    # ("locationFromSarifResult: expected artifact location").
    check = CheckReport(
        "python server.py",
        server={"name": "my server/1"},
        results=[CheckResult("errors.ping", "ping", Status.FAILED, "no")],
    )
    scanned = security_sarif(found(server(tool("x", "<IMPORTANT>"), name="srv")), rules=RULES)
    for log in (valid(json.loads(check.sarif())), valid(scanned)):
        results = log["runs"][0]["results"]
        uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results]
        assert results and all(uris)
        assert all(" " not in u for u in uris)
