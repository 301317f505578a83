"""A host's whole stdio session, done raw beside the battery's own: start the server, the
handshake (legacy: `initialize`, then `notifications/initialized`; modern:
`server/discover`), one request of the session (`tools/list`, or another list the server
declares, else `ping`), then the spec's stdio shutdown (close stdin, wait for the server to
exit, then SIGTERM, then SIGKILL).

It keeps every stdout byte from the process start to its end, line by line, each with the
phase it came in (before the first message, among the messages, after stdin closed), and
when and how the server ended: the evidence of `stdio.stdout` and `stdio.eof`. It also
keeps what the server sent before `notifications/initialized` (`lifecycle.initialized`)
and the list it answered (`lists.stable` compares it with another start's). One run is
shared by these checks (`host_run`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import sys
import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.check.messages import initialize_request
from inspector.check.probe import CheckContext
from inspector.protocol.wire.jsonrpc import Invalid, Notification, Request, parse_frame
from inspector.protocol.wire.versions import LATEST_LEGACY, LATEST_MODERN, Era
from inspector.settings.connect import resolved_env
from inspector.transports.stdio import StdioParams, full_environment, minimal_environment

__all__ = ["AFTER", "AMONG", "BEFORE", "PHASES", "HostRun", "StdoutLine", "host_run"]

BEFORE: Final = "before the first message"
AMONG: Final = "among the messages"
AFTER: Final = "after stdin closed"
PHASES: Final = (BEFORE, AMONG, AFTER)
_CHUNK: Final = 64 * 1024
_KEEP_LINE: Final = 4096  # what is kept of a stdout line once judged (its size: whole)
_KEPT_HEADS: Final = 1000  # lines whose heads are kept; after them, sizes and phases only
_DRAIN: Final = 1.0  # after the exit, how long stdout may stay open (a child holds it)
_QUIET: Final = 0.3  # after the initialize answer: silence this long ends the wait
_SETTLE: Final = 1.0  # and the wait never lasts longer
_LISTS: Final = (
    ("tools", "tools/list"),
    ("prompts", "prompts/list"),
    ("resources", "resources/list"),
)


@dataclass(frozen=True)
class StdoutLine:
    """One line the server wrote on stdout (its head, at most `_KEEP_LINE` bytes)."""

    raw: bytes
    size: int
    phase: str
    message: bool  # a JSON-RPC message (or a batch of them)

    @classmethod
    def of_text(cls, text: str, phase: str = AMONG) -> StdoutLine:
        """A line as the session logged it (text, escapes and all)."""
        raw = text.encode("utf-8", "backslashreplace")
        return cls(raw[:_KEEP_LINE], len(raw), phase, False)

    def quoted(self, limit: int = 120) -> str:
        """The line, escaped (control characters never reach a terminal or a label raw)
        and cut at `limit` characters."""
        text = self.raw.decode("utf-8", "backslashreplace")
        cut = len(text) > limit or self.size > len(self.raw)
        return repr(text[:limit]) + ("…" if cut else "")


@dataclass
class HostRun:
    """What one raw host session saw."""

    steps: list[str] = field(default_factory=list)  # what the host sent, in order
    unanswered: list[str] = field(default_factory=list)  # requests with no answer in time
    lines: list[StdoutLine] = field(default_factory=list)
    grace: float = 2.0  # the ladder's first wait (after closing stdin)
    exited_after: float | None = None  # seconds after stdin closed; None: not in `grace`
    exit_code: int | None = None
    ended_by: str = ""  # "stdin EOF", "SIGTERM", "SIGKILL"
    # The server had closed its stdout or exited before the host closed its stdin: an exit
    # then shows nothing of how it ends on EOF.
    ended_before: bool = False
    start_error: str | None = None
    # Server messages read before `notifications/initialized` was sent (legacy era).
    early: list[dict[str, Any]] = field(default_factory=list)
    listed: tuple[str, dict[str, Any]] | None = None  # the list request and its answer

    def noise(self) -> list[StdoutLine]:
        return [line for line in self.lines if not line.message]

    def messages(self) -> int:
        return sum(1 for line in self.lines if line.message)

    def session(self) -> str:
        return " → ".join(self.steps) or "nothing"


def _is_message(raw: bytes) -> bool:
    frame = parse_frame(raw.decode("utf-8") if raw.isascii() else raw)
    if not isinstance(frame, Invalid):
        return True
    batch = frame.value
    return (
        isinstance(batch, list)
        and bool(batch)
        and all(isinstance(m, dict) and m.get("jsonrpc") == "2.0" for m in batch)
    )


class _Reader:
    """Reads the server's stdout to its end, line by line, tagging each line's phase."""

    def __init__(self, stream: asyncio.StreamReader, max_line: int = 64 * 1024 * 1024) -> None:
        self.stream = stream
        # A line longer than this (the profile's max_message_mb) is never a usable message:
        # only its head and its size are kept, however long a hostile server makes it.
        self.max_line = max_line
        self._over = 0  # bytes of the current line past `max_line` (0: within it)
        self.lines: list[StdoutLine] = []
        self.answers: dict[Any, dict[str, Any]] = {}
        self.stdin_closed = False
        self.initialized_sent = False
        self.early: list[dict[str, Any]] = []
        self.heard = asyncio.Event()  # set on every message line, and at the end
        self.ended = False
        self._messages = False  # a message line has come (a flag: lines can be 100k)
        self._buf = bytearray()  # the line whose newline has not come yet

    def _phase(self) -> str:
        if self.stdin_closed:
            return AFTER
        return AMONG if self._messages else BEFORE

    def _line(self, raw: bytes) -> None:
        if self._over:
            size, self._over = len(raw) + self._over, 0
            self._keep(StdoutLine(raw[:_KEEP_LINE], size, self._phase(), False))
            return
        raw = raw[:-1] if raw.endswith(b"\r") else raw
        message = _is_message(raw)
        self._keep(StdoutLine(raw[:_KEEP_LINE], len(raw), self._phase(), message))
        if message:
            self._messages = True
            with contextlib.suppress(ValueError):
                value = json.loads(raw)
                if isinstance(value, dict) and ("result" in value or "error" in value):
                    self.answers[value.get("id")] = value
                elif isinstance(value, dict) and "method" in value and not self.initialized_sent:
                    self.early.append(value)
            self.heard.set()

    def _keep(self, line: StdoutLine) -> None:
        if len(self.lines) >= _KEPT_HEADS and not line.message:
            line = StdoutLine(b"", line.size, line.phase, False)
        self.lines.append(line)

    def _feed(self, chunk: bytes) -> None:
        start = 0
        while (nl := chunk.find(b"\n", start)) >= 0:
            self._add(chunk[start:nl])
            self._line(bytes(self._buf))
            self._buf.clear()
            start = nl + 1
        self._add(chunk[start:])

    def _add(self, part: bytes) -> None:
        """Adds to the line being read; past `max_line`, only counts (its head stays)."""
        room = self.max_line - len(self._buf)
        if room >= len(part) and not self._over:
            self._buf += part
            return
        if not self._over:
            self._buf += part[: max(room, 0)]
            del self._buf[_KEEP_LINE:]
            self._over = len(part) - max(room, 0) + (self.max_line - _KEEP_LINE)
        else:
            self._over += len(part)

    async def run(self) -> None:
        while chunk := await self.stream.read(_CHUNK):
            self._feed(chunk)
        if self._buf:
            self._line(bytes(self._buf))
        self.ended = True
        self.heard.set()

    async def answer(self, msg_id: Any, timeout: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        while msg_id not in self.answers:
            left = deadline - time.monotonic()
            if left <= 0 or self.ended:
                return None
            self.heard.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.heard.wait(), left)
        return self.answers[msg_id]

    async def settle(self, quiet: float = _QUIET, limit: float = _SETTLE) -> None:
        """Wait until the server has been silent for `quiet` seconds (at most `limit`):
        what it sends right after the initialize answer is read before the host goes on."""
        deadline = time.monotonic() + limit
        while not self.ended and (left := deadline - time.monotonic()) > 0:
            self.heard.clear()
            try:
                await asyncio.wait_for(self.heard.wait(), min(quiet, left))
            except TimeoutError:
                return


# One host run per battery (its context), shared by the stdio checks.
_RUNS: weakref.WeakKeyDictionary[CheckContext, HostRun] = weakref.WeakKeyDictionary()


async def host_run(ctx: CheckContext) -> HostRun:
    """The battery's host session (run once, shared by the stdio checks)."""
    run = _RUNS.get(ctx)
    if run is None:
        # A host runs one instance of its server: the battery's own session ends first
        # (the next check opens a fresh one). Two at once can change what is measured: a
        # server holding a lock (a database file) may exit on EOF only when it lost the
        # lock to the other instance (mcp-cron, tests/corpus).
        await ctx.drop()
        run = _RUNS[ctx] = await _run(ctx)
    return run


