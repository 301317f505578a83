"""Running the HTTP tap until the user (or the host) stops it: the session file, the
runtime entry the app lists, the listening socket on loopback, a clean end on SIGINT or
SIGTERM (the file is closed, the entry removed)."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import os
import signal
from collections.abc import Callable
from pathlib import Path

from inspector.recording.writer import Rotation, SessionRecorder
from inspector.tap.http_checks import parse_listen
from inspector.tap.http_proxy import HttpTap
from inspector.tap.registry import TapEntry, register
from inspector.tap.session_header import tap_header, tap_redactor

__all__ = ["run_http_tap"]


async def _serve(
    listen: str,
    upstream: str,
    session_file: Path,
    name: str,
    say: Callable[[str], None],
    registry_dir: Path | None,
    rotation: Rotation | None,
) -> int:
    host, port = parse_listen(listen)
    recorder: SessionRecorder | None = SessionRecorder(
        session_file, tap_header([], name, url=upstream), redactor=tap_redactor(), rotation=rotation
    )
    try:
        assert recorder is not None
        recorder.start()
    except OSError as exc:
        say(f"not recording: cannot write the session file {session_file}: {exc.strerror or exc}")
        recorder = None
    tap = HttpTap(upstream, port, recorder, say=say)
    try:
        server = await asyncio.start_server(tap.handle, host, port)
    except OSError as exc:
        say(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
        if recorder is not None:
            recorder.close()
        return 1
    entry_file: Path | None = None
    with contextlib.suppress(OSError):
        entry_file = register(
            TapEntry(
                pid=os.getpid(),
                server_pid=0,
                name=name,
                command=upstream,
                args=(),
                session_file=session_file.resolve(),
                started=dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds"),
                transport="http",
            ),
            registry_dir,
        )
    shown = f"[{host}]" if ":" in host else host
    say(f"listening on http://{shown}:{port} (loopback only), relaying to {upstream}")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        server.close()
        await server.wait_closed()
        await tap.client.aclose()
        if recorder is not None:
            recorder.close()
        if entry_file is not None:
            with contextlib.suppress(OSError):
                entry_file.unlink()
    return 0


def run_http_tap(
    listen: str,
    upstream: str,
    session_file: Path,
    name: str,
    say: Callable[[str], None],
    registry_dir: Path | None = None,
    rotation: Rotation | None = None,
) -> int:
    """Serve until stopped; raises ValueError for a --listen that is not loopback (or a
    rotated session file whose name cannot have parts)."""
    parse_listen(listen)  # fail before anything starts
    return asyncio.run(_serve(listen, upstream, session_file, name, say, registry_dir, rotation))
