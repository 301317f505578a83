"""The stdio tap as a process: byte-exact relay both ways, stderr passed through, exit codes,
signals, the shutdown ladder, recording gaps, an unwritable session file, the runtime entry."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from inspector.recording.reader import read_session
from inspector.tap.registry import list_taps
from tests.helpers.peers import PY
from tests.helpers.tap import recorded_bytes, tap_argv, tap_env

# Every kind of line a host or server may write: JSON-RPC, non-JSON, invalid UTF-8, a CRLF,
# a blank line, an escaped and a raw non-ASCII character.
WEIRD = (
    b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
    b"not json at all\n"
    b'\xff\xfe\x00 {"broken": "\xc3"}\n'
    b'{"jsonrpc":"2.0","method":"n","params":{"s":"\\u00e9 \xc3\xa9 \xf0\x9f\x90\x8d"}}\r\n'
    b"\n"
    b'{"jsonrpc":"2.0","id":"x","result":{}}\n'
)


def run_tap(
    tmp_path: Path, server: list[str], stdin: bytes = b"", *extra: str, timeout: float = 30
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        tap_argv(tmp_path / "s.jsonl", server, *extra),
        input=stdin,
        capture_output=True,
        env=tap_env(tmp_path / "rt"),
        timeout=timeout,
        check=False,
    )


def test_bytes_go_through_unchanged_both_ways_and_are_all_recorded(tmp_path: Path) -> None:
    big = b'{"jsonrpc":"2.0","id":2,"result":{"blob":"' + b"z" * 300_000 + b'"}}\n'
    data = WEIRD * 50 + big + WEIRD
    done = run_tap(tmp_path, ["cat"], data)
    assert done.returncode == 0, done.stderr
    assert done.stdout == data  # cat echoes: the host gets back exactly what it sent
    assert recorded_bytes(tmp_path / "s.jsonl", "out") == data
    assert recorded_bytes(tmp_path / "s.jsonl", "in") == data
    kinds = [e.kind for e in read_session(tmp_path / "s.jsonl").frames()[:6]]
    assert kinds == ["request", "invalid", "invalid", "notification", "invalid", "response"]


def test_a_node_host_s_socket_pairs_go_through_unchanged(tmp_path: Path) -> None:
    """Node hosts (Claude Desktop, VS Code, Cursor) give their server socket pairs as stdin
    and stdout, not pipes: the same bytes both ways, all recorded."""
    import socket
    import threading

    big = b'{"jsonrpc":"2.0","id":2,"result":{"blob":"' + b"z" * 300_000 + b'"}}\n'
    data = WEIRD * 50 + big + WEIRD
    host_in, tap_in = socket.socketpair()
    host_out, tap_out = socket.socketpair()
    tap = subprocess.Popen(
        tap_argv(tmp_path / "s.jsonl", ["cat"]),
        stdin=tap_in.fileno(),
        stdout=tap_out.fileno(),
        env=tap_env(tmp_path / "rt"),
    )
    tap_in.close()
    tap_out.close()
    got = bytearray()
    reader = threading.Thread(target=lambda: got.extend(_read_socket(host_out)))
    reader.start()
    host_in.sendall(data)
    host_in.close()  # EOF for the tap: the server's stdin is closed, cat ends
    assert tap.wait(30) == 0
    reader.join(15)
    assert bytes(got) == data
    assert recorded_bytes(tmp_path / "s.jsonl", "out") == data
    assert recorded_bytes(tmp_path / "s.jsonl", "in") == data


def _read_socket(sock: object) -> bytes:
    out = bytearray()
    while chunk := sock.recv(1 << 16):  # type: ignore[attr-defined]
        out += chunk
    sock.close()  # type: ignore[attr-defined]
    return bytes(out)


def test_stderr_is_passed_through_and_recorded(tmp_path: Path) -> None:
    script = "import sys; sys.stderr.write('warming up\\n'); sys.stderr.buffer.write(b'\\xff!\\n')"
    done = run_tap(tmp_path, [PY, "-c", script])
    assert done.stderr == b"warming up\n\xff!\n"
    lines = [e.raw for e in read_session(tmp_path / "s.jsonl").events if e.type == "stderr"]
    assert lines == ["warming up", "\ufffd!"]


@pytest.mark.parametrize("code", [0, 3, 42])
def test_exit_code_is_the_servers(tmp_path: Path, code: int) -> None:
    done = run_tap(tmp_path, ["sh", "-c", f"exit {code}"])
    assert done.returncode == code
    notes = [e.raw for e in read_session(tmp_path / "s.jsonl").events if e.type == "note"]
    assert f"server exited (code {code})" in notes


def test_a_server_killed_by_a_signal_kills_the_tap_with_the_same_signal(tmp_path: Path) -> None:
    done = run_tap(tmp_path, ["sh", "-c", "kill -KILL $$"])
    assert done.returncode == -signal.SIGKILL
    notes = [e.raw for e in read_session(tmp_path / "s.jsonl").events if e.type == "note"]
    assert "server exited (killed by SIGKILL)" in notes


def test_command_not_found_exits_127_and_says_why(tmp_path: Path) -> None:
    done = run_tap(tmp_path, ["/nonexistent/server"])
    assert done.returncode == 127
    assert b"cannot start '/nonexistent/server'" in done.stderr
    assert done.stdout == b""
    notes = [e.raw for e in read_session(tmp_path / "s.jsonl").events if e.type == "note"]
    assert any("did not start" in str(n) for n in notes)


def test_no_command_is_a_usage_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [PY, "-m", "inspector", "tap", "--name", "x"],
        capture_output=True, env=tap_env(tmp_path), timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert b"after --" in done.stderr


def _wait_for(predicate: object, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        time.sleep(0.02)
    raise AssertionError("timed out")


TRAPPING_SERVER = (
    "import signal, sys, time\n"
    "def on(sig, _f):\n"
    "    sys.stdout.write('got %d\\n' % sig); sys.stdout.flush(); sys.exit(sig)\n"
    "for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1):\n"
    "    signal.signal(s, on)\n"
    "sys.stdout.write('ready\\n'); sys.stdout.flush()\n"
    "while True: time.sleep(0.05)\n"
)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1])
def test_the_hosts_signals_are_forwarded_once(tmp_path: Path, sig: signal.Signals) -> None:
    proc = subprocess.Popen(
        tap_argv(tmp_path / "s.jsonl", [PY, "-c", TRAPPING_SERVER]),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=tap_env(tmp_path / "rt"),
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"ready\n"
        proc.send_signal(sig)
        assert proc.stdout.readline() == f"got {int(sig)}\n".encode()
        assert proc.wait(15) == int(sig)  # the server's own exit code
    finally:
        proc.kill()
        proc.wait()
    notes = [e.raw for e in read_session(tmp_path / "s.jsonl").events if e.type == "note"]
    assert f"the host sent {sig.name}; forwarded to the server" in notes


def test_host_closing_stdin_starts_the_shutdown_ladder(tmp_path: Path) -> None:
    """A server that ignores stdin EOF and SIGTERM: closed stdin, then SIGTERM, then SIGKILL."""
    stubborn = (
        "import signal, sys, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "print('up', flush=True)\nwhile True: time.sleep(0.05)\n"
    )
    started = time.monotonic()
    done = run_tap(tmp_path, [PY, "-c", stubborn], b"", "--grace", "0.3")
    assert time.monotonic() - started < 20
    assert done.returncode == -signal.SIGKILL
    notes = [str(e.raw) for e in read_session(tmp_path / "s.jsonl").events if e.type == "note"]
    assert notes[0] == "the host closed stdin; the server's stdin was closed too"
    assert any("sending SIGTERM" in n for n in notes)
    assert any("sending SIGKILL" in n for n in notes)


def test_a_flood_is_relayed_whole_even_when_the_recording_falls_behind(tmp_path: Path) -> None:
    """A tiny recording budget: the host still gets every byte, the file says what is missing."""
    flood = (
        'import sys\nline = b\'{"jsonrpc":"2.0","method":"flood","params":{"x":"\''
        " + b'y' * 900 + b'\"}}\\n'\nfor _ in range(20000): sys.stdout.buffer.write(line)\n"
    )
    env = tap_env(tmp_path / "rt", MCP_INSPECTOR_TAP_BUDGET="20000")
    done = subprocess.run(
        tap_argv(tmp_path / "s.jsonl", [PY, "-c", flood]),
        capture_output=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0
    line = b'{"jsonrpc":"2.0","method":"flood","params":{"x":"' + b"y" * 900 + b'"}}\n'
    assert done.stdout == line * 20000
    recorded = read_session(tmp_path / "s.jsonl")
    gaps = [str(e.raw) for e in recorded.events if e.type == "note" and "gap" in str(e.raw)]
    assert gaps, "the recording must say it fell behind"
    assert all("relayed but not recorded" in g for g in gaps)
    frames = recorded.frames()
    assert 0 < len(frames) < 20000
    assert all(e.kind == "notification" for e in frames)  # no fragment recorded as a frame


def test_an_unwritable_session_file_does_not_stop_the_relay(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    done = subprocess.run(
        tap_argv(blocker / "s.jsonl", ["cat"]),
        input=WEIRD, capture_output=True, env=tap_env(tmp_path / "rt"), timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 0
    assert done.stdout == WEIRD
    assert b"mcp-inspector-qt tap: not recording: cannot write the session file" in done.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_stops_the_recording_not_the_relay(tmp_path: Path) -> None:
    done = subprocess.run(
        tap_argv(Path("/dev/full"), ["cat"]),
        input=WEIRD * 2000, capture_output=True, env=tap_env(tmp_path / "rt"), timeout=30,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0
    assert done.stdout == WEIRD * 2000
    assert b"not recording" in done.stderr


def test_a_running_tap_is_listed_owner_only_and_removed_at_the_end(tmp_path: Path) -> None:
    runtime = tmp_path / "rt"
    proc = subprocess.Popen(
        [*tap_argv(tmp_path / "s.jsonl", ["cat"])[:4], "--name", "my server",
         *tap_argv(tmp_path / "s.jsonl", ["cat"])[4:]],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=tap_env(runtime),
    )  # fmt: skip
    try:
        _wait_for(lambda: list_taps(runtime / "taps"))
        (entry,) = list_taps(runtime / "taps")
        assert entry.pid == proc.pid
        assert entry.name == "my server"
        assert entry.session_file == (tmp_path / "s.jsonl").resolve()
        assert entry.entry_file is not None
        assert stat.S_IMODE(entry.entry_file.stat().st_mode) == 0o600
        assert stat.S_IMODE((runtime / "taps").stat().st_mode) == 0o700
        assert json.loads(entry.entry_file.read_text())["command"] == "cat"
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(15)
    assert list_taps(runtime / "taps") == []


def test_entries_that_are_not_owner_only_or_stale_are_ignored(tmp_path: Path) -> None:
    folder = tmp_path / "taps"
    folder.mkdir()
    entry = {"pid": os.getpid(), "session_file": "/x.jsonl", "name": "n", "started": "t"}
    loose = folder / "1.json"
    loose.write_text(json.dumps(entry))
    loose.chmod(0o644)
    assert list_taps(folder) == []
    loose.chmod(0o600)
    assert [e.name for e in list_taps(folder)] == ["n"]
    stale = folder / "2.json"
    stale.write_text(json.dumps({**entry, "pid": 2**22 + 12345}))
    stale.chmod(0o600)
    assert len(list_taps(folder)) == 1
    assert not stale.exists()  # a tap killed without cleaning up


def test_secret_env_values_are_redacted_in_the_file(tmp_path: Path) -> None:
    token = "sk-test-0123456789abcdef"
    line = b'{"jsonrpc":"2.0","id":1,"method":"x","params":{"t":"' + token.encode() + b'"}}\n'
    done = subprocess.run(
        tap_argv(tmp_path / "s.jsonl", ["cat"]),
        input=line, capture_output=True, env=tap_env(tmp_path / "rt", MY_API_TOKEN=token),
        timeout=30, check=False,
    )  # fmt: skip
    assert done.stdout == line  # the relay never changes a message
    text = (tmp_path / "s.jsonl").read_text()
    assert token not in text
    assert "•••redacted•••" in text


if sys.platform == "win32":  # pragma: no cover
    pytestmark = pytest.mark.skip("POSIX only")


def test_a_server_that_never_reads_stdin_pushes_back_on_the_host(tmp_path: Path) -> None:
    """As with the bare server, the host's writes block once the pipes are full: the tap
    does not swallow the host's data into a buffer of its own."""
    deaf = "import sys, time\nprint('up', flush=True)\ntime.sleep(60)\n"
    proc = subprocess.Popen(
        tap_argv(tmp_path / "s.jsonl", [PY, "-c", deaf]),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=tap_env(tmp_path / "rt"),
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    try:
        assert proc.stdout.readline() == b"up\n"
        os.set_blocking(proc.stdin.fileno(), False)
        line = b'{"jsonrpc":"2.0","method":"notifications/x"}\n' * 1000
        written = 0
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                written += os.write(proc.stdin.fileno(), line)
            except BlockingIOError:
                time.sleep(0.05)
                try:
                    written += os.write(proc.stdin.fileno(), line)
                except BlockingIOError:
                    break
        assert written < 2 * 1024 * 1024  # three pipes' worth at most, not everything
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) == -signal.SIGTERM
    finally:
        proc.kill()
        proc.wait()


