"""The end of a `cli` run against a stdio server: the spec's shutdown ladder (close stdin,
wait, SIGTERM, wait, SIGKILL), its first wait set by --shutdown-grace, and -v saying when
the server ignored stdin EOF (as server-everything does)."""

from __future__ import annotations

import pytest

from tests.cli.test_cli import run_cli
from tests.helpers.peers import PY, REPO

pytestmark = pytest.mark.timeout(60)

DEAF = [PY, str(REPO / "tests/servers/misbehaving/server.py"), "--mode", "deaf-to-eof"]


def test_verbose_says_the_server_ignored_stdin_eof() -> None:
    code, out, err = run_cli("--method", "tools/list", "--shutdown-grace", "0.2", "-v", server=DEAF)
    assert code == 0 and [t["name"] for t in out["tools"]][:1] == ["ok"]
    assert "ignored stdin EOF (still running 0.2 s after its stdin was closed)" in err
    assert "sending SIGTERM" in err


def test_quiet_run_does_not_mention_the_ladder() -> None:
    code, _out, err = run_cli("--method", "tools/list", "--shutdown-grace", "0", server=DEAF)
    assert code == 0
    assert "stdin EOF" not in err


@pytest.mark.parametrize("value", ["-1", "nan"])
def test_a_negative_grace_is_a_usage_error(value: str) -> None:
    code, _out, err = run_cli("--method", "tools/list", "--shutdown-grace", value, server=DEAF)
    assert code == 2
    assert "--shutdown-grace must be 0 or more seconds" in err
