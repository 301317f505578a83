"""What the server asks of the client: sampling, elicitation, roots, in either era.

A legacy server sends these as JSON-RPC requests; a modern one embeds them in an
`input_required` result (MRTR). The UI answers both through one `ServerAsk`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias

from inspector.protocol.wire.jsonrpc import RequestId
from inspector.protocol.wire.versions import Era

__all__ = ["ASK_METHODS", "AskKind", "ServerAsk", "ask_kind"]

AskKind: TypeAlias = Literal["sampling", "elicitation", "roots"]

ASK_METHODS: Final[dict[str, AskKind]] = {
    "sampling/createMessage": "sampling",
    "elicitation/create": "elicitation",
    "roots/list": "roots",
}


def ask_kind(method: str) -> AskKind | None:
    return ASK_METHODS.get(method)


@dataclass(frozen=True, slots=True)
class ServerAsk:
    ask_id: int  # local to the connection; the handle used to answer
    kind: AskKind
    method: str
    params: dict[str, Any]
    era: Era
    wire_id: RequestId | None = None  # legacy: the server's JSON-RPC request id
    input_key: str | None = None  # modern: the key in inputRequests
    request_key: int | None = None  # modern: our request that the server paused
    request_method: str | None = None  # modern: e.g. "tools/call"

    @property
    def elicitation_mode(self) -> str:
        """'form' (the default when absent) or 'url'."""
        mode = self.params.get("mode", "form")
        return mode if isinstance(mode, str) else "form"

    @property
    def origin(self) -> str:
        if self.era is Era.LEGACY:
            return f"server request {self.wire_id!r}"
        if self.request_key is None:  # e.g. a task's input request (tasks/get), no request of ours
            return f"input request {self.input_key!r} of {self.request_method}"
        return f"input request {self.input_key!r} of {self.request_method} #{self.request_key}"
