"""Benchmark: the MCP App host's cost per app message (Qt-free, no browser).

N `notifications/message` strings from an app go through `AppHost.receive` (rate limit
off: the budget is raised so every message is handled): parsed, traced as a traffic row
into a real TrafficLog, routed to the view's event sink. The floor, in the same run: the
same strings through `json.loads` alone (what any host must do at least).

    python bench/app_messages.py [--messages 100000] [--runs 3]

Reports messages/s for both and the RATIO host/floor (how many times the bare decode the
host costs). A flooding app is also capped by the rate limit (100/s steady), so this is
the headroom the host has, not a rate an app gets.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from inspector.features.mcp_apps.consent import ConsentQuestion, Decision
from inspector.features.mcp_apps.events import AppEvent
from inspector.features.mcp_apps.handshake import HostContext
from inspector.features.mcp_apps.host import AppHost
from inspector.features.mcp_apps.limits import MessageBudget
from inspector.features.mcp_apps.meta import AppResource
from inspector.traffic.log import TrafficLog
from inspector.traffic.record import TrafficRecord


class _Services:
    def __init__(self, log: TrafficLog) -> None:
        self.log = log
        self.events = 0

    def report(self, record: TrafficRecord) -> None:
        self.log.observe(record)

    def event(self, event: AppEvent) -> None:
        self.events += 1

    def tool(self, name: str) -> dict[str, Any] | None:
        return None

    def tools_known(self) -> bool:
        return False

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return {}

    async def server_request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        return {}

    async def confirm(self, question: ConsentQuestion) -> Decision:
        return Decision.DENY

    def open_link(self, url: str) -> bool:
        return False


def _messages(n: int) -> list[str]:
    return [
        json.dumps(
            {
                "jsonrpc": "2.0",
                "method": "notifications/message",
                "params": {"level": "info", "data": f"app log line {i} of the benchmark"},
            }
        )
        for i in range(n)
    ]


def _host_run(messages: list[str]) -> float:
    log = TrafficLog()
    services = _Services(log)
    host = AppHost(AppResource("ui://bench/app", "<p>"), services, lambda _t: None, HostContext())
    host.initialize_seen = True
    host.budget = MessageBudget(rate=1e12, burst=1e12)
    start = time.perf_counter()
    for text in messages:
        host.receive(text)
    elapsed = time.perf_counter() - start
    assert len(log) == len(messages) and services.events == len(messages)
    return elapsed


def _floor_run(messages: list[str]) -> float:
    start = time.perf_counter()
    for text in messages:
        json.loads(text)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    messages = _messages(args.messages)
    host = min(_host_run(messages) for _ in range(args.runs))
    floor = min(_floor_run(messages) for _ in range(args.runs))
    n = args.messages
    print(f"messages: {n:,}")
    print(f"host:  {n / host:,.0f} msg/s ({host * 1e6 / n:.1f} µs each)")
    print(f"floor: {n / floor:,.0f} msg/s (json.loads alone)")
    print(f"RATIO host/floor: {host / floor:.1f}x")


if __name__ == "__main__":
    main()
