"""Test peer for `mcp-inspector-qt test`: an `mcp` 2.x server (both eras, stdio or
streamable HTTP) whose echo output a test can change without editing code.

    python tests/servers/sdk/echo_drift_server.py [stdio|streamable-http] [--port P]

Env `ECHO_PREFIX` is put in front of every echo (default none): a collection saved from the
server passes; with ECHO_PREFIX set, its echo snapshot and assertions fail. `add` returns
structured content (with an outputSchema); `sample_llm` asks the client's LLM (a legacy
`sampling/createMessage` request or a modern `input_required` round).
"""

from __future__ import annotations

import argparse
import os
import warnings
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer, Resolve, Sample
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp_types import CreateMessageResult, SamplingMessage, TextContent
from pydantic import BaseModel, Field

warnings.filterwarnings("ignore", category=MCPDeprecationWarning)

PREFIX = os.environ.get("ECHO_PREFIX", "")
mcp: MCPServer[Any] = MCPServer("echo-drift-peer", version="1.0.0", log_level="WARNING")


class Sum(BaseModel):
    """Structured output of `add`."""

    sum: int = Field(description="a + b")


@mcp.tool()
def echo(text: str) -> str:
    """Echo the text back (after ECHO_PREFIX, when set)."""
    return PREFIX + text


@mcp.tool()
def add(a: int, b: int) -> Sum:
    """Add two integers; structured content {"sum": a + b}."""
    return Sum(sum=a + b)


def _ask(prompt: str) -> Sample:
    return Sample(
        [SamplingMessage(role="user", content=TextContent(type="text", text=prompt))],
        max_tokens=50,
    )


@mcp.tool()
async def sample_llm(prompt: str, reply: Annotated[CreateMessageResult, Resolve(_ask)]) -> str:
    """Ask the client's LLM; returns what it said."""
    content = reply.content
    text = content.text if isinstance(content, TextContent) else f"<{content.type}>"
    return f"{reply.model} said: {text}"


@mcp.resource("info://greeting", name="greeting", mime_type="text/plain")
def greeting() -> str:
    """A static resource."""
    return PREFIX + "hello from the echo peer"


@mcp.prompt()
def greet(name: str) -> str:
    """A prompt with one argument."""
    return f"Greet {name}."


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("transport", nargs="?", default="stdio")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    if args.transport == "stdio":
        mcp.run("stdio")
    else:
        mcp.run("streamable-http", host="127.0.0.1", port=args.port)


if __name__ == "__main__":
    main()
