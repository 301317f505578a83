"""The relay's two paths: tee/splice between pipes (Linux) and the read/write copy for
anything else. Both byte-exact, both hand every chunk to the recorder first, and a full
recorder pipe is a gap, never a wait."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from inspector.tap.link import HEADER, STREAM_CODES, RecorderLink
from inspector.tap.pumps import Pump
from inspector.tap.splicing import can_splice
from tests.helpers.tap import recorded_bytes, tap_argv, tap_env
from tests.helpers.waiting import wait_until
from tests.tap.test_tap_relay import WEIRD

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="tee/splice are Linux system calls"
)
_STREAMS = {code: name for name, code in STREAM_CODES.items()}


class FakeRecorder:
    """The recorder process's side of a link: reads the control and data pipes whole."""

    def __init__(self) -> None:
        pipes = {name: os.pipe() for name in ("control", "out", "in", "stderr")}
        self.read_ends = {name: r for name, (r, _) in pipes.items()}
        self.link = RecorderLink(
            pipes["control"][1], {n: pipes[n][1] for n in ("out", "in", "stderr")}
        )

    def drain(self, fd: int) -> bytes:
        os.set_blocking(fd, False)
        out = bytearray()
        while True:
            try:
                data = os.read(fd, 1 << 20)
            except BlockingIOError:
                return bytes(out)
            if not data:
                return bytes(out)
            out += data

    def read_control(self) -> None:
        """Read the control pipe: its messages (inline chunks count as their stream) and,
        per stream, the bytes recorded, in order (from the data pipe or inline)."""
        raw = self.drain(self.read_ends["control"])
        data = {s: self.drain(self.read_ends[s]) for s in ("out", "in", "stderr")}
        taken = dict.fromkeys(data, 0)
        self.found: list[tuple[str, int]] = []
        self.recorded = {s: bytearray() for s in data}
        self.inline = 0
        pos = 0
        while pos < len(raw):
            code, _mono, _wall, size = HEADER.unpack_from(raw, pos)
            pos += HEADER.size
            name = _STREAMS[code]
            if name.startswith("inline-"):
                name = name[len("inline-") :]
                self.recorded[name] += raw[pos : pos + size]
                self.inline += 1
                pos += size
            elif name in ("note", "last"):
                pos += size
            elif name in data:
                self.recorded[name] += data[name][taken[name] : taken[name] + size]
                taken[name] += size
            self.found.append((name, size))

    def messages(self) -> list[tuple[str, int]]:
        self.read_control()
        return self.found

    def close(self) -> None:
        for fd in self.read_ends.values():
            os.close(fd)


def pump_through(src_data: bytes, dst: int, recorder: FakeRecorder) -> Pump:
    """Feed `src_data` into a fresh pipe and pump it to `dst` as the server's stdout."""
    r, w = os.pipe()
    pump = Pump("stdout", r, dst, "in", recorder.link)
    pump.start()
    writer = threading.Thread(target=lambda: (os.write(w, src_data), os.close(w)))
    writer.start()
    return pump


@linux_only
def test_a_flood_pipe_to_pipe_goes_by_splice_byte_for_byte_and_is_recorded_first() -> None:
    recorder = FakeRecorder()
    data = WEIRD * 3000  # one write of ~0.5 MB: reads come back full, a flood
    r_dst, w_dst = os.pipe()
    assert can_splice(r_dst, w_dst)
    got = bytearray()
    reader = threading.Thread(target=lambda: got.extend(_read_all(r_dst)))
    reader.start()
    pump = pump_through(data, w_dst, recorder)
    assert pump.join(15)
    os.close(w_dst)
    reader.join(15)
    assert bytes(got) == data
    assert pump.spliced
    messages = recorder.messages()
    assert bytes(recorder.recorded["in"]) == data
    assert {name for name, _ in messages} == {"in"}
    assert sum(size for _, size in messages) == len(data)
    recorder.close()


