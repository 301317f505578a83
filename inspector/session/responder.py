"""The one interface for everything a server asks of the client, in both eras.

A legacy server's sampling/elicitation/roots request and a modern server's
`inputRequests` entry reach the same `Responder.respond`. The GUI implements it
with modal dialogs; the CLI with a policy (decline, or answers from a file).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from inspector.protocol.machine.asks import ServerAsk

__all__ = ["AskRejected", "PolicyResponder", "Responder", "load_answers"]


class AskRejected(Exception):
    """Raise from `respond` to refuse (legacy: error -1; modern: the request is abandoned)."""


class Responder(Protocol):
    async def respond(self, ask: ServerAsk) -> dict[str, Any]:
        """Return the result (CreateMessageResult, ElicitResult, ListRootsResult) or raise."""
        ...


class PolicyResponder:
    """Answers without a person: decline by default, or canned answers.

    `answers` maps an ask kind ("sampling", "elicitation", "roots") to one result
    or a list of results used in order (the last one repeats).
    """

    def __init__(
        self,
        answers: dict[str, Any] | None = None,
        roots: Sequence[dict[str, Any]] = (),
    ) -> None:
        self.answers = answers or {}
        self.roots = list(roots)
        self._used: dict[str, int] = {}
        self.log: list[tuple[ServerAsk, str]] = []

    async def respond(self, ask: ServerAsk) -> dict[str, Any]:
        canned = self._next(ask.kind)
        if canned is not None:
            if isinstance(canned, dict) and canned.get("reject"):
                self.log.append((ask, "rejected (answers file)"))
                raise AskRejected(str(canned.get("message", "rejected by the answers file")))
            self.log.append((ask, "answered from file"))
            return dict(canned)
        if ask.kind == "roots":
            self.log.append((ask, "answered with configured roots"))
            return {"roots": self.roots}
        if ask.kind == "elicitation":
            self.log.append((ask, "declined (policy)"))
            return {"action": "decline"}
        self.log.append((ask, "rejected (policy)"))
        raise AskRejected("sampling declined by the inspector's policy (no --answers given)")

    def _next(self, kind: str) -> Any:
        value = self.answers.get(kind)
        if value is None:
            return None
        if isinstance(value, list):
            if not value:
                return None
            i = self._used.get(kind, 0)
            self._used[kind] = i + 1
            return value[min(i, len(value) - 1)]
        return value


def load_answers(path: str | Path) -> dict[str, Any]:
    """Read an answers file: {"sampling": ..., "elicitation": ..., "roots": ...}."""
    text = Path(path).read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("the answers file must hold a JSON object")
    unknown = set(data) - {"sampling", "elicitation", "roots"}
    if unknown:
        raise ValueError(f"unknown keys in the answers file: {', '.join(sorted(unknown))}")
    return data
