"""The CLI against broken streamable HTTP servers (tests/servers/misbehaving/http_server.py):
exit codes, the messages a user reads, never a traceback, never a wait for a timeout."""

from __future__ import annotations

import time
import uuid

import pytest

from tests.cli.test_cli import run_cli
from tests.helpers.http_servers import Served

pytestmark = pytest.mark.timeout(60)


def url(server: Served, scenario: str, query: str = "") -> str:
    return f"{server.base}/{scenario}/mcp{query}"


def test_a_session_id_outside_visible_ascii_is_refused_at_once(misbehaving_http: Served) -> None:
    started = time.monotonic()
    code, _out, err = run_cli(
        "--method", "tools/list", "--url", url(misbehaving_http, "badsid"), "--timeout", "25"
    )  # fmt: skip
    assert code == 3, err
    assert time.monotonic() - started < 15  # not the 25 s timeout (room for a loaded start-up)
    assert "Mcp-Session-Id" in err and "visible ASCII" in err
    assert "Traceback" not in err and "UnicodeEncodeError" not in err
    # The id was never sent back.
    assert "session=abc" not in misbehaving_http.log()


def test_a_gzip_bomb_stops_inflating_at_the_limit(misbehaving_http: Served) -> None:
    started = time.monotonic()
    code, _, err = run_cli(
        "--method", "tools/list", "--url", url(misbehaving_http, "gzipbomb", "?mb=256"),
        "--max-message-mb", "1", "--timeout", "20",
    )  # fmt: skip
    assert code == 3, err
    assert time.monotonic() - started < 15
    assert "exceeds the size limit" in err and "more than" in err
    assert "stdout" not in err and "line" not in err
    assert "Traceback" not in err


def test_http_404_reinitializes_once_and_replays_a_list(misbehaving_http: Served) -> None:
    run = uuid.uuid4().hex
    code, out, err = run_cli(
        "--method", "tools/list", "--url", url(misbehaving_http, "restart", f"?run={run}")
    )  # fmt: skip
    assert code == 0, err
    assert [t["name"] for t in out["tools"]] == ["echo"]
    assert "re-initializ" in err
    assert (
        misbehaving_http.log().count(f"POST /restart/mcp?run={run}") >= 4
    )  # init, list, init, list


def test_http_404_again_after_reinitializing_fails_clearly(misbehaving_http: Served) -> None:
    code, _out, err = run_cli("--method", "tools/list", "--url", url(misbehaving_http, "gone"))
    assert code == 3, err
    assert "404" in err and "again" in err
    assert "Traceback" not in err


def test_auto_era_against_a_2025_only_server_falls_back_at_once(misbehaving_http: Served) -> None:
    """server/discover is answered HTTP 400 with a JSON-RPC error (id null): that is the
    probe's answer, so initialize follows at once, and no HTTP+SSE GET is tried."""
    run = uuid.uuid4().hex
    started = time.monotonic()
    code, out, err = run_cli(
        "--method", "tools/list", "--era", "auto", "--timeout", "30",
        "--url", url(misbehaving_http, "ok", f"?run={run}"),
    )  # fmt: skip
    elapsed = time.monotonic() - started
    assert code == 0, err
    assert [t["name"] for t in out["tools"]] == ["echo"]
    # Not the 30 s request timeout (a probe left waiting); the rest of the margin is for the
    # start-up on a loaded machine (a parallel run).
    assert elapsed < 15, elapsed
    requests = [line for line in misbehaving_http.log().splitlines() if f"run={run}" in line]
    assert requests[0].startswith("POST") and '"server/discover"' in requests[0]
    # The only GET is the session's own stream, after initialize: no HTTP+SSE probe.
    probes = [line for line in requests if line.startswith("GET") and "session=None" in line]
    assert not probes, requests
