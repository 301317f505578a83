"""A baseline suppresses accepted findings (each with a reason), reports stale entries, and
refuses entries nobody explained."""

from __future__ import annotations

import json

import pytest

from inspector.security import SecurityFinding
from inspector.security.baseline import Baseline, BaselineError
from tests.security.scanning import found, server, tool


def two_findings() -> list[SecurityFinding]:
    return found(server(tool(description="Adds.\u200b <!-- x -->")))


def test_accepted_findings_are_suppressed_and_stale_ones_reported() -> None:
    findings = two_findings()
    assert len(findings) == 2
    document = json.loads(json.dumps(Baseline.of(findings[:1], "ours, known").to_json()))
    document["accepted"].append({"fingerprint": "gone", "reason": "was fixed"})
    result = Baseline.from_json(document).filter(findings)
    assert result.new == findings[1:]
    assert [a.reason for _, a in result.accepted] == ["ours, known"]
    assert [a.fingerprint for a in result.stale] == ["gone"]


def test_the_fingerprint_ignores_the_offset_but_not_the_item() -> None:
    first = two_findings()[0]
    moved = found(server(tool(description="Adds numbers.\u200b <!-- x -->")))[0]
    other = found(server(tool(name="sub", description="Adds.\u200b <!-- x -->")))[0]
    assert first.offset != moved.offset
    assert first.fingerprint() != other.fingerprint()
    assert first.to_json()["fingerprint"] == first.fingerprint()


@pytest.mark.parametrize(
    ("document", "says"),
    [
        ([], '"accepted" list'),
        ({"accepted": ["x"]}, "accepted[0] is not an object"),
        ({"accepted": [{"reason": "r"}]}, "accepted[0] has no fingerprint"),
        ({"accepted": [{"fingerprint": "f", "reason": "  "}]}, "accepted[0] has no reason"),
    ],
)
def test_a_bad_baseline_says_where(document: object, says: str) -> None:
    with pytest.raises(BaselineError, match=says.replace("[", r"\[").replace("]", r"\]")):
        Baseline.from_json(document)
