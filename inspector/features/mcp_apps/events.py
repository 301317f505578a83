"""What the app host tells its view (`AppEvent`), what it needs from the session and the user
(`AppServices`), and a JSON-RPC failure (`RpcFailure`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeAlias

from inspector.features.mcp_apps.consent import ConsentQuestion, Decision
from inspector.traffic.record import TrafficRecord

__all__ = ["AppEvent", "AppServices", "EventKind", "RpcFailure"]

EventKind: TypeAlias = Literal[
    "initialized", "size", "message", "log", "teardown", "problem", "context", "sent"
]


@dataclass(frozen=True, slots=True)
class AppEvent:
    """Something the view shows (a status line, a problem, the app's size)."""

    kind: EventKind
    text: str
    data: Any = None


class RpcFailure(Exception):
    """A JSON-RPC error to answer (or that the app answered)."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


class AppServices(Protocol):
    """What the host needs from the session and the user (the Qt side implements it)."""

    def report(self, record: TrafficRecord) -> None: ...
    def event(self, event: AppEvent) -> None: ...
    def tool(self, name: str) -> dict[str, Any] | None: ...
    def tools_known(self) -> bool: ...
    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]: ...
    async def server_request(self, method: str, params: dict[str, Any]) -> dict[str, Any]: ...
    async def confirm(self, question: ConsentQuestion) -> Decision: ...
    def open_link(self, url: str) -> bool: ...
