"""A recording AppServices for the host's unit tests: the rows, the events, the consent
answers it is told to give, and a small tool table."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from inspector.features.mcp_apps.consent import ConsentQuestion, Decision
from inspector.features.mcp_apps.events import AppEvent, RpcFailure
from inspector.traffic.record import TrafficRecord


@dataclass
class FakeServices:
    tools: dict[str, dict[str, Any]] = field(default_factory=dict)
    decision: Decision = Decision.ONCE
    records: list[TrafficRecord] = field(default_factory=list)
    events: list[AppEvent] = field(default_factory=list)
    questions: list[ConsentQuestion] = field(default_factory=list)
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)

    def report(self, record: TrafficRecord) -> None:
        self.records.append(record)

    def event(self, event: AppEvent) -> None:
        self.events.append(event)

    def tool(self, name: str) -> dict[str, Any] | None:
        return self.tools.get(name)

    def tools_known(self) -> bool:
        return True

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        self.calls.append((name, arguments))
        return {"content": [{"type": "text", "text": f"called {name}"}]}

    async def server_request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if method == "resources/read":
            return {"contents": [{"uri": params["uri"], "text": "x"}]}
        raise RpcFailure(-32601, f"no {method}")

    async def confirm(self, question: ConsentQuestion) -> Decision:
        self.questions.append(question)
        return self.decision

    def open_link(self, url: str) -> bool:
        self.links.append(url)
        return True

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def problems(self) -> list[str]:
        return [e.text for e in self.events if e.kind == "problem"]
