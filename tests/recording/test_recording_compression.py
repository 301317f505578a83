"""Files people keep, the writing side (issue 27): a `.gz` or `.zst` recording is written
compressed and readable after a kill -9 up to the last flushed batch; a rotating recording
goes on in `NAME.partN.jsonl[.gz]` parts, each starting with the header plus its part
number, cut only between whole lines, its times counted from the session's start."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import textwrap
import zlib
from pathlib import Path
from typing import Any

import pytest
import zstandard

from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.recording.writer import (
    Rotation,
    SessionRecorder,
    parse_duration,
    parse_size,
    part_path,
)
from inspector.traffic.record import TrafficRecord
from tests.helpers.peers import PY, REPO
from tests.helpers.waiting import wait_until

HEADER: dict[str, Any] = {"type": "header", "format": "mcp-inspector-session", "version": 1}


def _logs(start: int, n: int, mono: float = 0.0) -> list[TrafficRecord]:
    out = []
    for i in range(start, start + n):
        params = {"level": "info", "data": f"line {i}"}
        message = {"jsonrpc": "2.0", "method": "notifications/message", "params": params}
        text = json.dumps(message, separators=(",", ":"))
        record = TrafficRecord(
            "in", "notification", text, mono + i, 1.0e9 + i, "stdio", parse_frame(text), len(text)
        )
        out.append(record)
    return out


def _decompress(path: Path) -> bytes:
    """What a streaming reader gets from a file, stopping (not failing) where a killed
    writer left it: everything before the cut."""
    data = path.read_bytes()
    if path.name.endswith(".gz"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data)
    if path.name.endswith(".zst"):
        out = bytearray()
        reader = zstandard.ZstdDecompressor().stream_reader(path.open("rb"))
        try:
            while chunk := reader.read(65536):
                out += chunk
        except zstandard.ZstdError:
            pass  # a frame cut short: what came before it is in `out`
        return bytes(out)
    return data


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in _decompress(path).splitlines()]


def _record(
    path: Path, batches: int, per_batch: int, rotation: Rotation | None = None
) -> SessionRecorder:
    recorder = SessionRecorder(path, HEADER, rotation=rotation, t0=0.0)
    recorder.start()
    for b in range(batches):
        recorder.observe_many(_logs(b * per_batch, per_batch))
        wait_until(lambda: not recorder._items, "the batch written", 10)
    recorder.close()
    return recorder


@pytest.mark.parametrize("name", ["s.jsonl.gz", "s.jsonl.zst"])
def test_a_compressed_recording_holds_every_line_and_standard_tools_read_it(
    tmp_path: Path, name: str
) -> None:
    path = tmp_path / name
    recorder = _record(path, batches=3, per_batch=50)
    assert path.read_bytes()[:4] in (b"\x1f\x8b\x08\x00", b"\x28\xb5\x2f\xfd")
    lines = _lines(path)
    assert lines[0] == HEADER and recorder.lines_written == 151
    assert [json.loads(line["text"])["params"]["data"] for line in lines[1:]] == [
        f"line {i}" for i in range(150)
    ]
    if name.endswith(".gz"):  # closed: a whole gzip member (its trailer checks the data)
        assert gzip.decompress(path.read_bytes()) == _decompress(path)
        tool = subprocess.run(["gzip", "-dc", str(path)], capture_output=True, check=True)
        assert tool.stdout == _decompress(path)
    else:
        assert zstandard.ZstdDecompressor().decompressobj().decompress(path.read_bytes()) == (
            _decompress(path)
        )


CHILD = textwrap.dedent(
    """
    import json, sys, time, zlib
    from pathlib import Path
    import zstandard
    from tests.recording.test_recording_compression import _logs, HEADER
    from inspector.recording.writer import SessionRecorder

    def flushed(path):
        data = path.read_bytes()
        if path.name.endswith(".gz"):
            return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data)
        return zstandard.ZstdDecompressor().decompressobj().decompress(data)

    recorder = SessionRecorder(sys.argv[1], HEADER, t0=0.0)
    recorder.start()
    n = 0
    while True:
        recorder.observe_many(_logs(n, 100))
        n += 100
        # "written" once the batch's last line is in the file (taken off the queue is not
        # yet written: under load the writer thread may not have flushed it)
        last = json.dumps(json.dumps(f"line {n - 1}"))[1:-1].encode()
        while last not in flushed(Path(sys.argv[1])):
            time.sleep(0.001)
        print("written", n, flush=True)
    """
)


@pytest.mark.parametrize("name", ["kill.jsonl.gz", "kill.jsonl.zst"])
def test_a_compressed_recording_killed_mid_way_reads_up_to_the_kill(
    tmp_path: Path, name: str
) -> None:
    path = tmp_path / name
    proc = subprocess.Popen(
        [PY, "-c", CHILD, str(path)], stdout=subprocess.PIPE, text=True, cwd=REPO,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )  # fmt: skip
    assert proc.stdout is not None
    try:
        done = 0
        while done < 1000:
            line = proc.stdout.readline()
            assert line, "the child stopped"
            done = int(line.split()[1])
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL
    text = _decompress(path)
    assert text.endswith(b"\n")  # whole lines: each batch was flushed whole
    lines = [json.loads(line) for line in text.splitlines()]
    data = [json.loads(line["text"])["params"]["data"] for line in lines[1:]]
    # Every batch the child saw written, in order, nothing missing.
    assert data[:done] == [f"line {i}" for i in range(done)]
    assert data == [f"line {i}" for i in range(len(data))]
    if name.endswith(".gz"):  # (gzip's own reader: everything, then "ended early")
        with gzip.open(path, "rb") as f, pytest.raises(EOFError):
            assert f.read(len(text)) == text
            f.read()


def test_rotation_by_size_cuts_between_lines_and_each_part_stands_alone(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tap.jsonl"
    recorder = _record(path, batches=4, per_batch=30, rotation=Rotation(size=4000))
    parts = sorted(tmp_path.iterdir(), key=lambda p: (len(p.name), p.name))
    assert parts == recorder.parts
    assert [p.name for p in parts[:3]] == ["tap.jsonl", "tap.part2.jsonl", "tap.part3.jsonl"]
    events: list[dict[str, Any]] = []
    for n, part in enumerate(parts, 1):
        assert part.stat().st_size <= 4000 or part == parts[-1]
        text = part.read_bytes()
        assert text.endswith(b"\n")
        lines = [json.loads(line) for line in text.splitlines()]  # every line whole
        assert lines[0] == (HEADER if n == 1 else {**HEADER, "part": n})
        assert len(lines) > 1
        events += lines[1:]
    # All frames, in order; their times go on counting from the session's start.
    assert [e["t"] for e in events] == [float(i) for i in range(120)]


def test_rotation_of_a_gzip_recording_keeps_the_suffix(tmp_path: Path) -> None:
    path = tmp_path / "tap.jsonl.gz"
    recorder = _record(path, batches=4, per_batch=40, rotation=Rotation(size=600))
    assert [p.name for p in recorder.parts[:2]] == ["tap.jsonl.gz", "tap.part2.jsonl.gz"]
    events = []
    for n, part in enumerate(recorder.parts, 1):
        lines = [json.loads(line) for line in gzip.decompress(part.read_bytes()).splitlines()]
        assert lines[0].get("part") == (None if n == 1 else n)
        events += lines[1:]
    assert len(events) == 160


def test_rotation_by_age(tmp_path: Path) -> None:
    path = tmp_path / "age.jsonl"
    recorder = SessionRecorder(path, HEADER, rotation=Rotation(every=0.01), t0=0.0)
    recorder.start()
    n = 0

    def one_more_batch() -> bool:
        nonlocal n
        recorder.observe_many(_logs(n, 5))
        n += 5
        return len(recorder.parts) >= 3

    wait_until(one_more_batch, "three parts", 10)
    recorder.close()
    assert [p.name for p in recorder.parts[:3]] == [
        "age.jsonl",
        "age.part2.jsonl",
        "age.part3.jsonl",
    ]
    events = [json.loads(x) for p in recorder.parts for x in p.read_text().splitlines()]
    assert [e["t"] for e in events if e["type"] == "frame"] == [float(i) for i in range(n)]


def test_sizes_durations_and_part_names_as_people_write_them() -> None:
    assert parse_size("100M") == 100 << 20
    assert parse_size("1.5g") == 3 << 29
    assert parse_size("512k") == 512 << 10
    assert parse_size("4096") == 4096
    assert parse_duration("1h") == 3600
    assert parse_duration("30m") == 1800
    assert parse_duration("90s") == 90
    assert parse_duration("1d") == 86400
    for bad in ("", "-1M", "0", "ten", "5X"):
        with pytest.raises(ValueError, match="is not a size"):
            parse_size(bad)
    with pytest.raises(ValueError, match="is not a duration"):
        parse_duration("an hour")
    assert part_path(Path("/x/tap.jsonl"), 2) == Path("/x/tap.part2.jsonl")
    assert part_path(Path("tap.jsonl.gz"), 3) == Path("tap.part3.jsonl.gz")
    assert part_path(Path("a.b.jsonl.zst"), 10) == Path("a.b.part10.jsonl.zst")
    assert part_path(Path("tap.jsonl"), 1) == Path("tap.jsonl")
    with pytest.raises(ValueError, match=r"ends in \.jsonl"):
        part_path(Path("tap.log"), 2)
    with pytest.raises(ValueError, match=r"ends in \.jsonl"):
        SessionRecorder("tap.txt", HEADER, rotation=Rotation(size=10))


def test_cli_record_writes_a_compressed_rotated_session(tmp_path: Path) -> None:
    from tests.cli.test_cli import DEMO, run_cli

    path = tmp_path / "c.jsonl.zst"
    # A compressed part's size is known after a flushed batch: the progress notifications,
    # 100 ms apart, come in batches of their own, and each batch makes the part too big.
    code, out, err = run_cli(
        "--method", "tools/call", "--tool-name", "slow_count", "--tool-arg", "steps=3",
        "--tool-arg", "delay_ms=100", "--record", str(path), "--rotate-size", "1",
        server=DEMO,
    )  # fmt: skip
    assert code == 0, err
    parts = sorted(tmp_path.glob("c*.jsonl.zst"), key=lambda p: (len(p.name), p.name))
    assert parts[0] == path and parts[1].name == "c.part2.jsonl.zst"
    events = []
    for n, part in enumerate(parts, 1):
        lines = _lines(part)
        assert lines[0]["type"] == "header" and lines[0].get("part") == (n if n > 1 else None)
        events += lines[1:]
    answers = [json.loads(e["text"]) for e in events if e["type"] == "frame" and e["dir"] == "in"]
    assert any(a.get("result") == out for a in answers)
    code, _out, err = run_cli(
        "--method", "tools/list", "--rotate-every", "1h", server=DEMO
    )  # fmt: skip
    assert code == 2 and "need --record FILE" in err


TICKER = textwrap.dedent(
    """
    import json, sys, threading, time
    out = sys.stdout
    def send(obj):
        out.write(json.dumps(obj) + "\\n"); out.flush()
    def tick():
        n = 0
        while True:
            send({"jsonrpc": "2.0", "method": "notifications/message",
                  "params": {"level": "info", "data": "tick %d" % n}})
            n += 1
            time.sleep(0.002)
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("method") == "initialize":
            send({"jsonrpc": "2.0", "id": msg["id"], "result": {
                "protocolVersion": "2025-06-18", "capabilities": {"logging": {}},
                "serverInfo": {"name": "ticker", "version": "1"}}})
        elif msg.get("method") == "notifications/initialized":
            threading.Thread(target=tick, daemon=True).start()
        elif "id" in msg and "method" in msg:
            send({"jsonrpc": "2.0", "id": msg["id"], "result": {}})
    """
)


def test_the_gui_killed_while_recording_leaves_its_session_up_to_the_kill(
    tmp_path: Path,
) -> None:
    """The desktop app records a server that never stops talking; kill -9 it: the file
    holds every message up to the kill, in order, in whole lines. (With "Compress
    recordings" on, the same holds: `test_a_compressed_recording_killed_mid_way...`.)"""
    compression = "none"
    server = tmp_path / "ticker.py"
    server.write_text(TICKER)
    config, data = tmp_path / "config", tmp_path / "data"
    config.mkdir()
    (config / "window.ini").write_text(f"[recording]\ncompression={compression}\n")
    env = dict(
        os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen",
        MCP_INSPECTOR_CONFIG_DIR=str(config), MCP_INSPECTOR_DATA_DIR=str(data),
    )  # fmt: skip
    proc = subprocess.Popen(
        [PY, "-m", "inspector", "gui", "--stdio", f"{PY} {server}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=tmp_path,
    )  # fmt: skip
    sessions = data / "sessions"

    def ticks() -> int:
        found = list(sessions.glob("*.jsonl*")) if sessions.exists() else []
        return _decompress(found[0]).count(b"tick ") if found else 0

    try:
        wait_until(lambda: ticks() >= 200, "200 ticks recorded", 60)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    [path] = sessions.glob("*.jsonl*")
    assert path.name.endswith(".jsonl.gz" if compression == "gzip" else ".jsonl")
    text = _decompress(path)
    # Whole lines up to the last flushed batch (a plain file may end inside a line the
    # kill cut: everything before it is whole).
    lines = text.splitlines()
    if not text.endswith(b"\n"):
        lines = lines[:-1]
    events = [json.loads(line) for line in lines]
    assert events[0]["type"] == "header"
    data_seen = [
        json.loads(e["text"])["params"]["data"]
        for e in events
        if e["type"] == "frame" and "tick " in e["text"]
    ]
    assert len(data_seen) >= 200
    assert data_seen == [f"tick {n}" for n in range(len(data_seen))]  # all, in order
