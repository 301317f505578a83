"""The CLI against broken servers and eras: exit codes and messages as the README gives them
(0 ok, 1 isError, 2 usage, 3 connection, 4 JSON-RPC error, 5 timeout), never a traceback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from inspector.protocol.machine.connection import ClientConfig, ClientConnection
from inspector.protocol.machine.events import ProtocolViolation
from inspector.protocol.wire.jsonrpc import METHOD_NOT_FOUND
from inspector.protocol.wire.versions import EraSetting
from tests.cli.test_cli import DEMO, run_cli
from tests.helpers.fake_server import FakeServer, error, of_type
from tests.helpers.peers import SERVERS

pytestmark = pytest.mark.timeout(60)

MISBEHAVING = [sys.executable, str(SERVERS / "misbehaving" / "server.py")]


def test_a_server_that_never_answers_initialize_is_a_timeout_while_connecting() -> None:
    code, out, err = run_cli(
        "--method", "tools/list", "--timeout", "1", server=[*MISBEHAVING, "--mode", "mute"]
    )  # fmt: skip
    assert code == 5, err
    assert out is None
    assert "while connecting" in err and "timed out" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("method", "instead"),
    [("ping", "server/discover"), ("logging/setLevel", "--log-level")],
)
def test_modern_era_refuses_methods_the_2026_schema_lacks_up_front(
    method: str, instead: str
) -> None:
    extra = ["--log-level", "debug"] if method == "logging/setLevel" else []
    code, out, err = run_cli("--method", method, *extra, "--era", "modern", server=DEMO)
    assert code == 2, err
    assert out is None
    assert "2026-07-28" in err and instead in err
    assert "Traceback" not in err


def test_auto_era_refuses_ping_once_the_server_turned_out_modern() -> None:
    code, out, err = run_cli("--method", "ping", "--era", "auto", server=DEMO)
    assert (code, out) == (2, None), err
    assert "2026-07-28" in err and "server/discover" in err


def test_legacy_era_still_pings() -> None:
    code, out, _ = run_cli("--method", "ping", "--era", "legacy", server=DEMO)
    assert (code, out) == (0, {})


def test_missing_discover_is_flagged_as_a_must() -> None:
    conn = ClientConnection(ClientConfig(era=EraSetting.MODERN))
    fake = FakeServer(conn)
    fake.on("server/discover", error(METHOD_NOT_FOUND, "Method not found"))
    events = fake.start()
    (violation,) = [v for v in of_type(events, ProtocolViolation) if v.rule == "discover"]
    assert "MUST" in violation.message and "optional" not in violation.message


def test_an_argument_json_cannot_carry_is_refused_not_hung() -> None:
    code, out, err = run_cli(
        "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=NaN",
        "--timeout", "10", server=DEMO,
    )  # fmt: skip
    assert (code, out) == (2, None), err
    assert "NaN" in err and "Traceback" not in err


_BIG_ANSWER_SERVER = """
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg["method"] == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"],
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "big", "version": "1"}}
    else:  # like server-filesystem reading a big file: the result first, the id last
        result = {"content": [{"type": "text", "text": "x" * 1_500_000}]}
    sys.stdout.write(json.dumps({"result": result, "jsonrpc": "2.0", "id": msg["id"]}) + "\\n")
    sys.stdout.flush()
"""


def test_an_answer_over_the_size_limit_is_not_called_no_answer(tmp_path: Path) -> None:
    """The server did answer, over --max-message-mb: the timeout must say what it got instead
    of only 'no answer' (found with server-filesystem's read_text_file on a 30 MB file)."""
    server = tmp_path / "big_answer.py"
    server.write_text(_BIG_ANSWER_SERVER)
    code, out, err = run_cli(
        "--method", "tools/call", "--tool-name", "read", "--max-message-mb", "1",
        "--timeout", "2", server=[sys.executable, str(server)],
    )  # fmt: skip
    assert code == 5, err
    assert out is None
    assert "no answer within 2 s" in err
    assert "exceeds the size limit" in err.split("error: ", 1)[1], err
