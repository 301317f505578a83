"""The recorder process: reads what the relay sends over its pipe and writes the session
file (`TapRecording`). It runs at a lower priority and ignores the signals a terminal or a
host sends to the tap's group: it ends when the relay closes the pipe, after writing
everything it was given.

    python -m inspector.tap.recorder_process SESSION_FILE ABOUT_JSON T0 OUT,IN,STDERR

ABOUT_JSON says what the header needs: {"command": [...], "name": ..., "pid": ...}. The
control messages come on stdin; OUT,IN,STDERR are the descriptors of the streams' data
pipes (see `link`): a control message "N bytes of S" means N more bytes wait in S's pipe.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import time
from typing import Final

from inspector.tap.link import DATA_STREAMS, HEADER, STREAM_CODES
from inspector.tap.recording import DEFAULT_BUDGET, TapRecording
from inspector.tap.session_header import tap_header, tap_redactor

__all__ = ["PipeReader", "main", "serve"]

_STREAMS = {code: name for name, code in STREAM_CODES.items()}
BUDGET_ENV = "MCP_INSPECTOR_TAP_BUDGET"
READ_PAUSE: Final = 0.005


def _say(text: str) -> None:
    with contextlib.suppress(OSError):
        os.write(2, f"mcp-inspector-qt tap: {text}\n".encode())


class PipeReader:
    """Reads the relay's pipe in big gulps, at most every READ_PAUSE seconds: during a
    flood the recorder wakes a few hundred times a second, not once per message, and
    leaves the CPU to the relay, the server and the host (the pipe holds what arrives
    meanwhile, up to its size; beyond that the relay records a gap)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buf = bytearray()
        self.pos = 0
        self._last = 0.0

    def _fill(self) -> bool:
        wait = READ_PAUSE - (time.monotonic() - self._last)
        if wait > 0:
            time.sleep(wait)
        try:
            data = os.read(self.fd, 1 << 20)
        except OSError:
            return False
        self._last = time.monotonic()
        if not data:
            return False
        if self.pos:
            del self.buf[: self.pos]
            self.pos = 0
        self.buf += data
        return True

    def read(self, size: int) -> bytes | None:
        while len(self.buf) - self.pos < size:
            if not self._fill():
                return None
        start = self.pos
        self.pos += size
        return bytes(self.buf[start : self.pos])


def serve(control: PipeReader, data: dict[str, PipeReader], recording: TapRecording) -> None:
    """Feed the recording from the relay's messages until the control pipe ends."""
    last: str | None = None
    while True:
        head = control.read(HEADER.size)
        if head is None:
            break
        code, mono, wall, size = HEADER.unpack(head)
        name = _STREAMS.get(code, "")
        if name.startswith("gap-"):
            recording.gap(name[4:], size, mono, wall)
            continue
        source = data.get(name, control)
        payload = source.read(size) if size else b""
        if payload is None:
            break
        if name in ("out", "in", "stderr"):
            recording.chunk(name, payload, mono, wall)
        elif name == "note":
            recording.note(payload.decode("utf-8", "replace"), None, mono, wall)
        elif name == "last":
            last = payload.decode("utf-8", "replace")
    recording.close(last)


def main(argv: list[str]) -> int:
    path, about, t0 = argv[0], json.loads(argv[1]), float(argv[2])
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(19)  # the relay, the server and the host come first
    with contextlib.suppress(OSError, AttributeError):
        # Linux: run only on CPU time nobody else wants (weaker than nice 19, and any
        # other task that wakes up takes the CPU at once)
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    budget = os.environ.get(BUDGET_ENV, "")
    recording = TapRecording(
        path,
        tap_header(about["command"], about.get("name", ""), tap_pid=about.get("pid")),
        redactor=tap_redactor(),
        budget=int(budget) if budget.isdigit() else DEFAULT_BUDGET,
        on_error=lambda why: _say(f"not recording: {why}"),
        t0=t0,
    )
    if not recording.start():
        return 0  # the relay sees the pipe close and stops sending; it goes on relaying
    fds = [int(fd) for fd in argv[3].split(",")] if len(argv) > 3 else []
    data = {stream: PipeReader(fd) for stream, fd in zip(DATA_STREAMS, fds, strict=False)}
    serve(PipeReader(sys.stdin.fileno()), data, recording)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
