"""`mcp-inspector-qt diff` end to end against real peers, one test per exit code and more:
0 (a server against itself, across eras and transports), 1 (two `mcp` 2.x builds that
differ by one tool and one schema field), 2 (usage), 3 (a side unreachable, or dying
mid-listing), 5 (a side that never answers)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest

from inspector.settings.profiles import EnvVar, Profile, ProfileStore, StdioSettings
from tests.cli.test_cli_imports import _run_cli
from tests.helpers.demo_http import demo_http_server
from tests.helpers.http_servers import free_port, serving
from tests.helpers.peers import EVERYTHING_JS, PY, REPO, SERVERS, demo_command

pytestmark = pytest.mark.timeout(120)

CATALOG = [PY, str(SERVERS / "sdk" / "catalog_server.py")]
PAGING = [PY, str(SERVERS / "misbehaving" / "paging_server.py")]
MUTE = [PY, str(SERVERS / "misbehaving" / "server.py"), "--mode", "mute"]


def line(argv: list[str]) -> str:
    return shlex.join(argv)


def diff(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    proc = subprocess.run(
        [PY, "-m", "inspector", "diff", *args],
        capture_output=True,
        text=True,
        timeout=110,
        env=dict(os.environ, PYTHONPATH=str(REPO), **(env or {})),
        cwd=REPO,
    )
    return proc.returncode, proc.stdout, proc.stderr


def diff_json(*args: str, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any], str]:
    code, out, err = diff("--json", *args, env=env)
    return code, json.loads(out), err


# -- 0: the same ---------------------------------------------------------------------------


def test_a_server_against_itself_exits_0() -> None:
    demo = line(demo_command())
    code, out, err = diff("--left", demo, "--right", demo)
    assert code == 0, out + err
    assert out.rstrip().endswith("The catalogs are the same.")


def test_demo_legacy_stdio_against_modern_http_is_the_same() -> None:
    with demo_http_server() as url:
        code, report, _err = diff_json(
            "--left", line(demo_command()), "--right", url, "--right-era", "modern"
        )
    assert code == 0, report
    assert report["same"] is True and report["differences"] == [] and report["info"] == []
    assert (report["left"]["era"], report["left"]["transport"]) == ("legacy", "stdio")
    assert (report["right"]["era"], report["right"]["transport"]) == ("modern", "http")
    assert report["left"]["counts"]["tools"] > 0


def test_server_everything_over_stdio_and_streamable_http_is_the_same() -> None:
    if not EVERYTHING_JS.exists():
        pytest.skip("server-everything is not installed (scripts/install-peers.sh)")
    port = free_port()
    with serving([(["node", str(EVERYTHING_JS), "streamableHttp"], {"PORT": str(port)}, port)]):
        code, report, err = diff_json(
            "--left",
            line(["node", str(EVERYTHING_JS), "stdio"]),
            "--right",
            f"http://127.0.0.1:{port}/mcp",
        )
    assert code == 0, (report, err)
    assert report["left"]["counts"] == report["right"]["counts"]
    assert report["left"]["counts"]["tools"] >= 13
    assert report["left"]["serverInfo"]["name"] == "mcp-servers/everything"


# -- 1: they differ ------------------------------------------------------------------------


def test_two_sdk_builds_differ_by_one_tool_and_one_schema_field() -> None:
    code, out, err = diff("--left", line(CATALOG), "--right", line([*CATALOG, "--build", "v2"]))
    assert code == 1, out + err
    assert '+ added tool "translate"' in out
    assert '~ changed tool "search": inputSchema' in out
    assert '~ /inputSchema/properties/limit/type: "integer" → "number"' in out
    assert "The catalogs differ (2 difference(s))." in out
    assert "echo" not in out  # the same tool is not listed as a difference


def test_sdk_builds_across_era_and_transport_json_report() -> None:
    port = free_port()
    v2 = [*CATALOG, "--build", "v2", "streamable-http", "--port", str(port)]
    with serving([(v2, {}, port)]):
        code, report, err = diff_json(
            "--left",
            line(CATALOG),
            "--right",
            f"http://127.0.0.1:{port}/mcp",
            "--right-era",
            "modern",
        )
    assert code == 1, (report, err)
    by = {(d["kind"], d["key"]): d for d in report["differences"]}
    assert set(by) == {("tools", "search"), ("tools", "translate")}
    assert by["tools", "translate"]["status"] == "added"
    search = by["tools", "search"]
    assert search["fields"] == ["inputSchema"]
    assert search["changes"] == [
        {
            "path": "/inputSchema/properties/limit/type",
            "kind": "changed",
            "old": "integer",
            "new": "number",
        }
    ]
    assert report["right"]["era"] == "modern"
    # The SDK declares listChanged over modern HTTP and not over legacy stdio: a real
    # difference in what the two sides declare, reported as such.
    assert all(c["path"].startswith("/capabilities/") for c in report["info"]), report["info"]


def test_ignore_paths_make_the_builds_the_same() -> None:
    code, out, err = diff(
        "--left",
        line(CATALOG),
        "--right",
        line([*CATALOG, "--build", "v2"]),
        "--ignore",
        "/tools/translate",
        "--ignore",
        "/tools/*/inputSchema/properties/limit",
    )
    assert code == 0, out + err


def test_a_gateway_namespace_and_a_case_change_are_hinted() -> None:
    code, report, err = diff_json(
        "--left", line(CATALOG), "--right", line([*CATALOG, "--build", "gateway"])
    )
    assert code == 1, (report, err)
    hints = {(d["key"], d["status"]): d.get("hint", "") for d in report["differences"]}
    assert set(hints) == {
        ("search", "removed"),
        ("echo", "removed"),
        ("notes__search", "added"),
        ("notes__echo", "added"),
        ("review", "removed"),
        ("Review", "added"),
    }
    assert (
        "'notes__search'" in hints["search", "removed"]
        and "namespace" in hints["search", "removed"]
    )
    assert "only by case" in hints["Review", "added"]


# -- 2: usage ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--left", "x"], "--right"),
        (["--left", "x", "--right", "y", "--ignore", "tools/x"], "--ignore"),
        (["--left", "profile:nobody-has-this", "--right", "y"], "no profile named"),
        (["--left", "'unbalanced", "--right", "y"], "cannot split"),
        (["--left", "", "--right", "y"], "empty target"),
        (["--left", "x", "--right", "y", "--timeout", "0"], "--timeout"),
        (["--left", "x", "--right", "y", "--era", "ancient"], "invalid choice"),
    ],
)
def test_usage_errors_exit_2(args: list[str], message: str, tmp_path: Path) -> None:
    code, out, err = diff(*args, env={"MCP_INSPECTOR_CONFIG_DIR": str(tmp_path)})
    assert code == 2, out + err
    assert message in err


def test_a_saved_profile_is_a_target(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path / "profiles.json")
    store.put(
        Profile(
            name="catalog v2",
            stdio=StdioSettings(
                command=PY,
                args=[*CATALOG[1:], "--build", "v2"],
                env=[EnvVar(name="CATALOG_PEER", value="1")],
                cwd=str(REPO),
            ),
            era="modern",
        )
    )
    code, report, err = diff_json(
        "--left",
        line(CATALOG),
        "--right",
        "profile:catalog v2",
        env={"MCP_INSPECTOR_CONFIG_DIR": str(tmp_path)},
    )
    assert code == 1, (report, err)
    assert report["right"]["era"] == "modern"  # the profile's era
    assert {d["key"] for d in report["differences"]} == {"search", "translate"}


# -- 3: a side could not be reached --------------------------------------------------------


def test_an_unreachable_side_is_named_and_the_other_listing_shown() -> None:
    code, out, err = diff("--left", line(CATALOG), "--right", "/nonexistent/mcp-server --stdio")
    assert code == 3, out + err
    assert "error: the right side (/nonexistent/mcp-server --stdio) could not be reached" in err
    assert out.startswith('left: "catalog-peer"')
    assert '"search", "echo"' in out  # the left side's listing stays usable


def test_a_side_that_exits_at_once_gives_its_last_words_once() -> None:
    """A server that exits before initialize (a missing API key): its stderr is the reason,
    said once (it was said twice: 'last stderr: X (last stderr: X)')."""
    dies = [PY, str(SERVERS / "misbehaving" / "server.py"), "--mode", "exit-early"]
    code, _out, err = diff("--left", line(dies), "--right", line(CATALOG))
    assert code == 3, err
    assert err.count("missing required environment variable API_KEY") == 1, err


def test_an_unreachable_url_side_json() -> None:
    port = free_port()  # nothing listens there
    code, report, err = diff_json(
        "--left", f"http://127.0.0.1:{port}/mcp", "--right", line(demo_command())
    )
    assert code == 3, report
    assert report["left"]["outcome"] == "unreachable" and report["left"]["snapshot"] is None
    assert report["right"]["outcome"] == "listed"
    assert report["right"]["snapshot"]["tools"]
    assert f"the left side (http://127.0.0.1:{port}/mcp) could not be reached" in err


def test_a_side_dying_mid_listing_exits_3_and_nothing_is_called_removed() -> None:
    code, out, err = diff(
        "--left", line(PAGING), "--right", line([*PAGING, "--mode", "dies-paging"])
    )
    assert code == 3, out + err
    assert "failed while listing: listing tools failed: tools/list: server exited (code 4)" in err
    assert "dying while listing tools" in err  # the server's own last words
    assert "tools: 0 added, 0 removed, 0 changed, 100 same, 150 unlisted" in out
    assert "removed tool" not in out


def test_a_list_method_failing_is_named_and_exits_3() -> None:
    code, out, err = diff(
        "--left", line(PAGING), "--right", line([*PAGING, "--mode", "prompts-error"])
    )
    assert code == 3, out + err
    assert (
        "failed while listing: listing prompts failed: "
        "prompts/list failed: -32603 prompts are broken today" in err
    )
    assert "prompts: 0 added, 0 removed, 0 changed, 0 same, 1 unlisted" in out
    assert "\ntools: " not in out  # the tools compared equal (250 the same): no section
    assert "last stderr" not in err  # the server is alive: its stderr is no explanation


# -- 5: timeout ----------------------------------------------------------------------------


def test_a_side_that_never_answers_times_out_with_5() -> None:
    code, out, err = diff("--left", line(MUTE), "--right", line(PAGING), "--timeout", "2")
    assert code == 5, out + err
    assert "error: the left side" in err and "timed out" in err and "connecting" in err
    assert out.startswith("right: ")


# -- the stdio path stays light ------------------------------------------------------------


def test_diff_over_stdio_loads_no_qt_and_no_http_stack() -> None:
    demo = line(demo_command())
    probe, out = _run_cli("diff", "--left", demo, "--right", demo)
    assert probe["code"] == 0, out
    assert probe["heavy"] == []


def test_a_side_that_stops_answering_mid_listing_times_out_with_5() -> None:
    code, out, err = diff(
        "--left",
        line(PAGING),
        "--right",
        line([*PAGING, "--mode", "hangs-paging"]),
        "--timeout",
        "3",
    )
    assert code == 5, out + err
    assert "the right side" in err and "timed out" in err and "while listing" in err
    # What the right side listed before it stopped is compared; the rest is not called
    # removed.
    assert "tools: 0 added, 0 removed, 0 changed, 100 same, 150 unlisted" in out
    assert "the listing did not finish" in out
