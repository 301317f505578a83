"""SARIF 2.1.0 logs, as plain JSON, so that findings land in GitHub code scanning and any
other SARIF viewer: `scan --sarif OUT` (the security findings) and `check --sarif OUT`
(the failed checks) both build theirs here.

One run, its `tool.driver` named mcp-inspector-qt with one rule per rule id
(`shortDescription`, `help` with the spec reference, `defaultConfiguration.level`). Each
result has its `ruleId`, `level` (`LEVELS`: high -> error, medium -> warning, low and
info -> note), `message.text` (reason and visible evidence), the fingerprint in
`partialFingerprints` (what GitHub matches runs by), a logical location `server/kind/item`
(kind `function` for a tool) and a physical location: the one the caller knows (the
target's URL or script, or a config file and line), else the server's name as a relative
URI (GitHub code scanning refuses a whole log with a result that has no artifact URI). A
result a baseline accepted keeps its place with an external `suppression` and the
baseline's reason. Targets that could not be reached are `toolExecutionNotifications` of a
failed invocation.

The text a server wrote (its name, an item's name, a check's evidence, why it could not be
reached) is written with every hidden character shown as an escape (`visible_text`): SARIF
viewers print messages on terminals and in web pages as they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import quote

from inspector.common.visible_text import visible_text
from inspector.security.finding import SecurityFinding, Severity

__all__ = [
    "LEVELS",
    "SARIF_SCHEMA",
    "SARIF_VERSION",
    "Place",
    "SarifResult",
    "SarifRule",
    "sarif_log",
    "security_sarif",
]

SARIF_VERSION: Final = "2.1.0"
SARIF_SCHEMA: Final = "https://json.schemastore.org/sarif-2.1.0.json"
TOOL_NAME: Final = "mcp-inspector-qt"
INFORMATION_URI: Final = "https://modelcontextprotocol.io/specification"
LEVELS: Final[dict[Severity, str]] = {
    Severity.HIGH: "error",
    Severity.MEDIUM: "warning",
    Severity.LOW: "note",
    Severity.INFO: "note",
}
_LOGICAL_KIND: Final = {"tool": "function", "instructions": "module"}


@dataclass(frozen=True, slots=True)
class Place:
    """A physical location: a URI (a URL, a relative path, a file:// URI) and a line."""

    uri: str
    line: int = 0


@dataclass(frozen=True, slots=True)
class SarifRule:
    id: str
    text: str  # what it looks for, one line
    level: str  # its default level: error, warning, note
    help: str = ""  # the spec reference, or more


@dataclass(frozen=True, slots=True)
class SarifResult:
    rule_id: str
    level: str
    message: str
    fingerprint: str
    logical: tuple[str, str, str]  # (server, kind, item)
    place: Place | None = None
    suppressed: str | None = None  # a baseline's reason: shown as accepted
    properties: dict[str, Any] = field(default_factory=dict)


def _shown(text: str) -> str:
    """A server's text on one line, every hidden character escaped."""
    return visible_text(text, keep="")


def _location(result: SarifResult) -> dict[str, Any]:
    server, kind, item = (_shown(part) for part in result.logical)
    logical: dict[str, Any] = {
        "fullyQualifiedName": "/".join(p for p in (server, kind, item) if p),
        "kind": _LOGICAL_KIND.get(kind, "member"),
    }
    if item:
        logical["name"] = item
    place = result.place
    if place is None or not place.uri:
        # No file or URL known: the server's name, so that every result has an artifact.
        place = Place(quote(server or "server", safe=""))
    physical: dict[str, Any] = {"artifactLocation": {"uri": place.uri}}
    if place.line > 0:
        physical["region"] = {"startLine": place.line}
    return {"physicalLocation": physical, "logicalLocations": [logical]}


def _result(result: SarifResult, index: Mapping[str, int]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ruleId": result.rule_id,
        "level": result.level,
        "message": {"text": visible_text(result.message)},
        "locations": [_location(result)],
        "partialFingerprints": {"primaryLocationLineHash": result.fingerprint},
    }
    if result.rule_id in index:
        out["ruleIndex"] = index[result.rule_id]
    if result.suppressed is not None:
        out["suppressions"] = [{"kind": "external", "justification": result.suppressed}]
    if result.properties:
        out["properties"] = dict(result.properties)
    return out


def sarif_log(
    rules: Sequence[SarifRule],
    results: Sequence[SarifResult],
    *,
    version: str = "",
    failures: Sequence[str] = (),
    command_line: str = "",
) -> dict[str, Any]:
    """A SARIF 2.1.0 log of one run. `failures`: why targets could not be examined (the
    invocation then did not succeed)."""
    driver: dict[str, Any] = {
        "name": TOOL_NAME,
        "informationUri": INFORMATION_URI,
        "rules": [
            {
                "id": r.id,
                "shortDescription": {"text": r.text},
                "fullDescription": {"text": r.text + (f" ({r.help})" if r.help else "")},
                "help": {"text": r.help or r.text},
                "defaultConfiguration": {"level": r.level},
            }
            for r in rules
        ],
    }
    if version:
        driver["version"] = version
    invocation: dict[str, Any] = {"executionSuccessful": not failures}
    if command_line:
        invocation["commandLine"] = command_line
    if failures:
        invocation["toolExecutionNotifications"] = [
            {"level": "error", "message": {"text": visible_text(text)}} for text in failures
        ]
    index = {r.id: i for i, r in enumerate(rules)}
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {"driver": driver},
                "invocations": [invocation],
                "results": [_result(r, index) for r in results],
            }
        ],
    }


def _message(finding: SecurityFinding) -> str:
    offset = f" [{finding.offset}]" if finding.offset >= 0 else ""
    at = f"{finding.pointer or finding.field}{offset}"
    return f"{finding.reason} — at {at}: {finding.evidence}"


def security_sarif(
    findings: Sequence[SecurityFinding],
    *,
    rules: Mapping[str, tuple[str, str]],
    accepted: Sequence[tuple[SecurityFinding, str]] = (),
    places: Mapping[str, Place] | None = None,
    version: str = "",
    failures: Sequence[str] = (),
) -> dict[str, Any]:
    """The SARIF log of a scan: `findings` (new), `accepted` (each with the baseline's
    reason, marked suppressed), `rules` (`security.RULES`: id -> (severity, what)),
    `places` (server -> its physical location, when known)."""
    places = places or {}
    specs: dict[str, str] = {}
    for finding, _reason in [*((f, "") for f in findings), *accepted]:
        specs.setdefault(finding.rule, finding.spec)
    sarif_rules = [
        SarifRule(rule, what, LEVELS[Severity.parse(severity)], specs.get(rule, ""))
        for rule, (severity, what) in rules.items()
    ]

    def result(finding: SecurityFinding, suppressed: str | None) -> SarifResult:
        return SarifResult(
            rule_id=finding.rule,
            level=LEVELS[finding.severity],
            message=_message(finding),
            fingerprint=finding.fingerprint(),
            logical=(finding.server, finding.kind, finding.item),
            place=places.get(finding.server),
            suppressed=suppressed,
            properties={
                "severity": finding.severity.label,
                "field": finding.field,
                "pointer": finding.pointer,
                "offset": finding.offset,
                **({"spec": finding.spec} if finding.spec else {}),
            },
        )

    results = [result(f, None) for f in findings]
    results += [result(f, reason) for f, reason in accepted]
    return sarif_log(sarif_rules, results, version=version, failures=failures)
