"""Snapshots of real servers: the bundled demo server in both eras and both transports
lists the same catalog; a server that cannot start says so; both sides run at once."""

from __future__ import annotations

from inspector.compare import diff_catalogs, fetch_both, fetch_side, profile_for_target
from inspector.settings.profiles import EnvVar, Profile
from tests.helpers.demo_http import demo_http_server
from tests.helpers.peers import REPO, demo_command, subprocess_env


def demo(era: str) -> Profile:
    profile = profile_for_target(" ".join(demo_command()), era=era, timeout=20)
    profile.stdio.env = [EnvVar(name=k, value=v) for k, v in subprocess_env().items()]
    profile.stdio.cwd = str(REPO)
    return profile


async def test_demo_legacy_stdio_against_modern_http_is_empty() -> None:
    with demo_http_server() as url:
        left, right = await fetch_both(
            demo("legacy"), profile_for_target(url, era="modern", timeout=20), timeout=30
        )
    assert left.ok and right.ok, (left.error, right.error)
    assert left.snapshot is not None and right.snapshot is not None
    assert (left.snapshot.era, left.snapshot.transport) == ("legacy", "stdio")
    assert (right.snapshot.era, right.snapshot.transport) == ("modern", "http")
    assert left.snapshot.tools, "the demo server lists tools"
    diff = diff_catalogs(left.snapshot, right.snapshot)
    assert diff.same, [i.to_json() for i in diff.differences] + [c.to_dict() for c in diff.info]


async def test_demo_legacy_against_modern_stdio_is_empty() -> None:
    left, right = await fetch_both(demo("legacy"), demo("modern"), timeout=30)
    assert left.snapshot is not None and right.snapshot is not None
    diff = diff_catalogs(left.snapshot, right.snapshot)
    assert diff.same, [i.to_json() for i in diff.differences] + [c.to_dict() for c in diff.info]


async def test_a_side_that_cannot_start_says_why() -> None:
    side = await fetch_side(
        "left", profile_for_target("/nonexistent/server --flag", timeout=5), timeout=5
    )
    assert side.outcome == "unreachable" and side.snapshot is None
    assert side.error and "/nonexistent/server" in side.error
