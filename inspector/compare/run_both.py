""" "Run on both": one call (a tool call, a resource read, a prompt get) with the same
arguments sent to two servers at once, and the semantic diff of the two answers (the
replay diff with its volatile ignore paths: progress tokens, request state, session ids,
timestamps). A side that is not connected or fails gives its reason; the other side's
answer still shows."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from inspector.core.server_connection import ServerConnection, SessionError
from inspector.recording.diff import Change, IgnoreRules, diff_json

__all__ = ["RUN_KINDS", "BothResult", "RunKind", "SideAnswer", "run_on_both", "run_one"]

RunKind = Literal["tool", "resource", "prompt"]
RUN_KINDS: Final[dict[RunKind, str]] = {
    "tool": "tools/call",
    "resource": "resources/read",
    "prompt": "prompts/get",
}


_SERVER_INFO: Final = "io.modelcontextprotocol/serverInfo"


@dataclass
class SideAnswer:
    result: dict[str, Any] | None = None
    error: str | None = None
    seconds: float = 0.0

    @property
    def document(self) -> Any:
        """What is compared: the result, or the failure as `{"error": ...}`."""
        return self.result if self.error is None else {"error": self.error}

    def summary(self) -> str:
        if self.error is not None:
            return f"failed after {self.seconds:.2f} s: {self.error}"
        flagged = " (isError: true)" if (self.result or {}).get("isError") is True else ""
        return f"answered in {self.seconds:.2f} s{flagged}"


@dataclass
class BothResult:
    kind: RunKind
    name: str
    arguments: dict[str, Any]
    left: SideAnswer
    right: SideAnswer
    changes: list[Change] = field(default_factory=list)

    @property
    def same(self) -> bool:
        return not self.changes


async def run_one(
    session: ServerConnection | None, kind: RunKind, name: str, arguments: dict[str, Any]
) -> SideAnswer:
    """One side's call. Never raises for the server's sake (cancellation passes)."""
    start = time.monotonic()
    if session is None or not session.is_ready:
        return SideAnswer(error="not connected")
    try:
        if kind == "tool":
            result = await session.call_tool(name, arguments)
        elif kind == "resource":
            result = await session.read_resource(name)
        else:
            strings = {k: v if isinstance(v, str) else str(v) for k, v in arguments.items()}
            result = await session.get_prompt(name, strings)
    except SessionError as exc:
        return SideAnswer(error=str(exc) or type(exc).__name__, seconds=time.monotonic() - start)
    return SideAnswer(result=result, seconds=time.monotonic() - start)


async def run_on_both(
    left: ServerConnection | None,
    right: ServerConnection | None,
    kind: RunKind,
    name: str,
    arguments: dict[str, Any] | None = None,
    ignore: IgnoreRules | None = None,
) -> BothResult:
    """Send the call to both sides concurrently; diff the answers (volatile fields
    ignored by default)."""
    args = dict(arguments or {})
    a, b = await asyncio.gather(run_one(left, kind, name, args), run_one(right, kind, name, args))
    changes = diff_json(_answer(a.document), _answer(b.document), ignore or IgnoreRules())
    return BothResult(kind, name, args, a, b, changes)


def _answer(document: Any) -> Any:
    """The answer without the modern era's envelope: a modern server stamps its serverInfo
    in the result's `_meta` (left out once it is empty), where a legacy one says nothing."""
    if not isinstance(document, dict) or not isinstance(document.get("_meta"), dict):
        return document
    meta = {k: v for k, v in document["_meta"].items() if k != _SERVER_INFO}
    out = {k: v for k, v in document.items() if k != "_meta"}
    if meta:
        out["_meta"] = meta
    return out
