"""No command prints a raw control character taken from a server.

A hostile server of our own (tests/servers/misbehaving/escape_server.py) puts OSC 52, a
title change, a screen clear, 8-bit C1 controls, DEL, \\r and a bidi override into every
text it sends. Each command runs against it as a person runs it (a subprocess, from a
working directory other than the server's) and neither its stdout nor its stderr may hold
a C0 control but newline and tab, DEL, a C1 control or a bidi control: what the server
sent is shown escaped (inspector/common/terminal_text.py).

The tap is a transparent relay: the server's own stdout and stderr pass through as they
are (the host's business); the tap's own lines ("mcp-inspector-qt tap: ...") are checked.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import threading
from pathlib import Path

import pytest

from tests.helpers.peers import PY, REPO
from tests.helpers.waiting import wait_until

pytestmark = pytest.mark.timeout(300)

SERVER = REPO / "tests" / "servers" / "misbehaving" / "escape_server.py"
COMMAND = (PY, str(SERVER))
OTHER = SERVER.with_name("output_schema_server.py")  # a tame server, for differences
# What a terminal acts on: C0 but \t and \n (\r too), DEL, C1, and the bidi controls.
# \udc80-\udcff: a byte that is not UTF-8 (decoded with surrogateescape), e.g. a bare 0x9b.
RAW_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\udc80-\udcff]"
)


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(REPO))


def _text(data: bytes) -> str:
    # Bytes as they are: text mode would turn a raw \r into a newline and hide it.
    return data.decode("utf-8", "surrogateescape")


def inspector(cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [PY, "-m", "inspector", *args],
        capture_output=True,
        input=stdin.encode(),
        timeout=120,
        env=_env(),
        cwd=cwd,
    )
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, _text(proc.stdout), _text(proc.stderr)
    )


def assert_no_raw_control(what: str, text: str) -> None:
    found = [
        (line, repr(m.group(0))) for line in text.split("\n") for m in RAW_CONTROL.finditer(line)
    ]
    assert not found, f"{what}: a raw control character on the terminal: {found[:3]}"


def assert_clean(what: str, proc: subprocess.CompletedProcess[str]) -> None:
    assert_no_raw_control(f"{what} (stdout)", proc.stdout)
    assert_no_raw_control(f"{what} (stderr)", proc.stderr)
    # An error message's newline never starts a line of a report, nor of the diagnostics
    # ("error: ...: call failed ...\nPASS  forged" was two lines on stderr).
    for stream, text in (("stdout", proc.stdout), ("stderr", proc.stderr)):
        forged = [line for line in text.split("\n") if line.startswith("PASS  forged")]
        assert not forged, f"{what} ({stream}): a line forged by the server: {forged[:2]}"


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A working directory that is not the server's (nor the repository)."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    return folder


def test_the_server_really_is_hostile(elsewhere: Path) -> None:
    """The payload reaches the commands: `cli` shows the ping's error message, escaped."""
    proc = inspector(elsewhere, "cli", "--method", "ping", "--", *COMMAND)
    assert proc.returncode == 4, proc.stderr
    assert "ping failed \\x1b]52;c;aGFja2Vk\\x07" in proc.stderr
    assert_clean("cli ping", proc)


def test_check_escapes_the_servers_text(elsewhere: Path) -> None:
    for args in ((), ("--json",), ("-v",)):
        proc = inspector(elsewhere, "check", *args, "--", *COMMAND)
        assert proc.returncode == 1, proc.stderr
        assert_clean(f"check {' '.join(args)}", proc)
    text = inspector(elsewhere, "check", "--", *COMMAND).stdout
    assert "ping failed: -32603 ping failed \\x1b]52" in text


@pytest.mark.parametrize(
    "args",
    [
        ("--method", "initialize"),
        ("--method", "tools/list"),
        ("--method", "tools/call", "--tool-name", "echo"),
        ("--method", "tools/call", "--tool-name", "fails"),
        ("--method", "tools/call", "--tool-name", "evil\x1b[2J"),
        ("--method", "resources/list"),
        ("--method", "resources/read", "--uri", "evil://x"),
        ("--method", "prompts/list"),
        ("--method", "prompts/get", "--prompt-name", "p"),
        ("--method", "tools/call", "--tool-name", "nope"),
        ("--method", "logging/setLevel", "--log-level", "debug"),
        ("-v", "--method", "tools/call", "--tool-name", "echo"),
        ("-v", "--compact", "--method", "prompts/list"),
    ],
    ids=lambda a: " ".join(a).replace("\x1b", "ESC"),
)
def test_cli_escapes_the_servers_text(elsewhere: Path, args: tuple[str, ...]) -> None:
    proc = inspector(elsewhere, "cli", *args, "--", *COMMAND)
    assert proc.returncode != 2, proc.stderr
    assert_clean("cli " + " ".join(args), proc)
    if proc.stdout.strip():
        json.loads(proc.stdout)  # still JSON: C1 and bidi controls as \\u escapes


