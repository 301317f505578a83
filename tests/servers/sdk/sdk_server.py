"""Test peer: an MCP server built with the official `mcp` Python SDK (2.3.0, `MCPServer`).

Usage::

    python tests/servers/sdk/sdk_server.py [stdio|streamable-http] [--host H] [--port P]
                                     [--stateless] [--json-response] [--log-level L]

One process serves BOTH protocol eras; there is no era flag:

* stdio: the SDK (`serve_dual_era_loop`) picks the era from the client's first
  request. `initialize` opens a legacy (handshake, <= 2025-11-25) connection; any
  other request whose `params._meta` carries `io.modelcontextprotocol/protocolVersion`
  opens a modern (2026-07-28, stateless per-request envelope) connection. The choice
  is fixed for the life of the process/connection.
* streamable-http (path `/mcp`): routed per HTTP request by the `MCP-Protocol-Version`
  header. Absent or a handshake-era version -> legacy transport (sessions unless
  `--stateless`); any other value -> the modern single-exchange entry.

Sampling and elicitation use the SDK's resolver markers (`Resolve` + `Sample` /
`Elicit`), which the SDK fulfils per era: a legacy connection gets a mid-call
server->client `sampling/createMessage` / `elicitation/create` request; a modern
request gets `resultType: "input_required"` with `inputRequests` + `requestState`
and resumes when the client retries with `inputResponses` + `requestState`.
"""

from __future__ import annotations

import argparse
import json
import logging
import warnings
from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal, get_args

import anyio
from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver import (
    AcceptedElicitation,
    Context,
    DeclinedElicitation,
    Elicit,
    ElicitationResult,
    MCPServer,
    Resolve,
    Sample,
)
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp_types import (
    CreateMessageResult,
    EmptyResult,
    LoggingLevel,
    SamplingMessage,
    SetLevelRequestParams,
    TextContent,
)
from pydantic import BaseModel, Field

# `Context.info()/warning()` and `logging/setLevel` are flagged deprecated for 2026-07-28
# (SEP-2577) but remain the way to emit `notifications/message` in both eras.
warnings.filterwarnings("ignore", category=MCPDeprecationWarning)

SERVER_NAME: Final = "sdk-test-peer"
LOG_LEVELS: Final[tuple[LoggingLevel, ...]] = get_args(LoggingLevel)

mcp: MCPServer[Any] = MCPServer(
    SERVER_NAME,
    version="2.3.0-peer",
    instructions="Test peer for mcp-inspector-qt (tools, resources, prompts, MRTR).",
    log_level="WARNING",
)


# --------------------------------------------------------------------------- logging


# Legacy-era `logging/setLevel` threshold per connection: keyed by the HTTP
# `mcp-session-id` header (None on stdio, where a process serves one connection).
# Modern-era filtering is done by the SDK itself from `_meta["io.modelcontextprotocol/logLevel"]`.
_legacy_min_level: dict[str | None, LoggingLevel] = {}


def _connection_key(request: object) -> str | None:
    headers = getattr(request, "headers", None)
    if isinstance(headers, Mapping):
        value = headers.get("mcp-session-id")
        return value if isinstance(value, str) else None
    return None


async def _handle_set_level(
    ctx: ServerRequestContext[Any, Any], params: SetLevelRequestParams
) -> EmptyResult:
    _legacy_min_level[_connection_key(ctx.request)] = params.level
    return EmptyResult()


# Registering the handler also advertises `capabilities.logging` in the legacy
# `initialize` result. At 2026-07-28 the method does not exist (kernel answers -32601).
mcp._lowlevel_server.add_request_handler(
    "logging/setLevel", SetLevelRequestParams, _handle_set_level
)


async def _log(ctx: Context[Any, Any], level: LoggingLevel, message: str) -> None:
    threshold = _legacy_min_level.get(_connection_key(ctx.request_context.request), "debug")
    if LOG_LEVELS.index(level) >= LOG_LEVELS.index(threshold):
        await ctx.log(level, message, logger_name=SERVER_NAME)


# --------------------------------------------------------------------------- tools


class AddResult(BaseModel):
    """Structured output of `add`."""

    sum: int = Field(description="a + b")


@mcp.tool(title="Add two integers")
def add(a: int, b: int) -> AddResult:
    """Add two integers; returns structured content `{"sum": a + b}`."""
    return AddResult(sum=a + b)


@mcp.tool()
def echo(text: str) -> str:
    """Echo the text back unchanged."""
    return text


@mcp.tool()
def fail(message: str = "boom") -> str:
    """Always fails: returns a `CallToolResult` with `isError: true`."""
    raise ToolError(message)


def _ask_llm(prompt: str) -> Sample:
    # Must render identically on every MRTR round (the SDK pins answers to a digest).
    return Sample(
        [SamplingMessage(role="user", content=TextContent(type="text", text=prompt))],
        max_tokens=100,
        system_prompt="You are a test double. Answer briefly.",
    )


