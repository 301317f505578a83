"""Small builders the security tests share: one server with one tool, the findings of a rule."""

from __future__ import annotations

from typing import Any

from inspector.security import SecurityFinding, ServerDefinitions, scan


def tool(name: str = "add", description: str = "Adds two numbers.", **more: Any) -> dict[str, Any]:
    schema = {"type": "object", "properties": {"a": {"type": "number", "description": "First."}}}
    return {"name": name, "description": description, "inputSchema": schema, **more}


def server(*tools: dict[str, Any], name: str = "srv", **more: Any) -> ServerDefinitions:
    return ServerDefinitions(name, tools=list(tools), **more)


def found(*servers: ServerDefinitions, rule: str | None = None) -> list[SecurityFinding]:
    return [f for f in scan(servers) if rule is None or f.rule == rule]


def rules(*servers: ServerDefinitions) -> set[str]:
    return {f.rule for f in scan(servers)}