@linux_only
def test_a_full_recorder_pipe_is_a_gap_and_the_relay_goes_on() -> None:
    """Nobody reads the recorder's data pipe: once it is full, the rest is counted as a gap
    and the destination still gets every byte."""
    recorder = FakeRecorder()
    data = b'{"jsonrpc":"2.0","method":"m","params":{"x":"' + b"y" * 4000 + b'"}}\n'
    data *= 1500  # 6 MB: far more than the recorder's 1 MiB pipe
    r_dst, w_dst = os.pipe()
    got = bytearray()
    reader = threading.Thread(target=lambda: got.extend(_read_all(r_dst)))
    reader.start()
    pump = pump_through(data, w_dst, recorder)
    assert pump.join(30)
    os.close(w_dst)
    reader.join(15)
    assert bytes(got) == data
    messages = recorder.messages()
    sent = sum(size for name, size in messages if name == "in")
    dropped = sum(size for name, size in messages if name == "gap-in")
    assert dropped > 0 and sent + dropped == len(data)
    assert recorder.link.dropped_total == dropped
    assert data.startswith(bytes(recorder.recorded["in"][:4096]))  # what came, came whole
    assert len(recorder.recorded["in"]) == sent
    recorder.close()


@linux_only
def test_messages_one_at_a_time_are_copied_and_recorded_inline() -> None:
    """A host and a server trading small messages: each is read, recorded with its header
    in one write on the control pipe, and written on; no zero-copy for them."""
    recorder = FakeRecorder()
    r_src, w_src = os.pipe()
    r_dst, w_dst = os.pipe()
    pump = Pump("stdout", r_src, w_dst, "in", recorder.link)
    pump.start()
    lines = [WEIRD[: 40 + i] + b"\n" for i in range(50)]
    for line in lines:
        os.write(w_src, line)
        assert os.read(r_dst, 1 << 16) == line  # each goes on before the next is written
    os.close(w_src)
    assert pump.join(15)
    os.close(w_dst)
    os.close(r_dst)
    assert not pump.spliced
    messages = recorder.messages()
    assert recorder.inline == len(lines)
    assert bytes(recorder.recorded["in"]) == b"".join(lines)
    assert messages == [("in", len(line)) for line in lines]
    recorder.close()


@linux_only
def test_a_flood_then_calm_goes_back_to_copying() -> None:
    recorder = FakeRecorder()
    r_src, w_src = os.pipe()
    r_dst, w_dst = os.pipe()
    got = bytearray()
    reader = threading.Thread(target=_read_into, args=(r_dst, got))
    reader.start()
    pump = Pump("stdout", r_src, w_dst, "in", recorder.link)
    pump.start()
    flood = b"f" * 1023 + b"\n"
    os.write(w_src, flood * 200)  # 200 KiB at once
    wait_until(lambda: len(got) >= len(flood) * 200, "the flood through", 15)
    for i in range(20):  # then one small message at a time
        os.write(w_src, b"calm %d\n" % i)
        time.sleep(0.01)
    os.close(w_src)
    assert pump.join(15)
    os.close(w_dst)
    reader.join(15)
    expected = flood * 200 + b"".join(b"calm %d\n" % i for i in range(20))
    assert bytes(got) == expected
    assert pump.spliced
    recorder.read_control()
    assert bytes(recorder.recorded["in"]) == expected
    assert recorder.inline >= 15  # the calm messages went inline again
    recorder.close()


def test_a_file_as_destination_takes_the_copying_path(tmp_path: Path) -> None:
    recorder = FakeRecorder()
    data = WEIRD * 300
    with (tmp_path / "out.bin").open("wb") as f:
        pump = pump_through(data, f.fileno(), recorder)
        assert pump.join(15)
    assert (tmp_path / "out.bin").read_bytes() == data
    assert not pump.spliced
    assert sum(size for name, size in recorder.messages() if name == "in") == len(data)
    assert bytes(recorder.recorded["in"]) == data
    recorder.close()


def _read_all(fd: int) -> bytes:
    out = bytearray()
    _read_into(fd, out)
    return bytes(out)


def _read_into(fd: int, out: bytearray) -> None:
    """Read `fd` to its end into `out` as the bytes come (a test can watch it grow)."""
    while chunk := os.read(fd, 1 << 16):
        out += chunk
    os.close(fd)


