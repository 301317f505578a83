"""The duplex: one thread serving both of the host's streams, awake a moment after each
message. Byte-exact both ways, every chunk recorded before it goes on, a full destination
holds back only its own way, a closed one is reported and its source still drained."""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from inspector.tap.duplex import SPIN, Duplex, Way
from inspector.tap.relay import StdioTap, TapOptions, _spin_from_env
from tests.helpers.waiting import wait_until
from tests.tap.test_tap_relay import WEIRD
from tests.tap.test_tap_zero_copy import FakeRecorder, _read_into

pytestmark = [
    pytest.mark.timeout(60),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pipes as on Linux"),
]


@dataclass
class Line:
    """Two ways between a "host" and a "server" through a duplex. The server's side is
    pipes (the tap makes them); the host's side pipes (Python hosts) or socket pairs (Node
    hosts: Claude Desktop, VS Code, Cursor)."""

    spin: float = SPIN
    host: str = "pipes"
    recorder: FakeRecorder = field(default_factory=FakeRecorder)
    events: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        # host writes -> [host_w | in_r] -> duplex -> [srv_in_w | srv_in_r] -> server reads
        self.in_r, self.host_w = host_pair(self.host)
        self.srv_in_r, self.srv_in_w = os.pipe()
        # server writes -> [out_w | srv_out_r] -> duplex -> [host_out_w | host_r] -> host
        self.srv_out_r, self.out_w = os.pipe()
        self.host_r, self.host_out_w = host_pair(self.host)
        self.ways = [
            Way("stdin", self.in_r, self.srv_in_w, "out",
                on_eof=lambda: self.events.append("stdin eof"),
                on_dst_closed=lambda: self.events.append("stdin dst closed")),
            Way("stdout", self.srv_out_r, self.host_out_w, "in",
                on_eof=lambda: self.events.append("stdout eof"),
                on_dst_closed=lambda: self.events.append("stdout dst closed")),
        ]  # fmt: skip
        self.duplex = Duplex(self.ways, self.recorder.link, spin=self.spin)
        self.duplex.start()

    def end(self) -> None:
        for fd in (self.host_w, self.out_w):
            os.close(fd)
        assert self.duplex.join(15)

    def close_all(self) -> None:
        for fd in (self.srv_in_r, self.host_r, self.srv_in_w, self.host_out_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.recorder.close()


def host_pair(kind: str) -> tuple[int, int]:
    """(read end, write end): a pipe, or the two ends of a socket pair."""
    if kind == "pipes":
        return os.pipe()
    a, b = socket.socketpair()
    return a.detach(), b.detach()


HOSTS = pytest.mark.parametrize("host", ["pipes", "sockets"])


@pytest.fixture(params=["pipes", "sockets"])
def line(request: pytest.FixtureRequest) -> Iterator[Line]:
    made = Line(host=request.param)
    yield made
    made.close_all()


@HOSTS
@pytest.mark.parametrize("spin", [SPIN, 0.0], ids=["awake", "asleep"])
def test_round_trips_both_ways_are_byte_exact_inline_and_recorded_in_order(
    spin: float, host: str
) -> None:
    line = Line(spin=spin, host=host)
    requests = [WEIRD[: 30 + i] + b"\n" for i in range(100)]
    answers = [b"answer %d \xff\xfe not json\n" % i for i in range(100)]
    for request, answer in zip(requests, answers, strict=True):
        os.write(line.host_w, request)
        assert os.read(line.srv_in_r, 1 << 16) == request  # the server gets it as sent
        os.write(line.out_w, answer)
        assert os.read(line.host_r, 1 << 16) == answer
    line.end()
    assert line.events == ["stdin eof", "stdout eof"] or sorted(line.events) == [
        "stdin eof",
        "stdout eof",
    ]
    messages = line.recorder.messages()
    assert bytes(line.recorder.recorded["out"]) == b"".join(requests)
    assert bytes(line.recorder.recorded["in"]) == b"".join(answers)
    assert line.recorder.inline == 200  # one inline record per message, nothing spliced
    expected = [(s, len(m)) for pair in zip(requests, answers, strict=True) for s, m in
                zip(("out", "in"), pair, strict=True)]  # fmt: skip
    assert messages == expected  # the recording has them in the order they crossed
    assert not any(way.spliced for way in line.ways)
    assert line.ways[0].bytes_moved == len(b"".join(requests))
    line.close_all()


def test_a_flood_is_spliced_and_calm_goes_back_to_copying(line: Line) -> None:
    got = bytearray()
    reader = threading.Thread(target=_read_into, args=(line.host_r, got))
    reader.start()
    flood = b"f" * 1023 + b"\n"
    os.write(line.out_w, flood * 200)  # 200 KiB at once
    wait_until(lambda: len(got) >= len(flood) * 200, "the flood through", 15)
    for i in range(20):
        os.write(line.out_w, b"calm %d\n" % i)
        time.sleep(0.01)
    line.end()
    os.close(line.host_out_w)
    reader.join(15)
    line.host_r = -1
    expected = flood * 200 + b"".join(b"calm %d\n" % i for i in range(20))
    assert bytes(got) == expected
    assert line.ways[1].spliced and line.ways[1].floods >= 1  # lent out for the flood
    line.recorder.read_control()
    assert bytes(line.recorder.recorded["in"]) == expected
    assert line.recorder.inline >= 15  # given back: the calm messages went inline again
    assert line.ways[1].copied >= 15


def test_a_destination_nobody_reads_holds_back_only_its_own_way(line: Line) -> None:
    """The host stops reading (a flood of 4 MiB fills every pipe on the way): requests
    still reach the server at once, and once the host reads again it gets every byte."""
    flood = (WEIRD * 40)[:4095] + b"\n"
    data = flood * 1024
    writer = threading.Thread(target=lambda: os.write(line.out_w, data))
    writer.start()
    # The flood is lent to a thread of its own; the host reads nothing, so every buffer on
    # the way fills and the writer is held back. (The test must not look into the pipes:
    # a splice into the host's full socket holds the pipe's lock, and FIONREAD or
    # F_GETPIPE_SZ on it would then wait in the kernel, where no timeout reaches.)
    wait_until(lambda: line.ways[1].floods >= 1, "the flood lent out", 15)
    assert writer.is_alive()
    for i in range(20):
        request = b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % i
        os.write(line.host_w, request)
        assert os.read(line.srv_in_r, 1 << 16) == request
    got = bytearray()
    while len(got) < len(data):
        got += os.read(line.host_r, 1 << 20)
    writer.join(15)
    assert bytes(got) == data
    line.end()
    line.recorder.read_control()
    recorded = bytes(line.recorder.recorded["in"])
    gaps = sum(size for name, size in line.recorder.found if name == "gap-in")
    assert len(recorded) + gaps == len(data)


def test_a_closed_destination_is_reported_and_its_source_still_drained(line: Line) -> None:
    """The host goes away (closes its end of the tap's stdout): the duplex says so once,
    goes on reading the server's output so that the server is not stuck, and records it."""
    os.close(line.host_r)
    line.host_r = -1
    data = WEIRD * 4000  # ~0.7 MB: more than the pipes hold
    writer = threading.Thread(target=lambda: os.write(line.out_w, data))
    writer.start()
    writer.join(15)
    assert not writer.is_alive()  # the server's write went through: nothing is stuck
    line.end()
    assert line.events.count("stdout dst closed") == 1
    assert line.ways[1].bytes_moved == len(data)
    line.recorder.read_control()
    recorded = bytes(line.recorder.recorded["in"])
    gaps = sum(size for name, size in line.recorder.found if name == "gap-in")
    assert len(recorded) + gaps == len(data)


@HOSTS
def test_a_source_closed_under_the_duplex_ends_its_way(host: str) -> None:
    """What the relay does when the server closes its stdin: that way's callback closes
    the tap's stdin, the source of the same way; the way ends, the other one goes on."""
    line = Line(host=host)

    def closed() -> None:
        line.events.append("closed")
        os.close(line.in_r)

    line.ways[0].on_dst_closed = closed
    os.close(line.srv_in_r)  # the server closed its stdin
    os.write(line.host_w, b"one\n")
    assert line.ways[0].join(10)
    assert line.events == ["closed", "stdin eof"]
    os.write(line.out_w, b"still here\n")
    assert os.read(line.host_r, 100) == b"still here\n"
    os.close(line.out_w)
    assert line.ways[1].join(15)
    os.close(line.host_w)
    assert line.duplex.join(15)
    line.srv_in_r = line.in_r = -1
    line.close_all()


def _streams_of(tmp_path: Path, host_in: int, host_out: int) -> StdioTap:
    """A tap's streams started between the given host descriptors and fresh server pipes
    (no server, no recorder: the shutdown callbacks do nothing); everything ends when
    the test closes what it holds."""
    tap = StdioTap(TapOptions(command=["x"], session_file=tmp_path / "s.jsonl",
                              stdin=host_in, stdout=host_out, stderr=2))  # fmt: skip
    tap._host_closed_stdin = tap._server_stdout_ended = lambda: None  # type: ignore[method-assign]
    srv_in_r, srv_in = os.pipe()
    srv_out, srv_out_w = os.pipe()
    srv_err, srv_err_w = os.pipe()
    tap._start_streams(srv_in, srv_out, srv_err)
    for fd in (srv_out_w, srv_err_w, srv_in_r):
        os.close(fd)  # the "server" is gone at once: its streams end
    return tap


def test_the_tap_uses_the_duplex_between_pipes_and_threads_otherwise(tmp_path: Path) -> None:
    host_in, host_in_w = os.pipe()
    host_out_r, host_out = os.pipe()
    tap = _streams_of(tmp_path, host_in, host_out)
    assert tap.duplex is not None and [p.name for p in tap.pumps] == ["stderr"]
    os.close(host_in_w)
    assert tap.duplex.join(10) and tap.pumps[0].join(10)
    host_in, host_in_w = host_pair("sockets")  # a Node host: socket pairs
    host_out_r, host_out_s = host_pair("sockets")
    tap = _streams_of(tmp_path, host_in, host_out_s)
    assert tap.duplex is not None
    assert tap.duplex.ways[1].can_tee  # server pipe -> host socket: tee and splice
    assert not tap.duplex.ways[0].can_tee  # host socket -> server pipe: no tee from a socket
    os.close(host_in_w)
    assert tap.duplex.join(10)
    os.close(host_out_r)
    with (tmp_path / "out.txt").open("wb") as f:  # a file as the tap's stdout: threads
        host_in, host_in_w = os.pipe()
        tap = _streams_of(tmp_path, host_in, f.fileno())
        assert tap.duplex is None
        assert [p.name for p in tap.pumps] == ["stdin", "stdout", "stderr"]
        os.close(host_in_w)
        assert all(p.join(10) for p in tap.pumps)
    os.close(host_out_r)


def test_the_spin_comes_from_the_environment() -> None:
    assert _spin_from_env("") == SPIN
    assert _spin_from_env("0") == 0.0
    assert _spin_from_env("250") == pytest.approx(0.00025)
    assert _spin_from_env("nonsense") == SPIN
    assert _spin_from_env("-5") == SPIN
    assert _spin_from_env("999999999") == 0.01  # at most 10 ms: more only burns a CPU
