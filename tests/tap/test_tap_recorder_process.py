"""The recorder process: its reading loop (`serve`) against real pipes and a real session
file (neighbouring gaps of one stream become one note, and a gap is never held back from a
live follower while nothing else arrives), its priority from its first instruction, and
what its start-up loads."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from inspector.recording.reader import read_session
from inspector.tap.link import HEADER, STREAM_CODES
from inspector.tap.recorder_process import PipeReader, serve
from inspector.tap.recording import TapRecording
from inspector.tap.relay import lower_priority
from inspector.tap.session_header import tap_header
from tests.helpers.peers import PY, REPO
from tests.helpers.tap import tap_argv, tap_env


def _message(kind: str, size: int, mono: float, payload: bytes = b"") -> bytes:
    return HEADER.pack(STREAM_CODES[kind], mono, 1_700_000_000.0 + mono, size) + payload


def _gap_notes(path: Path) -> list[str]:
    return [
        str(e.raw) for e in read_session(path).events if e.type == "note" and "gap" in str(e.raw)
    ]


def _serve(path: Path) -> tuple[int, int, TapRecording, threading.Thread]:
    recording = TapRecording(path, tap_header(["server"], "t"))
    assert recording.start()
    control_r, control_w = os.pipe()
    data_r, data_w = os.pipe()
    data = {"in": PipeReader(data_r)}
    thread = threading.Thread(target=serve, args=(PipeReader(control_r), data, recording))
    thread.start()
    return control_w, data_w, recording, thread


def test_neighbouring_gaps_of_one_stream_become_one_note(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    control_w, data_w, _, thread = _serve(path)
    frame = b'{"jsonrpc":"2.0","method":"m"}\n'
    os.write(data_w, frame)
    # all sent in one write: the recorder reads them together, as in a flood (a frame
    # first: after a gap, the framer rightly skips to the next line)
    os.write(
        control_w,
        _message("in", len(frame), 0.9)
        + _message("gap-in", 1000, 1.0)
        + _message("gap-in", 2000, 1.1)
        + _message("gap-in", 3000, 1.2)
        + _message("gap-out", 10, 1.3)
        + _message("gap-out", 20, 1.4)
        + _message("gap-in", 7, 1.6),
    )
    os.close(control_w)
    os.close(data_w)
    thread.join(10)
    assert not thread.is_alive()
    notes = _gap_notes(path)
    assert len(notes) == 3, notes
    assert "6,000 bytes from the server to the host" in notes[0]
    assert "30 bytes from the host to the server" in notes[1]
    assert "7 bytes from the server to the host" in notes[2]
    assert [e.raw for e in read_session(path).frames()] == [frame.decode().rstrip("\n")]


def test_inline_chunks_and_data_pipe_chunks_make_one_stream_in_order(tmp_path: Path) -> None:
    """A small chunk rides inline on the control pipe, a big one by the data pipe; the
    stream is both, in the order of the control messages, cut into frames across them."""
    path = tmp_path / "s.jsonl"
    control_w, data_w, _, thread = _serve(path)
    first = b'{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0",'
    big = b'"method":"b","params":{"x":"' + b"y" * 6000 + b'"}}\n'
    last = b'{"jsonrpc":"2.0","method":"c"}\n'
    os.write(data_w, big)
    os.write(
        control_w,
        _message("inline-in", len(first), 1.0, first)
        + _message("in", len(big), 1.1)
        + _message("inline-in", len(last), 1.2, last),
    )
    os.close(control_w)
    os.close(data_w)
    thread.join(10)
    assert not thread.is_alive()
    methods = [e.raw.split('"method":"')[1][0] for e in read_session(path).frames()]
    assert methods == ["a", "b", "c"]
    assert _gap_notes(path) == []


def test_a_gap_is_written_at_once_when_nothing_else_waits(tmp_path: Path) -> None:
    """Held for merging only while more messages are already read: a follower sees it
    while the tap is still running."""
    path = tmp_path / "s.jsonl"
    control_w, data_w, _, thread = _serve(path)
    try:
        os.write(control_w, _message("gap-in", 4096, 1.0))
        deadline = time.monotonic() + 10
        while not _gap_notes(path) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _gap_notes(path), "the gap note waited for the next message"
    finally:
        os.close(control_w)
        os.close(data_w)
        thread.join(10)
    assert len(_gap_notes(path)) == 1


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(p) for p in (task / "children").read_text().split()]
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux scheduling classes")
def test_the_recorder_runs_idle_from_its_first_instruction(tmp_path: Path) -> None:
    """The relay lowers the recorder's priority before its interpreter starts, so even its
    start-up (imports) yields to the host and the server."""
    server = [PY, "-c", "import time; print('up', flush=True); time.sleep(30)"]
    proc = subprocess.Popen(
        tap_argv(tmp_path / "s.jsonl", server),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=tap_env(tmp_path / "rt"),
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"up\n"
        recorders = [
            pid
            for pid in _children(proc.pid)
            if b"recorder_process" in Path(f"/proc/{pid}/cmdline").read_bytes()
        ]
        assert len(recorders) == 1
        assert os.sched_getscheduler(recorders[0]) == os.SCHED_IDLE
        assert os.getpriority(os.PRIO_PROCESS, recorders[0]) == 19
    finally:
        proc.kill()
        proc.wait(10)


def test_lower_priority_applies_before_the_program_runs() -> None:
    code = "import os; print(os.sched_getscheduler(0) == os.SCHED_IDLE, os.nice(0))"
    done = subprocess.run(
        [PY, "-c", code], preexec_fn=lower_priority, capture_output=True, check=True, timeout=30
    )
    assert done.stdout.split() == [b"True", b"19"]


def test_the_recorder_loads_no_linter_and_no_session_layer() -> None:
    """Its start-up is CPU the host's first calls compete with (even at idle priority, on
    a busy machine): jsonschema and the session machinery are not needed to write frames."""
    code = (
        "import sys, inspector.tap.recorder_process\n"
        "print(sorted(m for m in ('jsonschema', 'inspector.session', 'inspector.lint.live')"
        " if m in sys.modules))"
    )
    done = subprocess.run(
        [PY, "-c", code], capture_output=True, check=True, timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    assert done.stdout.strip() == b"[]"