def test_a_tap_killed_outright_takes_its_server_along(tmp_path: Path) -> None:
    """SIGKILL cannot be forwarded; the server must not be left running without a host."""
    pid_file = tmp_path / "server.pid"
    server = f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
    server += "print('up', flush=True)\ntime.sleep(60)\n"
    proc = subprocess.Popen(
        tap_argv(tmp_path / "s.jsonl", [PY, "-c", server]),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=tap_env(tmp_path / "rt"),
    )  # fmt: skip
    try:
        assert proc.stdout is not None and proc.stdout.readline() == b"up\n"
        server_pid = int(pid_file.read_text())
        proc.kill()
        proc.wait(10)
        _wait_for(lambda: not _alive(server_pid))
    finally:
        proc.kill()
        proc.wait()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie is as good as gone
        return f.read().split(") ")[1][0] != "Z"


def _recorder_of(tap_pid: int, timeout: float = 15.0) -> int:
    """The pid of a running tap's recorder process (its child running recorder_process)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                cmdline = (entry / "cmdline").read_bytes()
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if ppid == tap_pid and b"inspector.tap.recorder_process" in cmdline:
                return int(entry.name)
        time.sleep(0.05)
    raise AssertionError("the tap's recorder process was not found")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_recorder_far_behind_is_not_killed_it_finishes_after_the_tap(tmp_path: Path) -> None:
    """The recorder runs at the lowest priority: on a machine kept busy it may not have
    finished when the server ends (here it is stopped outright). The tap exits after its
    wait, says so, and leaves the recorder to finish: no byte of the file is lost."""
    server = (
        "import sys\nsys.stdin.buffer.readline()\n"
        'for i in range(500): sys.stdout.buffer.write(b\'{"jsonrpc":"2.0","method":"n",'
        '"params":{"i":%d}}\\n\' % i)\n'
    )
    session = tmp_path / "s.jsonl"
    tap = subprocess.Popen(
        tap_argv(session, [PY, "-c", server]),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=tap_env(tmp_path / "rt", MCP_INSPECTOR_TAP_RECORDER_WAIT="1"),
    )
    recorder = _recorder_of(tap.pid)
    deadline = time.monotonic() + 15
    while not session.exists():  # it has started (and ignores the host's signals)
        assert time.monotonic() < deadline, "the recorder did not start"
        time.sleep(0.02)
    os.kill(recorder, signal.SIGSTOP)
    try:
        out, err = tap.communicate(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n', timeout=30)
    finally:
        os.kill(recorder, signal.SIGCONT)
    assert tap.returncode == 0
    assert out.count(b"\n") == 500  # the host got everything at once
    assert b"the recorder is still writing the session file" in err
    deadline = time.monotonic() + 20
    while b"server exited" not in session.read_bytes():  # its last note: the file is done
        assert time.monotonic() < deadline, "the recorder did not finish the file"
        time.sleep(0.05)
    assert session.exists(), err
    assert recorded_bytes(session, "in") == out
    notes = [str(e.raw) for e in read_session(session).events if e.type == "note"]
    assert any("server exited" in n for n in notes), notes
