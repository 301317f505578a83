"""A small session file written by hand (a header and a ping answered), for the tests that
open one without recording a server first."""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["write_small_session"]


def write_small_session(path: Path, name: str = "Small server") -> Path:
    header = {
        "type": "header",
        "format": "mcp-inspector-session",
        "version": 1,
        "connection": {"transport": "stdio", "name": name, "command": "x", "args": []},
        "era": "legacy",
    }
    frames = [
        ("out", "request", {"jsonrpc": "2.0", "id": 1, "method": "ping"}),
        ("in", "response", {"jsonrpc": "2.0", "id": 1, "result": {}}),
    ]
    lines = [header] + [
        {
            "type": "frame",
            "t": 0.1 * (n + 1),
            "wall": 1_700_000_000.0 + n,
            "transport": "stdio",
            "dir": direction,
            "kind": kind,
            "text": json.dumps(message),
        }
        for n, (direction, kind, message) in enumerate(frames)
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path