@pytest.mark.parametrize("copy", ["0", "1"], ids=["zero-copy", "copying"])
def test_the_tap_is_byte_exact_on_both_paths(tmp_path: Path, copy: str) -> None:
    big = b'{"jsonrpc":"2.0","id":2,"result":{"blob":"' + b"z" * 300_000 + b'"}}\n'
    data = WEIRD * 50 + big + WEIRD
    done = subprocess.run(
        tap_argv(tmp_path / "s.jsonl", ["cat"]),
        input=data, capture_output=True, timeout=30, check=False,
        env=tap_env(tmp_path / "rt", MCP_INSPECTOR_TAP_COPY=copy),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == data
    assert recorded_bytes(tmp_path / "s.jsonl", "out") == data
    assert recorded_bytes(tmp_path / "s.jsonl", "in") == data


def test_a_host_whose_stdout_is_a_file_gets_every_byte(tmp_path: Path) -> None:
    """The tap's stdout is a regular file (not a pipe): splice is not used for it."""
    data = WEIRD * 200
    with (tmp_path / "host-out.bin").open("wb") as out:
        done = subprocess.run(
            tap_argv(tmp_path / "s.jsonl", ["cat"]),
            input=data, stdout=out, stderr=subprocess.PIPE, timeout=30, check=False,
            env=tap_env(tmp_path / "rt"),
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "host-out.bin").read_bytes() == data
    assert recorded_bytes(tmp_path / "s.jsonl", "in") == data


def test_the_host_sees_eof_when_the_server_closes_stdout(tmp_path: Path) -> None:
    """As without the tap: the end of the server's stdout reaches the host then, not when
    the tap exits (here the server lives on for a while after closing it)."""
    server = ["sh", "-c", "echo hello; exec >&-; sleep 4"]
    proc = subprocess.Popen(
        tap_argv(tmp_path / "s.jsonl", server),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=tap_env(tmp_path / "rt"),
    )  # fmt: skip
    assert proc.stdout is not None and proc.stdin is not None
    try:
        assert proc.stdout.read() == b"hello\n"
        assert proc.poll() is None  # EOF came while the server (and the tap) still ran
    finally:
        proc.stdin.close()
        proc.wait(30)
        proc.stdout.close()
        assert proc.stderr is not None
        proc.stderr.close()
    assert proc.returncode == 0


def test_a_non_blocking_slow_host_pipe_gets_every_byte(tmp_path: Path) -> None:
    """The host's stdout pipe is O_NONBLOCK and read slowly: the relay waits for room
    (splice answers EAGAIN) and loses nothing."""
    r, w = os.pipe()
    os.set_blocking(w, False)
    data = (b"x" * 1023 + b"\n") * 3000
    proc = subprocess.Popen(
        tap_argv(tmp_path / "s.jsonl", ["cat"]),
        stdin=subprocess.PIPE, stdout=w, stderr=subprocess.DEVNULL,
        env=tap_env(tmp_path / "rt"),
    )  # fmt: skip
    os.close(w)
    assert proc.stdin is not None
    stdin = proc.stdin
    feeder = threading.Thread(target=lambda: (stdin.write(data), stdin.close()))
    feeder.start()
    got = bytearray()
    while chunk := os.read(r, 8192):
        got += chunk
        time.sleep(0.0005)
    os.close(r)
    feeder.join(15)
    assert proc.wait(30) == 0
    assert bytes(got) == data


def test_an_inline_chunk_that_finds_the_control_pipe_full_is_a_gap_not_a_wait() -> None:
    """Nobody reads the control pipe: small chunks go inline while there is room, then
    each is a gap (merged into one waiting gap message), and the call never blocks."""
    recorder = FakeRecorder()
    chunk = b'{"jsonrpc":"2.0","method":"m"}\n'
    started = time.monotonic()
    for _ in range(60_000):  # ~3.6 MB of records: more than the 1 MiB control pipe
        recorder.link.record("in", chunk, time.monotonic(), time.time())
    assert time.monotonic() - started < 20
    assert recorder.link.dropped_total > 0
    recorder.read_control()
    gaps = sum(size for name, size in recorder.found if name == "gap-in")
    kept = len(recorder.recorded["in"])
    assert kept + recorder.link.dropped_total == 60_000 * len(chunk)
    assert gaps <= recorder.link.dropped_total  # the rest of the gap still waits for room
    assert bytes(recorder.recorded["in"]) == chunk * (kept // len(chunk))
    recorder.close()
