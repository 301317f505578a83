"""The stdio tap: start the server, relay stdin, stdout and stderr byte for byte, record
everything on the side, forward the host's signals, and exit as the server did.

The host launches `mcp-inspector-qt tap -- COMMAND ...` where it launched COMMAND. The
server runs in its own process group (a Ctrl+C in a terminal reaches only the tap, which
forwards it once, to the whole server group). When the host closes stdin, the server's
stdin is closed too, and the shutdown ladder follows (spec, lifecycle, stdio shutdown):
wait, then SIGTERM, then SIGKILL. The tap exits with the server's exit code; a server
killed by a signal makes the tap die of the same signal.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Final

from inspector.tap.pumps import Pump, close_fd
from inspector.tap.recording import DEFAULT_BUDGET, TapRecording
from inspector.tap.registry import TapEntry, register
from inspector.tap.session_header import tap_header, tap_redactor

__all__ = ["FORWARDED_SIGNALS", "StdioTap", "TapOptions", "exit_like", "run_stdio_tap"]

FORWARDED_SIGNALS: Final = tuple(
    getattr(signal, name)
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2")
    if hasattr(signal, name)
)
EXIT_NOT_FOUND: Final = 127
EXIT_CANNOT_RUN: Final = 126


@dataclass
class TapOptions:
    command: Sequence[str]
    session_file: Path
    name: str = ""
    grace: float = 10.0  # after the host closed stdin: wait this long, then SIGTERM
    term_grace: float = 5.0  # after SIGTERM: wait this long, then SIGKILL
    register: bool = True
    registry_dir: Path | None = None
    budget: int | None = None  # the recording's byte budget (tests make it tiny)
    stdin: int = 0
    stdout: int = 1
    stderr: int = 2
    say: Callable[[str], None] = field(default=lambda text: None)  # a line for our stderr


def _say_on(fd: int) -> Callable[[str], None]:
    def say(text: str) -> None:
        with contextlib.suppress(OSError):
            os.write(fd, f"mcp-inspector-qt tap: {text}\n".encode())

    return say


class StdioTap:
    def __init__(self, options: TapOptions) -> None:
        self.o = options
        self.say = _say_on(options.stderr)
        self.recording = TapRecording(
            options.session_file,
            tap_header(options.command, options.name),
            redactor=tap_redactor(),
            on_error=lambda why: self.say(f"not recording: {why}"),
            budget=DEFAULT_BUDGET if options.budget is None else options.budget,
        )
        self.proc: subprocess.Popen[bytes] | None = None
        self.entry_file: Path | None = None
        self._stdin_closed = threading.Event()

    def run(self) -> int:
        o = self.o
        self.recording.start()
        try:
            self.proc = subprocess.Popen(
                list(o.command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                process_group=0,
            )
        except OSError as exc:
            code = EXIT_NOT_FOUND if isinstance(exc, FileNotFoundError) else EXIT_CANNOT_RUN
            why = f"cannot start {o.command[0]!r}: {exc.strerror or exc}"
            self.say(why)
            self.recording.close(f"the server did not start: {why}")
            return code
        proc = self.proc
        assert proc.stdin and proc.stdout and proc.stderr
        previous = {sig: signal.signal(sig, self._forward) for sig in FORWARDED_SIGNALS}
        self._register(proc.pid)
        server_in, server_out, server_err = (
            proc.stdin.fileno(),
            proc.stdout.fileno(),
            proc.stderr.fileno(),
        )
        rec = self.recording.chunk
        pumps = [
            Pump(
                "stdin",
                o.stdin,
                server_in,
                lambda d: rec("out", d),
                on_eof=self._host_closed_stdin,
                on_dst_closed=self._server_closed_stdin,
            ),
            Pump(
                "stdout",
                server_out,
                o.stdout,
                lambda d: rec("in", d),
                on_dst_closed=lambda: close_fd(server_out),
            ),
            Pump("stderr", server_err, o.stderr, lambda d: rec("stderr", d)),
        ]
        for pump in pumps:
            pump.start()
        try:
            code = proc.wait()
            # The server is gone; what it wrote is still coming through (unless a child
            # of it holds the pipes open: then give up after a moment).
            pumps[1].join(2.0)
            pumps[2].join(1.0)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            self._unregister()
        self.recording.close(_exit_note(code))
        return code

    def _register(self, server_pid: int) -> None:
        o = self.o
        if not o.register:
            return
        entry = TapEntry(
            pid=os.getpid(),
            server_pid=server_pid,
            name=o.name or Path(o.command[0]).name,
            command=o.command[0],
            args=tuple(o.command[1:]),
            session_file=o.session_file.resolve(),
            started=dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds"),
        )
        try:
            self.entry_file = register(entry, o.registry_dir)
        except OSError as exc:
            self.say(f"the app cannot list this tap ({exc.strerror or exc}); still recording")

    def _unregister(self) -> None:
        if self.entry_file is not None:
            with contextlib.suppress(OSError):
                self.entry_file.unlink()
            self.entry_file = None

    # -- signals and shutdown ------------------------------------------------
    def _forward(self, sig: int, _frame: FrameType | None) -> None:
        self._signal(sig)
        self.recording.note(f"the host sent {signal.Signals(sig).name}; forwarded to the server")

    def _signal(self, sig: int) -> None:
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        except PermissionError:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(sig)

    def _server_closed_stdin(self) -> None:
        """The server closed its stdin: so does the tap, and the host's next write fails
        as it would have without the tap."""
        self._stdin_closed.set()
        self.recording.note("the server closed its stdin; the tap closed its own")
        close_fd(self.o.stdin)

    def _host_closed_stdin(self) -> None:
        if self._stdin_closed.is_set():
            return
        proc = self.proc
        if proc is not None and proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()
        self.recording.note("the host closed stdin; the server's stdin was closed too")
        threading.Thread(target=self._ladder, name="tap-shutdown", daemon=True).start()

    def _ladder(self) -> None:
        proc = self.proc
        assert proc is not None
        for sig, wait in ((signal.SIGTERM, self.o.grace), (signal.SIGKILL, self.o.term_grace)):
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline:
                if proc.poll() is not None:
                    return
                time.sleep(0.05)
            if proc.poll() is not None:
                return
            self.recording.note(
                f"the server did not exit {wait:g} s after stdin closed; sending "
                f"{signal.Signals(sig).name}"
            )
            self._signal(sig)


def _exit_note(code: int) -> str:
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"server exited (killed by {signal.Signals(-code).name})"
        return f"server exited (killed by signal {-code})"
    return f"server exited (code {code})"


def exit_like(code: int) -> int:
    """Make the tap's own exit look like the server's: the same code, or the same signal."""
    if code >= 0:
        return code
    sig = -code
    with contextlib.suppress(OSError, ValueError):  # SIGKILL has no handler to reset
        signal.signal(sig, signal.SIG_DFL)
    with contextlib.suppress(OSError, ValueError):
        os.kill(os.getpid(), sig)
        time.sleep(1.0)
    return 128 + sig


def run_stdio_tap(options: TapOptions) -> int:
    """Run the tap to the end; returns the server's exit code (negative: its signal)."""
    if sys.platform == "win32":  # pragma: no cover - POSIX only for now
        raise OSError("the stdio tap needs a POSIX system")
    return StdioTap(options).run()