def test_test_escapes_the_servers_text(elsewhere: Path) -> None:
    collection = elsewhere / "hostile.collection.json"
    calls = [
        {"name": "catalog", "kind": "catalog", "tool": "echo", "assert": [{"toolExists": True}]},
        {
            "name": "echo",
            "kind": "tool",
            "tool": "echo",
            "assert": [
                {"outcome": "ok"},
                {"pointer": "/content/0/text", "equals": "text"},
                {"snapshot": {"content": []}},
            ],
        },
        {"name": "fails", "kind": "tool", "tool": "fails", "assert": [{"outcome": "ok"}]},
        {"name": "read", "kind": "resource", "uri": "evil://x"},
        {"name": "prompt", "kind": "prompt", "prompt": "p", "assert": [{"outcome": "error"}]},
    ]
    collection.write_text(json.dumps({"version": 1, "name": "hostile", "calls": calls}))
    for args in ((), ("--json",)):
        proc = inspector(elsewhere, "test", str(collection), *args, "--", *COMMAND)
        assert proc.returncode == 1, proc.stderr
        assert_clean(f"test {' '.join(args)}", proc)


def test_diff_escapes_the_servers_text(elsewhere: Path) -> None:
    hostile = " ".join(COMMAND)
    other = f"{PY} {OTHER}"
    for args in ((), ("--json",)):
        proc = inspector(elsewhere, "diff", "--left", hostile, "--right", other, *args)
        assert proc.returncode == 1, proc.stderr
        assert_clean(f"diff {' '.join(args)}", proc)


def test_replay_escapes_the_servers_text(elsewhere: Path) -> None:
    session = elsewhere / "hostile.jsonl"
    for args in (
        ("--method", "tools/call", "--tool-name", "echo"),
        ("--method", "tools/call", "--tool-name", "fails"),
    ):
        recorded = inspector(elsewhere, "cli", "--record", str(session), *args, "--", *COMMAND)
        assert session.exists(), recorded.stderr
        assert_clean("cli --record", recorded)
        # Against the same server (no drift) and against another (drift, shown).
        for server in (COMMAND, (PY, str(OTHER))):
            proc = inspector(elsewhere, "replay", str(session), "--", *server)
            assert proc.returncode in (0, 1), proc.stderr
            assert_clean("replay", proc)


def test_watch_escapes_the_servers_text(elsewhere: Path) -> None:
    proc = subprocess.Popen(
        [PY, "-m", "inspector", "watch", "-v", "--", *COMMAND],
        cwd=elsewhere,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
    )
    out: list[bytes] = []
    err: list[bytes] = []
    readers = [
        threading.Thread(target=lambda: out.extend(proc.stdout or []), daemon=True),
        threading.Thread(target=lambda: err.extend(proc.stderr or []), daemon=True),
    ]
    for reader in readers:
        reader.start()
    try:
        wait_until(lambda: any(b"tools" in line for line in out), "watch's first report", 60)
        wait_until(lambda: any(b"server: " in line for line in err), "the server's stderr", 60)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
        for reader in readers:
            reader.join(timeout=10)
    assert_no_raw_control("watch (stdout)", _text(b"".join(out)))
    assert_no_raw_control("watch (stderr)", _text(b"".join(err)))


def test_the_taps_own_lines_are_escaped(elsewhere: Path) -> None:
    """The tap's own lines never carry a raw control (here its recorder's, naming a
    session file it cannot write); the server's stdout and stderr are relayed as they
    are, by design."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "ping"},
    ]
    stdin = "".join(json.dumps(m) + "\n" for m in messages)
    unwritable = "/proc/no\x1b[2J\x9bdir/s.jsonl"
    proc = inspector(elsewhere, "tap", "--session-file", unwritable, "--", *COMMAND, stdin=stdin)
    own = [line for line in proc.stderr.split("\n") if "session file" in line]
    assert any(line.startswith("mcp-inspector-qt tap: not recording") for line in own), own
    assert_no_raw_control("tap (its own lines)", "\n".join(own))
    assert '"id": 2' in proc.stdout or '"id":2' in proc.stdout  # the relay still relays
