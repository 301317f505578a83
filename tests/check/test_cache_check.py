"""`check`'s cache.hints against the modern-era stand-ins, in process: the demo server
(ttlMs and cacheScope on every list and read) passes; the lint breaker's `bad-cache`
(ttlMs a string and negative, cacheScope "session", resultType "partial") fails with one
finding each. Legacy-era servers are not judged (skipped)."""

from __future__ import annotations

import asyncio

import pytest

from inspector.check.battery import run_battery
from inspector.check.cache_checks import CACHE_CHECKS
from inspector.check.report import CheckResult, Status
from inspector.settings.profiles import Profile, StdioSettings
from tests.helpers.peers import PY, SERVERS

pytestmark = pytest.mark.timeout(60)


def _result(args: list[str], era: str = "modern") -> CheckResult:
    profile = Profile(name="s", stdio=StdioSettings(command=PY, args=args), era=era)
    report = asyncio.run(run_battery(profile, checks=CACHE_CHECKS))
    assert report.unreachable is None, report.unreachable
    return report.results[0]


def test_bad_cache_hints_fail_with_one_finding_each() -> None:
    result = _result([str(SERVERS / "misbehaving" / "lint_server.py"), "--break", "bad-cache"])
    assert result.status is Status.FAILED
    lines = result.evidence.splitlines()
    assert lines[0] == "4 finding(s)"
    assert "tools/list: ttlMs must be an integer, not '5000' (taken as 0)" in lines
    assert "prompts/list: ttlMs must be 0 or more, not -1 (taken as 0)" in lines
    assert any('cacheScope must be "public" or "private", not \'session\'' in x for x in lines)
    assert any('resultType must be "complete" for resources/read' in x for x in lines)


def test_the_demo_passes_and_a_legacy_server_is_not_judged() -> None:
    result = _result(["-m", "inspector.demo"])
    assert result.status is Status.PASSED, result.evidence
    assert "tools/list: ttlMs 0 · cacheScope public" in result.evidence
    assert _result(["-m", "inspector.demo"], era="legacy").status is Status.SKIPPED