@mcp.tool(title="Ask the client's LLM")
async def sample_llm(prompt: str, reply: Annotated[CreateMessageResult, Resolve(_ask_llm)]) -> str:
    """Ask the client to sample its LLM with `prompt`; returns the sampled text.

    Legacy: server->client `sampling/createMessage` mid-call.
    Modern: `input_required` with `inputRequests[<key>].method == "sampling/createMessage"`.
    Needs the client `sampling` capability (else error -32021).
    """
    content = reply.content
    text = content.text if isinstance(content, TextContent) else f"<{content.type} content>"
    return f"LLM ({reply.model}) said: {text}"


class Person(BaseModel):
    """Form-mode elicitation schema."""

    name: str = Field(description="Your name")
    age: int = Field(description="Your age in years")


def _ask_person() -> Elicit[Person]:
    return Elicit("Please tell us who you are.", Person)


@mcp.tool(title="Ask the user who they are")
async def ask_user(person: Annotated[ElicitationResult[Person], Resolve(_ask_person)]) -> str:
    """Elicit name/age from the user (form mode); reports accept/decline/cancel.

    Legacy: server->client `elicitation/create` mid-call.
    Modern: `input_required` with `inputRequests[<key>].method == "elicitation/create"`.
    Needs the client `elicitation` (form) capability (else error -32021).
    """
    if isinstance(person, AcceptedElicitation):
        return f"accepted: name={person.data.name}, age={person.data.age}"
    if isinstance(person, DeclinedElicitation):
        return "declined"
    return "cancelled"


@mcp.tool(title="Does the client render MCP Apps?")
def ui_support(ctx: Context[Any, Any]) -> str:
    """The MCP Apps extension as this server sees the client's capabilities, the way the
    ext-apps `getUiCapability` reads it (`capabilities.extensions["io.modelcontextprotocol/ui"]`):
    its settings as JSON, or `none`. Legacy: from `initialize`; modern: from this request's
    `_meta` client capabilities."""
    caps = ctx.client_capabilities
    ui = (caps.extensions or {}).get("io.modelcontextprotocol/ui") if caps else None
    return "none" if ui is None else json.dumps(ui, sort_keys=True)


@mcp.tool(title="Slow task with progress and logs")
async def slow_task(ctx: Context[Any, Any], steps: int = 3, delay: float = 0.05) -> str:
    """Report `steps` progress notifications (with messages) and emit log messages.

    Progress is only sent when the request carried `_meta.progressToken`. Logs: one
    debug, one info per step, one warning. Legacy: all levels >= `logging/setLevel`
    (default: everything). Modern: only when the request's `_meta` carries
    `io.modelcontextprotocol/logLevel`, at that level and above.
    """
    await _log(ctx, "debug", f"slow_task starting ({steps} steps)")
    for step in range(1, steps + 1):
        await anyio.sleep(delay)
        await ctx.report_progress(step, steps, f"step {step}/{steps}")
        await _log(ctx, "info", f"finished step {step}")
    await _log(ctx, "warning", "slow_task finished; this is a warning-level log")
    return f"done after {steps} steps"


# --------------------------------------------------------------------------- resources


@mcp.resource(
    "info://server", name="server-info", description="Static text", mime_type="text/plain"
)
def server_info() -> str:
    """Static text resource."""
    return f"{SERVER_NAME}: a test peer built on the mcp Python SDK 2.3.0"


@mcp.resource("greeting://{name}", name="greeting", mime_type="text/plain")
def greeting(name: str) -> str:
    """Resource template: a personalised greeting."""
    return f"Hello, {name}!"


# --------------------------------------------------------------------------- prompts


@mcp.prompt(title="Greeting prompt")
def greet(name: str, style: str = "friendly") -> str:
    """Prompt with a required (`name`) and an optional (`style`) argument."""
    return f"Write a {style} greeting for {name}."


# --------------------------------------------------------------------------- entry point


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "transport",
        nargs="?",
        default="stdio",
        choices=["stdio", "streamable-http"],
        help="default: stdio (era chosen by the first request)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port; endpoint is /mcp")
    parser.add_argument(
        "--stateless", action="store_true", help="legacy HTTP: no Mcp-Session-Id sessions"
    )
    parser.add_argument(
        "--json-response",
        action="store_true",
        help="HTTP: answer POSTs with application/json instead of text/event-stream",
    )
    parser.add_argument(
        "--log-level",
        default="WARNING",
        choices=["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"],
        help="server-side Python logging (stderr)",
    )
    args = parser.parse_args(argv)
    level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = args.log_level
    mcp.settings.log_level = level
    logging.getLogger().setLevel(level)
    if args.transport == "stdio":
        mcp.run("stdio")
    else:
        mcp.run(
            "streamable-http",
            host=args.host,
            port=args.port,
            stateless_http=args.stateless,
            json_response=args.json_response,
        )


if __name__ == "__main__":
    main()