def _signal(proc: asyncio.subprocess.Process, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if sys.platform != "win32":
            os.killpg(proc.pid, sig)  # it leads its own group: npx, shells and their children
        else:
            proc.send_signal(sig)


async def _start(ctx: CheckContext) -> asyncio.subprocess.Process:
    profile = ctx.profile
    stdio = profile.stdio
    env = full_environment() if stdio.inherit_full_env else minimal_environment()
    env.update(resolved_env(profile, ctx.secrets))
    command = shutil.which(stdio.command, path=env.get("PATH")) or stdio.command
    return await asyncio.create_subprocess_exec(
        command,
        *stdio.args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        env=env,
        cwd=stdio.cwd or None,
        start_new_session=sys.platform != "win32",
    )


async def _send(proc: asyncio.subprocess.Process, message: dict[str, Any]) -> None:
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
    await proc.stdin.drain()


async def _session(
    ctx: CheckContext, proc: asyncio.subprocess.Process, reader: _Reader, run: HostRun
) -> None:
    """The messages of the session, as a host sends them (`run`'s steps filled in as they
    are sent: a broken pipe keeps those sent)."""
    wait = ctx.options.timeout
    meta: dict[str, Any] = {}
    if ctx.era is Era.MODERN:
        meta = {"_meta": ctx.modern_meta(ctx.ready_version or LATEST_MODERN)}
        first = Request(1, "server/discover", meta).to_dict()
    else:
        version = ctx.ready_version if ctx.era is Era.LEGACY else None
        first = initialize_request(version or LATEST_LEGACY)
    run.steps.append(str(first["method"]))
    await _send(proc, first)
    answer = await reader.answer(1, wait)
    if answer is None:
        run.unanswered.append(str(first["method"]))
    if ctx.era is not Era.MODERN:
        await reader.settle()  # what the server sends before initialized (the spec limits it)
        reader.initialized_sent = True
        run.early = list(reader.early)
        run.steps.append("notifications/initialized")
        await _send(proc, Notification("notifications/initialized").to_dict())
    result = (answer or {}).get("result")
    declared = result.get("capabilities") if isinstance(result, dict) else None
    caps = declared if isinstance(declared, dict) else ctx.capabilities
    method = next((m for cap, m in _LISTS if cap in caps), "ping")
    if method == "ping" and ctx.era is Era.MODERN:
        return  # no ping in the modern era, and nothing else declared
    run.steps.append(method)
    await _send(proc, Request(2, method, dict(meta) or None).to_dict())
    listed = await reader.answer(2, wait)
    if listed is None:
        run.unanswered.append(method)
    elif method != "ping":
        run.listed = (method, listed)


async def _run(ctx: CheckContext) -> HostRun:
    params = StdioParams(ctx.profile.stdio.command)
    try:
        proc = await _start(ctx)
    except OSError as exc:
        return HostRun(start_error=f"could not start the server: {exc.strerror or exc}")
    assert proc.stdin is not None and proc.stdout is not None
    reader = _Reader(proc.stdout, ctx.profile.max_message_mb * 1024 * 1024)
    reading = asyncio.create_task(reader.run(), name="check-host-run-stdout")
    run = HostRun()
    try:
        try:
            await _session(ctx, proc, reader, run)
        except (BrokenPipeError, ConnectionResetError):
            run.steps.append("(the server closed its stdin)")
        run.grace = params.close_grace
        run.ended_before = reader.ended or proc.returncode is not None
        reader.stdin_closed = True
        closed_at = time.monotonic()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            proc.stdin.close()
        try:
            run.exit_code = await asyncio.wait_for(proc.wait(), params.close_grace)
            run.exited_after = time.monotonic() - closed_at
            run.ended_by = "stdin EOF"
        except TimeoutError:
            _signal(proc, signal.SIGTERM)
            try:
                run.exit_code = await asyncio.wait_for(proc.wait(), params.term_grace)
                run.ended_by = "SIGTERM"
            except TimeoutError:
                _signal(proc, signal.SIGKILL)
                run.exit_code = await proc.wait()
                run.ended_by = "SIGKILL"
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(reading), _DRAIN)
    finally:
        if proc.returncode is None:
            _signal(proc, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
        reading.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await reading
    run.lines = reader.lines
    return run
