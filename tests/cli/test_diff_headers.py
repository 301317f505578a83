"""`diff --header`, `--left-header`, `--right-header` (issue 11): HTTP headers for a bare URL
side, against real `mcp` 2.x servers that answer 401 without their header (as an API
gateway would). With the headers the diff runs (exit 0/1); without one, the side that was
refused is named (exit 3); a header for a stdio side, or a malformed one, is usage (exit 2)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.settings.profiles import (
    HeaderEntry,
    HttpSettings,
    Profile,
    ProfileStore,
    StdioSettings,
)
from tests.cli.test_diff_command import CATALOG, diff, diff_json, line
from tests.helpers.http_servers import free_port, serving

pytestmark = pytest.mark.timeout(120)

LEFT_KEY, RIGHT_KEY = "X-Left-Key: open sesame", "X-Right-Key: b0"


@pytest.fixture(scope="module")
def guarded() -> Iterator[tuple[str, str]]:
    """Two catalog builds over HTTP: v1 wants X-Left-Key, v2 wants X-Right-Key."""
    left_port, right_port = free_port(), free_port()
    left = [*CATALOG, "streamable-http", "--port", str(left_port), "--require-header", LEFT_KEY]
    right = [*CATALOG, "--build", "v2", "streamable-http", "--port", str(right_port),
             "--require-header", RIGHT_KEY]  # fmt: skip
    with serving([(left, {}, left_port), (right, {}, right_port)]):
        yield f"http://127.0.0.1:{left_port}/mcp", f"http://127.0.0.1:{right_port}/mcp"


def _differ_by_one_tool_and_field(report: dict[str, object]) -> None:
    differences = report["differences"]
    assert isinstance(differences, list)
    assert {(d["kind"], d["key"]) for d in differences} == {
        ("tools", "search"),
        ("tools", "translate"),
    }


def test_per_side_headers_let_the_diff_run(guarded: tuple[str, str]) -> None:
    left, right = guarded
    code, report, err = diff_json(
        "--left", left, "--right", right, "--left-header", LEFT_KEY, "--right-header", RIGHT_KEY
    )
    assert code == 1, (report, err)
    _differ_by_one_tool_and_field(report)


def test_header_goes_to_both_sides_and_a_side_header_wins(guarded: tuple[str, str]) -> None:
    left, right = guarded
    # --header to both (each server ignores the other's key); a wrong --header value for
    # the left key is overridden by --left-header (the side's own, case-insensitively).
    code, report, err = diff_json(
        "--left", left, "--right", right,
        "--header", "x-left-key: wrong", "--header", RIGHT_KEY,
        "--left-header", LEFT_KEY,
    )  # fmt: skip
    assert code == 1, (report, err)
    _differ_by_one_tool_and_field(report)
    # A server against itself, one header for both: the same.
    code, out, err = diff("--left", left, "--right", left, "--header", LEFT_KEY)
    assert code == 0, out + err
    assert out.rstrip().endswith("The catalogs are the same.")


def test_without_its_header_the_refused_side_is_named_exit_3(guarded: tuple[str, str]) -> None:
    left, right = guarded
    code, out, err = diff("--left", left, "--right", right, "--left-header", LEFT_KEY)
    assert code == 3, out + err
    assert f"the right side ({right}) could not be reached" in err
    assert "401" in err and "missing or wrong header: X-Right-Key" in err
    assert "the left side" not in err  # the left side, with its header, listed fine
    assert out.startswith('left: "catalog-peer"') and '"search", "echo"' in out
    # A wrong value is refused the same way, and named on its side.
    code, out, err = diff(
        "--left", left, "--right", right,
        "--left-header", "X-Left-Key: guess", "--right-header", RIGHT_KEY,
    )  # fmt: skip
    assert code == 3, out + err
    assert f"the left side ({left}) could not be reached" in err and "401" in err
    assert out.startswith('right: "catalog-peer"') and "translate" in out


def test_an_http_profile_side_takes_headers_over_its_own(
    guarded: tuple[str, str], tmp_path: Path
) -> None:
    left, right = guarded
    store = ProfileStore(tmp_path / "profiles.json")
    wrong = [HeaderEntry(name="X-Right-Key", value="stale"), HeaderEntry(name="X-Other", value="1")]
    store.put(
        Profile(name="deployed", transport="http", http=HttpSettings(url=right, headers=wrong))
    )
    env = {"MCP_INSPECTOR_CONFIG_DIR": str(tmp_path)}
    code, _out, err = diff("--left", left, "--right", "profile:deployed",
                           "--left-header", LEFT_KEY, env=env)  # fmt: skip
    assert code == 3 and "the right side" in err and "401" in err  # the profile's stale key
    code, report, err = diff_json(
        "--left", left, "--right", "profile:deployed",
        "--left-header", LEFT_KEY, "--right-header", RIGHT_KEY.lower(), env=env,
    )  # fmt: skip
    assert code == 1, (report, err)
    _differ_by_one_tool_and_field(report)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--left-header", "X-A: 1"], "--left-header is for an HTTP server, but the left side"),
        (["--header", "X-A: 1"], "--header is for an HTTP server, but the left side"),
        (["--right-header", "no colon"], "--right-header expects 'Name: value'"),
        (["--left-header", "X Bad: 1"], "--left-header: 'X Bad' is not an HTTP header name"),
        (["--header", "X-A: a\nb"], "--header: the value of 'X-A' has a control character"),
        (["--header", ": empty name"], "--header expects 'Name: value'"),
    ],
)
def test_headers_for_a_stdio_side_or_malformed_exit_2(args: list[str], message: str) -> None:
    # The right side is a URL nobody listens on: usage is refused before anything connects.
    url = f"http://127.0.0.1:{free_port()}/mcp"
    code, out, err = diff("--left", line(CATALOG), "--right", url, *args)
    assert code == 2, out + err
    assert message in err and out == ""


def test_a_stdio_profile_side_takes_no_headers(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path / "profiles.json")
    store.put(Profile(name="local", stdio=StdioSettings(command="python", args=["x.py"])))
    code, out, err = diff(
        "--left", "profile:local", "--right", f"http://127.0.0.1:{free_port()}/mcp",
        "--header", "X-A: 1", env={"MCP_INSPECTOR_CONFIG_DIR": str(tmp_path)},
    )  # fmt: skip
    assert code == 2, out + err
    assert "the left side is a stdio command" in err


def test_help_documents_the_header_options() -> None:
    code, out, _err = diff("--help")
    assert code == 0
    for flag in ("--header", "--left-header", "--right-header", "A stdio"):
        assert flag in out
