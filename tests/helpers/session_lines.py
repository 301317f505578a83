"""Session files made by hand for the reading tests: the lines of a small session (a
header, a `ready` line, request/response pairs a tenth of a second apart, lint findings),
written plain, gzip- or zstd-compressed, or split into rotated parts the way the recorder
names them (`tap.jsonl`, `tap.part2.jsonl`, ...: a header copy with `"part": N` first)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

CREATED = "2026-12-01T10:00:00.000+00:00"
WALL0 = 1_796_119_200.0  # CREATED as Unix time


def header(**extra: Any) -> dict[str, Any]:
    return {
        "type": "header",
        "format": "mcp-inspector-session",
        "version": 1,
        "app_version": "0.1.0",
        "created": CREATED,
        "connection": {"transport": "stdio", "name": "Hand-made", "command": "x", "args": []},
        "era": "legacy",
        **extra,
    }


def ready_line() -> dict[str, Any]:
    return {
        "type": "ready",
        "t": 0.05,
        "wall": WALL0 + 0.05,
        "era": "legacy",
        "protocol_version": "2025-11-25",
        "server_info": {"name": "hand-made", "version": "1"},
        "capabilities": {"tools": {}},
    }


def frame(t: float, direction: str, message: dict[str, Any]) -> dict[str, Any]:
    if "method" in message:
        kind = "request" if "id" in message else "notification"
    else:
        kind = "error" if "error" in message else "response"
    line: dict[str, Any] = {
        "type": "frame",
        "t": round(t, 6),
        "wall": round(WALL0 + t, 6),
        "transport": "stdio",
        "dir": direction,
        "kind": kind,
    }
    if "method" in message:
        line["method"] = message["method"]
    if "id" in message:
        line["id"] = message["id"]
    line["text"] = json.dumps(message)
    return line


def calls(methods: list[str], start: float = 1.0) -> list[dict[str, Any]]:
    """A request and its response per method, ids from 1, one second apart (the answer a
    tenth of a second after its request); `fail:` before a method answers with an error."""
    lines: list[dict[str, Any]] = []
    for n, method in enumerate(methods):
        fails = method.startswith("fail:")
        method = method.removeprefix("fail:")
        t = start + n
        lines.append(frame(t, "out", {"jsonrpc": "2.0", "id": n + 1, "method": method}))
        answer: dict[str, Any] = (
            {"error": {"code": -32601, "message": "nope"}} if fails else {"result": {"n": n + 1}}
        )
        lines.append(frame(t + 0.1, "in", {"jsonrpc": "2.0", "id": n + 1, **answer}))
    return lines


def session_lines(methods: list[str]) -> list[dict[str, Any]]:
    return [header(), ready_line(), *calls(methods)]


def encode(lines: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(line) + "\n" for line in lines).encode("utf-8")


def write(path: Path, lines: list[dict[str, Any]], compression: str | None = None) -> Path:
    data = encode(lines)
    if compression == "gzip":
        data = gzip.compress(data)
    elif compression == "zstd":
        import zstandard

        data = zstandard.ZstdCompressor().compress(data)
    path.write_bytes(data)
    return path


def write_parts(
    first: Path, parts: list[list[dict[str, Any]]], suffix: str = "", compression: str | None = None
) -> list[Path]:
    """Part 1 is `first` (+ `suffix`); each later part gets a header copy with its number."""
    stem = first.name.removesuffix(".jsonl")
    written = []
    for number, lines in enumerate(parts, start=1):
        if number == 1:
            path = first.with_name(first.name + suffix)
            body = [header(), *lines]
        else:
            path = first.with_name(f"{stem}.part{number}.jsonl{suffix}")
            body = [header(part=number), *lines]
        written.append(write(path, body, compression))
    return written
