"""Running the real `tap` command in tests: its argv, its env (the runtime folder where taps
announce themselves points at a temporary one), and reading its session file's frames."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from inspector.recording.reader import read_session
from tests.helpers.peers import PY, REPO


def tap_argv(session_file: Path, server: Sequence[str], *extra: str) -> list[str]:
    return [PY, "-m", "inspector", "tap", "--session-file", str(session_file), *extra, "--",
            *server]  # fmt: skip


def tap_env(runtime: Path, **more: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO)
    env["MCP_INSPECTOR_RUNTIME_DIR"] = str(runtime)
    env.update(more)
    return env


def recorded_bytes(session_file: Path, direction: str) -> bytes:
    """The frames of one direction as the wire carried them (each line + newline)."""
    out = bytearray()
    for event in read_session(session_file).frames():
        if event.direction == direction:
            raw = event.raw
            out += (raw.encode("utf-8") if isinstance(raw, str) else raw) + b"\n"
    return bytes(out)
