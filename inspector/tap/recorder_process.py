"""The recorder process: reads what the relay sends over its pipe and writes the session
file (`TapRecording`). It runs at a lower priority and ignores the signals a terminal or a
host sends to the tap's group: it ends when the relay closes the pipe, after writing
everything it was given.

    python -m inspector.tap.recorder_process SESSION_FILE ABOUT_JSON T0 OUT,IN,STDERR

ABOUT_JSON says what the header needs: {"command": [...], "name": ..., "pid": ...}, and
how the file rotates, if it does: "rotate": [SIZE_BYTES or null, SECONDS or null]. The
control messages come on stdin; OUT,IN,STDERR are the descriptors of the streams' data
pipes (see `link`): a control message "N bytes of S" means N more bytes wait in S's pipe;
"N bytes of S inline", that they follow the message on the control pipe.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import sys
import time
from typing import Any, Final

from inspector.common.terminal_text import TerminalLogFormatter, terminal_text
from inspector.recording.writer import Rotation
from inspector.tap.link import DATA_STREAMS, HEADER, STREAM_CODES
from inspector.tap.recording import DEFAULT_BUDGET, TapRecording
from inspector.tap.session_header import tap_header, tap_redactor

__all__ = ["PipeReader", "main", "serve"]

_STREAMS = {code: name for name, code in STREAM_CODES.items()}
BUDGET_ENV = "MCP_INSPECTOR_TAP_BUDGET"
READ_PAUSE: Final = 0.005


def _say(text: str) -> None:
    with contextlib.suppress(OSError):
        os.write(2, terminal_text(f"mcp-inspector-qt tap: {text}\n").encode())


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

    def holds(self, size: int) -> bool:
        """`size` bytes are here already (reading them will not wait)."""
        return len(self.buf) - self.pos >= size

    def read(self, size: int) -> bytes | None:
        while len(self.buf) - self.pos < size:
            if not self._fill():
                return None
        start = self.pos
        self.pos += size
        return bytes(self.buf[start : self.pos])


def serve(control: PipeReader, data: dict[str, PipeReader], recording: TapRecording) -> None:
    """Feed the recording from the relay's messages until the control pipe ends.

    Neighbouring gaps of one stream (a flood the recording cannot follow sends one per
    relay wake-up) become one note: the first one's times and the sum of their sizes. A
    gap is held only while more messages are already here to read, so the note is never
    late for a live follower."""
    last: str | None = None
    held: list[Any] | None = None  # [stream, size, mono, wall]: a gap being merged

    def write_held() -> None:
        nonlocal held
        if held is not None:
            recording.gap(*held)
            held = None

    while True:
        if held is not None and not control.holds(HEADER.size):
            write_held()
        head = control.read(HEADER.size)
        if head is None:
            break
        code, mono, wall, size = HEADER.unpack(head)
        name = _STREAMS.get(code, "")
        if name.startswith("gap-"):
            if held is not None and held[0] == name[4:]:
                held[1] += size
            else:
                write_held()
                held = [name[4:], size, mono, wall]
            continue
        write_held()
        source = data.get(name, control)  # an inline chunk, a note: on the control pipe
        payload = source.read(size) if size else b""
        if payload is None:
            break
        if name in ("out", "in", "stderr"):
            recording.chunk(name, payload, mono, wall)
        elif name.startswith("inline-"):
            recording.chunk(name[7:], payload, mono, wall)
        elif name == "note":
            recording.note(payload.decode("utf-8", "replace"), None, mono, wall)
        elif name == "last":
            last = payload.decode("utf-8", "replace")
    write_held()
    recording.close(last)


def main(argv: list[str]) -> int:
    path, about, t0 = argv[0], json.loads(argv[1]), float(argv[2])
    # Its warnings (the recording's) on stderr as the last-resort handler writes them,
    # but safe on a terminal.
    errors = logging.StreamHandler()
    errors.setFormatter(TerminalLogFormatter())
    logging.getLogger().addHandler(errors)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_IGN)
    # Its priority (nice 19, SCHED_IDLE) was lowered by the relay before this interpreter
    # started (`relay.lower_priority`), so that its start-up already yields to the host.
    budget = os.environ.get(BUDGET_ENV, "")
    size, every = about.get("rotate") or (None, None)
    recording = TapRecording(
        path,
        tap_header(about["command"], about.get("name", ""), tap_pid=about.get("pid")),
        redactor=tap_redactor(),
        budget=int(budget) if budget.isdigit() else DEFAULT_BUDGET,
        on_error=lambda why: _say(f"not recording: {why}"),
        t0=t0,
        rotation=Rotation(size, every) if size or every else None,
    )
    if not recording.start():
        return 0  # the relay sees the pipe close and stops sending; it goes on relaying
    fds = [int(fd) for fd in argv[3].split(",")] if len(argv) > 3 else []
    data = {stream: PipeReader(fd) for stream, fd in zip(DATA_STREAMS, fds, strict=False)}
    serve(PipeReader(sys.stdin.fileno()), data, recording)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
