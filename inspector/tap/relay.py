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
import ctypes
import datetime as dt
import json
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
from typing import TYPE_CHECKING, Final

from inspector.common.terminal_text import terminal_text
from inspector.tap.duplex import SPIN, Duplex, Way
from inspector.tap.link import DATA_STREAMS, RecorderLink
from inspector.tap.pumps import Pump, close_fd
from inspector.tap.registry import TapEntry, register
from inspector.tap.splicing import grow_pipe, is_stream

if TYPE_CHECKING:  # the relay's start (what the host waits for) loads no recording code
    from inspector.recording.writer import Rotation

__all__ = [
    "FORWARDED_SIGNALS",
    "StdioTap",
    "TapOptions",
    "exit_like",
    "lower_priority",
    "run_stdio_tap",
]

FORWARDED_SIGNALS: Final = tuple(
    getattr(signal, name)
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2")
    if hasattr(signal, name)
)
EXIT_NOT_FOUND: Final = 127
_PR_SET_PDEATHSIG: Final = 1
EXIT_CANNOT_RUN: Final = 126
COPY_ENV: Final = "MCP_INSPECTOR_TAP_COPY"
SPIN_ENV: Final = "MCP_INSPECTOR_TAP_SPIN_US"
RECORDER_WAIT_ENV: Final = "MCP_INSPECTOR_TAP_RECORDER_WAIT"
SERVER_PIPE_SIZE: Final = 1 << 20


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
    rotation: Rotation | None = None  # the session file goes on in parts (writer.Rotation)
    stdin: int = 0
    stdout: int = 1
    stderr: int = 2
    # tee/splice between pipes (Linux); MCP_INSPECTOR_TAP_COPY=1 forces the copying path
    zero_copy: bool = field(default_factory=lambda: os.environ.get(COPY_ENV, "") != "1")
    # how long the tap waits for the recorder to finish the file before exiting without it
    recorder_wait: float = field(
        default_factory=lambda: _seconds_from_env(os.environ.get(RECORDER_WAIT_ENV, ""), 15.0)
    )
    # how long the relay stays awake after a message (`duplex`); MCP_INSPECTOR_TAP_SPIN_US
    spin: float = field(default_factory=lambda: _spin_from_env(os.environ.get(SPIN_ENV, "")))


def _seconds_from_env(value: str, default: float) -> float:
    """Seconds from the environment; the default if unset or not a number >= 0."""
    try:
        seconds = float(value)
    except ValueError:
        return default
    return seconds if seconds >= 0 and seconds != float("inf") else default


SPIN_MAX: Final = 0.01  # a bigger value would only burn a CPU: the answer is long in coming


def _spin_from_env(value: str) -> float:
    """Microseconds from the environment (0: sleep at once), at most 10 ms; the default if
    unset or bad."""
    return min(_seconds_from_env(value, SPIN * 1e6) / 1e6, SPIN_MAX)


def _say_on(fd: int) -> Callable[[str], None]:
    def say(text: str) -> None:
        with contextlib.suppress(OSError):
            os.write(fd, terminal_text(f"mcp-inspector-qt tap: {text}\n").encode())

    return say


