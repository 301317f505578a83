"""The stdio transport: a subprocess speaking newline-delimited JSON-RPC.

Bad input is the normal case. Lines that are not UTF-8 are passed on as bytes;
a line over `max_line_bytes` is cut to its head and flagged, never buffered
whole; stderr is its own stream; and the shutdown ladder (close stdin, wait,
SIGTERM, wait, SIGKILL) always ends the child.

EOF and the exit do not always come together, and the session must hear of the
end either way, not wait for request timeouts:

* the server exits while a process it started (inherited fds) keeps its stdout
  open, so EOF never comes: the pump notices the exit, stops reading a pipe that
  stays silent for a moment after it, and reports the end; close() then ends the
  leftover processes of the server's process group;
* the server closes its stdout but keeps running: reported as the end too (no
  answer can come any more); close() ends the process with the usual ladder.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
import logging
import os
import shutil
import signal
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from inspector.common.tasks import settle_tasks
from inspector.transports.base import (
    DEFAULT_MAX_MESSAGE_BYTES,
    LaunchError,
    Outgoing,
    StderrLine,
    Transport,
    TransportClosed,
    TransportClosedError,
    TransportError,
    TransportEvent,
    until_closed,
)
from inspector.transports.lines import LineSplitter

__all__ = ["DEFAULT_INHERITED_ENV", "StdioParams", "StdioTransport", "minimal_environment"]

log = logging.getLogger(__name__)

# Like the official SDKs: pass a small, safe environment unless told otherwise.
DEFAULT_INHERITED_ENV: Final = (
    (
        "APPDATA",
        "HOMEDRIVE",
        "HOMEPATH",
        "LOCALAPPDATA",
        "PATH",
        "PROCESSOR_ARCHITECTURE",
        "SYSTEMDRIVE",
        "SYSTEMROOT",
        "TEMP",
        "USERNAME",
        "USERPROFILE",
        "PROGRAMFILES",
    )
    if sys.platform == "win32"
    else ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "TMPDIR")
)
_CHUNK: Final = 256 * 1024  # one read; its complete lines go to the session together
_PIPE_BYTES: Final = 1024 * 1024
# Events waiting for the session; a frame event holds every line of one read (<= _CHUNK).
_QUEUE_ITEMS: Final = 256
# After the server exits, how often to look at its pipes, and how long a pipe may stay
# silent (still open: another process holds it) before we stop reading it.
_EXIT_POLL: Final = 0.1
_HELD_PIPE_GRACE: Final = 0.5
# How long a server may live on after closing its stdout before we report it as gone.
_STDOUT_EOF_GRACE: Final = 1.0


def minimal_environment() -> dict[str, str]:
    return {k: v for k in DEFAULT_INHERITED_ENV if (v := os.environ.get(k)) is not None}


def full_environment() -> dict[str, str]:
    """Our whole environment, minus what a frozen app (PyInstaller) adds for itself: its
    bootloader points the library path at the bundle (keeping the user's in *_ORIG), and a
    server must not load the bundle's libraries instead of its own."""
    env = dict(os.environ)
    if getattr(sys, "frozen", False):
        for name in ("LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH"):
            original = env.pop(f"{name}_ORIG", None)
            if original is None:
                env.pop(name, None)
            else:
                env[name] = original
    return env


@dataclass
class StdioParams:
    command: str
    args: Sequence[str] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    inherit_full_env: bool = False
    max_line_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    max_stderr_line_bytes: int = 64 * 1024
    stderr_tail_lines: int = 50
    close_grace: float = 2.0  # after closing stdin
    term_grace: float = 2.0  # after SIGTERM

    def command_line(self) -> str:
        import shlex

        return shlex.join([self.command, *self.args])


class StdioTransport(Transport):
    kind = "stdio"

    def __init__(self, params: StdioParams) -> None:
        self.params = params
        self._proc: asyncio.subprocess.Process | None = None
        self._queue: asyncio.Queue[TransportEvent] = asyncio.Queue(maxsize=_QUEUE_ITEMS)
        self._tasks: list[asyncio.Task[None]] = []
        self._stderr_tail: collections.deque[str] = collections.deque(
            maxlen=params.stderr_tail_lines
        )
        self._closing = False
        self._closed_event_sent = False
        self._write_lock = asyncio.Lock()
        # stream name -> loop time its reader started waiting for data (None: not waiting)
        self._waiting_since: dict[str, float | None] = {}
        self._readers: dict[asyncio.Task[None], str] = {}  # reader task -> pipe name
        self._held_pipes: tuple[str, ...] = ()  # pipes still open after the server exited

    @property
    def description(self) -> str:
        return self.params.command_line()

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    @property
    def stderr_tail(self) -> tuple[str, ...]:
        return tuple(self._stderr_tail)

    async def start(self) -> None:
        """Start the server. A no-op while it runs already (the CLI starts it before the
        session is built: `inspector.cli.early_server`)."""
        if self._proc is not None and not self._closing:
            return
        p = self.params
        env = full_environment() if p.inherit_full_env else minimal_environment()
        env.update(p.env)
        if not p.command.strip():
            raise LaunchError("no command given")
        if p.cwd is not None and not os.path.isdir(p.cwd):
            raise LaunchError(f"working directory does not exist: {p.cwd}")
        command = p.command
        if p.cwd is not None and os.sep in command and not os.path.isabs(command):
            command = os.path.join(p.cwd, command)  # as the OS starts it: from the server's cwd
        resolved = shutil.which(command, path=env.get("PATH"))
        if resolved is None:
            if os.sep in command and os.path.exists(command):
                raise LaunchError(f"not executable: {command}")
            if os.sep in command:  # a path is never looked up in PATH
                raise LaunchError(f"command not found: {command} (no such file)")
            raise LaunchError(f"command not found: {p.command} (PATH={env.get('PATH', '')})")
        try:
            self._proc = await asyncio.create_subprocess_exec(
                resolved,
                *p.args,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=env,
                cwd=p.cwd,
                limit=_CHUNK,
                start_new_session=sys.platform != "win32",
            )
        except OSError as exc:
            raise LaunchError(f"could not start {p.command}: {exc.strerror or exc}") from exc
        log.info("started %s (pid %s)", self.description, self._proc.pid)
        _widen_pipe(self._proc)
        self._tasks = [
            asyncio.create_task(self._pump(), name=f"stdio-pump-{self._proc.pid}"),
        ]

    async def send(self, text: str, *, info: Outgoing | None = None) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise TransportClosedError("the server is not running")
        if "\n" in text or "\r" in text:
            raise TransportError("a stdio frame cannot contain a line break")
        if self._closing or proc.returncode is not None or proc.stdin.is_closing():
            raise TransportClosedError(self._exit_description())
        try:
            data = text.encode("utf-8") + b"\n"
        except UnicodeEncodeError as exc:
            # Never put invalid UTF-8 on the wire (encode() escapes lone surrogates).
            raise TransportError(
                f"cannot send a lone surrogate (U+{ord(text[exc.start]):04X} at character "
                f"{exc.start}): not valid UTF-8; write it as a JSON escape"
            ) from exc
        async with self._write_lock:
            try:
                proc.stdin.write(data)
                await proc.stdin.drain()
            except (BrokenPipeError, ConnectionResetError) as exc:
                raise TransportClosedError(
                    f"the server closed its stdin ({self._exit_description()})"
                ) from exc

    def events(self) -> AsyncIterator[TransportEvent]:
        return until_closed(self._queue)

    def _exit_description(self) -> str:
        code = self._proc.returncode if self._proc else None
        if code is None:
            return "the server is shutting down"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"server exited (killed by {name})"
        return f"server exited (code {code})"

    async def _pump(self) -> None:
        proc = self._proc
        assert proc is not None and proc.stdout is not None and proc.stderr is not None
        self._readers = {
            asyncio.create_task(self._read_stdout(proc.stdout)): "stdout",
            asyncio.create_task(self._read_stderr(proc.stderr)): "stderr",
        }
        try:
            outcome = await self._watch(proc)
            if outcome == "exited":
                await proc.wait()
        except asyncio.CancelledError:
            self._cancel_readers()
            raise
        except Exception as exc:  # report, never vanish silently
            self._cancel_readers()
            log.exception("stdio pump failed")
            await self._emit_closed(f"reading from the server failed: {exc}", error=True)
            return
        unexpected = not self._closing
        if outcome == "stdout closed":
            # No answer can come any more; say so now rather than let requests time out.
            # (stderr is still read, for the tail; close() ends the process.)
            reason = f"the server closed its stdout but is still running (pid {proc.pid})"
            log.warning("server %s closed its stdout but is still running", proc.pid)
        else:
            reason = self._exit_description()
        if self._held_pipes:
            pipes = " and ".join(self._held_pipes)
            reason += f"; its {pipes} stayed open (held by a process it left running)"
            log.warning("server %s exited, but its %s stayed open", proc.pid, pipes)
        if unexpected and self._stderr_tail:
            reason += f"; last stderr: {self._stderr_tail[-1][:200]}"
        await self._emit_closed(reason, error=unexpected)

    async def _watch(
        self, proc: asyncio.subprocess.Process
    ) -> Literal["exited", "held", "stdout closed"]:
        """Wait until both pipes reach EOF and the server exits, or until that is hopeless.

        * "exited": the normal end; EOF on both pipes.
        * "held": the server exited, but a pipe stayed open and silent for
          `_HELD_PIPE_GRACE` s after that (another process holds it); we stopped reading
          it. A reader held up by a slow consumer (not waiting for data) is never cut.
        * "stdout closed": stdout reached EOF but the server is still running
          `_STDOUT_EOF_GRACE` s later (not reported while we are closing it ourselves).
        """
        loop = asyncio.get_running_loop()
        names = self._readers
        stdout_task = next(task for task, name in names.items() if name == "stdout")
        pending = set(names)
        held: list[str] = []
        exited_at: float | None = None
        stdout_eof_at: float | None = None
        while pending:
            done, pending = await asyncio.wait(pending, timeout=_EXIT_POLL)
            for task in done:
                task.result()  # a reader's failure ends the pump
            if not pending:
                break
            now = loop.time()
            if proc.returncode is None:
                if stdout_task.done() and not self._closing:
                    if stdout_eof_at is None:
                        stdout_eof_at = now
                    if now - stdout_eof_at >= _STDOUT_EOF_GRACE:
                        return "stdout closed"
                continue
            if exited_at is None:
                exited_at = now
            for task in list(pending):
                since = self._waiting_since.get(names[task])
                if since is not None and now - max(since, exited_at) >= _HELD_PIPE_GRACE:
                    task.cancel()
                    pending.discard(task)
                    held.append(names[task])
        self._held_pipes = tuple(sorted(held, key=("stdout", "stderr").index))
        return "held" if held else "exited"

    def _cancel_readers(self) -> None:
        for task in self._readers:
            task.cancel()

    async def _read_chunk(self, stream: asyncio.StreamReader, name: str) -> bytes:
        self._waiting_since[name] = asyncio.get_running_loop().time()
        try:
            return await stream.read(_CHUNK)
        finally:
            self._waiting_since[name] = None

    async def _emit_closed(self, reason: str, *, error: bool) -> None:
        if self._closed_event_sent:
            return
        self._closed_event_sent = True
        code = self._proc.returncode if self._proc else None
        await self._queue.put(TransportClosed(reason, code, tuple(self._stderr_tail), error))

    async def _read_stdout(self, stream: asyncio.StreamReader) -> None:
        # One queue item per read (every complete line in it), not one per line.
        splitter = LineSplitter(self.params.max_line_bytes)
        put = self._queue.put
        while True:
            chunk = await self._read_chunk(stream, "stdout")
            if not chunk:
                break
            for event in splitter.feed(chunk):
                await put(event)
        for event in splitter.end():
            await put(event)

    async def _read_stderr(self, stream: asyncio.StreamReader) -> None:
        limit = self.params.max_stderr_line_bytes
        buf = bytearray()
        over = False
        while True:
            chunk = await self._read_chunk(stream, "stderr")
            if not chunk:
                break
            start = 0
            while True:
                nl = chunk.find(b"\n", start)
                piece = chunk[start:] if nl < 0 else chunk[start:nl]
                room = limit - len(buf)
                if len(piece) > room:
                    over = True
                    piece = piece[: max(room, 0)]
                buf += piece
                if nl < 0:
                    break
                await self._emit_stderr(bytes(buf), over)
                buf.clear()
                over = False
                start = nl + 1
        if buf:
            await self._emit_stderr(bytes(buf), over)

    async def _emit_stderr(self, data: bytes, truncated: bool) -> None:
        text = data.rstrip(b"\r").decode("utf-8", errors="replace")
        self._stderr_tail.append(text)
        await self._queue.put(StderrLine(text, truncated))

    async def close(self) -> None:
        """Close stdin, wait; SIGTERM, wait; SIGKILL. Idempotent."""
        proc = self._proc
        self._closing = True
        if proc is None:
            return
        if proc.returncode is None and proc.stdin is not None and not proc.stdin.is_closing():
            with contextlib.suppress(OSError, RuntimeError):
                proc.stdin.close()
        if not await self._wait_exit(self.params.close_grace):
            log.info(
                "server %s ignored stdin EOF (still running %g s after its stdin was closed); "
                "sending SIGTERM",
                proc.pid,
                self.params.close_grace,
            )
            self._signal(signal.SIGTERM)
            if not await self._wait_exit(self.params.term_grace):
                log.warning("server %s ignored SIGTERM; sending SIGKILL", proc.pid)
                self._signal(signal.SIGKILL if sys.platform != "win32" else signal.SIGTERM)
                await self._wait_exit(5.0)
        await settle_tasks(self._tasks, 2.0, log, "a stdio pump")
        if self._held_pipes:
            await self._end_leftovers(proc.pid)
        self._cancel_readers()  # normally done already (EOF); not if a pipe was held
        # Release the pipes now (a leftover may still hold them), not in a finalizer
        # that may run after the loop is closed. asyncio has no public handle for this.
        subprocess_transport = getattr(proc, "_transport", None)
        if subprocess_transport is not None:
            subprocess_transport.close()
        if not self._closed_event_sent:
            self._closed_event_sent = True
            with contextlib.suppress(asyncio.QueueFull):
                self._queue.put_nowait(
                    TransportClosed(
                        self._exit_description(), proc.returncode, tuple(self._stderr_tail)
                    )
                )

    async def _end_leftovers(self, pgid: int) -> None:
        """The server is gone but processes of its group hold its pipes: end them too."""
        if sys.platform == "win32" or not _group_exists(pgid):
            return
        log.info("ending processes left behind by server %s", pgid)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGTERM)
        # Exited members may linger as zombies (counted as members) until reaped: wait at
        # most term_grace, then SIGKILL whatever is left, without waiting for it.
        deadline = asyncio.get_running_loop().time() + self.params.term_grace
        while _group_exists(pgid):
            if asyncio.get_running_loop().time() >= deadline:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pgid, signal.SIGKILL)
                return
            await asyncio.sleep(0.02)

    async def _wait_exit(self, seconds: float) -> bool:
        assert self._proc is not None
        if self._proc.returncode is not None:
            return True
        try:
            await asyncio.wait_for(self._proc.wait(), seconds)
        except TimeoutError:
            return False
        return True

    def _signal(self, sig: signal.Signals) -> None:
        proc = self._proc
        if proc is None or proc.returncode is not None:
            return
        try:
            if sys.platform != "win32":
                # The child leads its own session: signal the whole group (npx, shells...).
                os.killpg(proc.pid, sig)
            else:
                proc.send_signal(sig)
        except ProcessLookupError:
            pass
        except PermissionError:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(sig)


def _widen_pipe(proc: asyncio.subprocess.Process) -> None:
    """Linux: give the server's stdout pipe 1 MiB (not 64 KiB), so a server that floods
    keeps writing while we are busy with what it wrote before, instead of waiting to be
    scheduled again after every 64 KiB we read. Best effort: the default size still works."""
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    transport = getattr(proc, "_transport", None)  # asyncio has no public handle on it
    if set_size is None or transport is None:
        return
    pipe = transport.get_pipe_transport(1)
    stdout = pipe.get_extra_info("pipe") if pipe is not None else None
    if stdout is None:
        return
    try:
        fcntl.fcntl(stdout.fileno(), set_size, _PIPE_BYTES)
    except (OSError, ValueError) as exc:  # over pipe-max-size; or the server already exited
        log.debug("could not widen the server's stdout pipe: %s", exc)


def _group_exists(pgid: int) -> bool:
    """Does process group `pgid` (ours: the server led it) still have members?"""
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True