class StdioTap:
    def __init__(self, options: TapOptions) -> None:
        self.o = options
        self.say = _say_on(options.stderr)
        self.t0 = time.monotonic()
        self.recorder: subprocess.Popen[bytes] | None = None
        self.link: RecorderLink | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        self.entry_file: Path | None = None
        self.pumps: list[Pump] = []  # the server's stderr last (and the others without a duplex)
        self.duplex: Duplex | None = None
        self._stdin_closed = threading.Event()

    def _start_recorder(self) -> None:
        """The recording runs in a process of its own (see `link`): a control pipe on its
        stdin, one data pipe per stream."""
        o = self.o
        about = json.dumps(
            {
                "command": list(o.command),
                "name": o.name,
                "pid": os.getpid(),
                "rotate": [o.rotation.size, o.rotation.every] if o.rotation else None,
            }
        )
        pipes = {name: os.pipe() for name in ("control", *DATA_STREAMS)}
        data_read = [pipes[name][0] for name in DATA_STREAMS]
        env = dict(os.environ)
        if o.budget is not None:
            env["MCP_INSPECTOR_TAP_BUDGET"] = str(o.budget)
        try:
            self.recorder = subprocess.Popen(
                [sys.executable, "-m", "inspector.tap.recorder_process",
                 str(o.session_file), about, repr(self.t0), ",".join(map(str, data_read))],
                stdin=pipes["control"][0], stdout=subprocess.DEVNULL, stderr=o.stderr,
                pass_fds=data_read, process_group=0, env=env,
                preexec_fn=lower_priority,  # before its imports, not after: see there
            )  # fmt: skip
        except OSError as exc:
            self.say(f"not recording: the recorder did not start ({exc.strerror or exc})")
            for _, write_end in pipes.values():
                os.close(write_end)
            return
        finally:
            for read_end, _ in pipes.values():
                os.close(read_end)
        self.link = RecorderLink(
            pipes["control"][1],
            {name: pipes[name][1] for name in DATA_STREAMS},
            on_broken=lambda why: self.say(f"not recording any more: {why}"),
        )

    def note(self, text: str) -> None:
        if self.link is not None:
            self.link.note(text, time.monotonic(), time.time())

    def _end_recording(self, last_note: str) -> None:
        if self.link is not None:
            self.link.close(last_note, time.monotonic(), time.time())
        if self.recorder is not None:
            try:
                self.recorder.wait(self.o.recorder_wait)
            except subprocess.TimeoutExpired:
                # It runs at the lowest priority: on a machine kept busy by others it may
                # be far behind. Killing it would lose what it holds; it ignores the
                # host's signals and ends by itself once it has written everything.
                self.say(
                    "the recorder is still writing the session file (the machine is busy); "
                    "it finishes on its own after the tap has exited"
                )

    def run(self) -> int:
        o = self.o
        # The server first: its start-up is the host's wait; the recorder is started
        # just after (the pumps start only then, so it misses nothing: the bytes wait in
        # the server's pipes).
        try:
            self.proc = subprocess.Popen(
                list(o.command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                process_group=0,
                preexec_fn=_die_with_parent,  # the relay has no threads yet
            )
        except OSError as exc:
            code = EXIT_NOT_FOUND if isinstance(exc, FileNotFoundError) else EXIT_CANNOT_RUN
            why = f"cannot start {o.command[0]!r}: {exc.strerror or exc}"
            self.say(why)
            self._start_recorder()
            self._end_recording(f"the server did not start: {why}")
            return code
        self._start_recorder()
        proc = self.proc
        assert proc.stdin and proc.stdout and proc.stderr
        previous = {sig: signal.signal(sig, self._forward) for sig in FORWARDED_SIGNALS}
        self._register(proc.pid)
        server_in, server_out, server_err = (
            proc.stdin.fileno(),
            proc.stdout.fileno(),
            proc.stderr.fileno(),
        )
        # The server's pipes are ours: as big as allowed, so that a flood moves in big
        # pieces (the host's own pipes are left as the host made them).
        for fd in (server_in, server_out, server_err):
            grow_pipe(fd, SERVER_PIPE_SIZE)
        out_done = self._start_streams(server_in, server_out, server_err)
        try:
            code = proc.wait()
            # The server is gone; what it wrote is still coming through (unless a child
            # of it holds the pipes open: then give up after a moment).
            out_done(2.0)
            self.pumps[-1].join(1.0)  # stderr
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            self._unregister()
        self._end_recording(_exit_note(code))
        return code

    def _start_streams(
        self, server_in: int, server_out: int, server_err: int
    ) -> Callable[[float], bool]:
        """Start relaying; returns how to wait for the server's stdout to be through.

        Between pipes and sockets (how hosts launch servers: Python hosts give pipes, Node
        hosts socket pairs) the host's two streams share one thread that stays awake a
        moment after each message (`duplex`); anything else (a terminal, a file) gets a
        blocking thread per stream (`pumps`). The server's stderr always has a thread of
        its own: nobody waits on it."""
        o, link = self.o, self.link
        to_server = (o.stdin, server_in, "out", self._host_closed_stdin, self._server_closed_stdin)
        to_host = (
            server_out,
            o.stdout,
            "in",
            self._server_stdout_ended,
            lambda: close_fd(server_out),
        )
        stderr = Pump("stderr", server_err, o.stderr, "stderr", link, zero_copy=o.zero_copy)
        if all(is_stream(fd) for fd in (o.stdin, server_in, server_out, o.stdout)):
            ways = [
                Way(name, src, dst, stream, on_eof=eof, on_dst_closed=closed)
                for name, (src, dst, stream, eof, closed) in zip(
                    ("stdin", "stdout"), (to_server, to_host), strict=True
                )
            ]
            self.duplex = Duplex(ways, link, zero_copy=o.zero_copy, spin=o.spin)
            self.duplex.start()
            done = ways[1].join
        else:
            self.pumps = [
                Pump(
                    name,
                    src,
                    dst,
                    stream,
                    link,
                    on_eof=eof,
                    on_dst_closed=closed,
                    zero_copy=o.zero_copy,
                )
                for name, (src, dst, stream, eof, closed) in zip(
                    ("stdin", "stdout"), (to_server, to_host), strict=True
                )
            ]
            for pump in self.pumps:
                pump.start()
            done = self.pumps[1].join
        self.pumps.append(stderr)
        stderr.start()
        return done

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
        self.note(f"the host sent {signal.Signals(sig).name}; forwarded to the server")

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

    def _server_stdout_ended(self) -> None:
        """The server's stdout ended: so does the tap's, at once, as the host would have
        seen it without the tap (not only when the tap exits, after the recording is
        finished). The descriptor stays taken (by /dev/null), so it is not reused."""
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(devnull, self.o.stdout)
            finally:
                os.close(devnull)

    def _server_closed_stdin(self) -> None:
        """The server closed its stdin: so does the tap, and the host's next write fails
        as it would have without the tap."""
        self._stdin_closed.set()
        self.note("the server closed its stdin; the tap closed its own")
        close_fd(self.o.stdin)

    def _host_closed_stdin(self) -> None:
        if self._stdin_closed.is_set():
            return
        proc = self.proc
        if proc is not None and proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()
        self.note("the host closed stdin; the server's stdin was closed too")
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
            self.note(
                f"the server did not exit {wait:g} s after stdin closed; sending "
                f"{signal.Signals(sig).name}"
            )
            self._signal(sig)


def lower_priority() -> None:
    """In the recorder's child process, before it runs Python: nice 19 and (Linux)
    SCHED_IDLE, which `exec` keeps: it runs only on CPU time nobody else wants, and the
    relay, the server and the host take the CPU from it at once. Set here, not by the
    recorder itself, because its start-up (an interpreter and the session writer's
    imports, about 0.15 s of CPU) would otherwise compete at the host's priority with the
    first calls it relays."""
    with contextlib.suppress(OSError):
        os.nice(19)
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def _die_with_parent() -> None:
    """In the server's child process, on Linux: if the tap is killed outright (SIGKILL,
    which cannot be forwarded), the server gets SIGKILL too, as it would without the tap."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)


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
