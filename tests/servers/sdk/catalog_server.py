"""Test peer for catalog compare: a small `mcp` 2.x (MCPServer) server in two builds.

Usage::

    python tests/servers/sdk/catalog_server.py [--build v1|v2] [stdio|streamable-http]
                                               [--host H] [--port P]

`v2` differs from `v1` by exactly one tool and one schema field, as a release might:

* the tool `translate` is new in v2;
* `search`'s `limit` argument is a number in v2 (an integer in v1).

Resources, prompts, server info and instructions are the same in both builds.

`gateway` is v1 as a gateway would show it: its tools namespaced (`notes__search`,
`notes__echo`) and its prompt renamed by case (`Review`), for the look-alike hints.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mcp.server.mcpserver import MCPServer


def build(version: str) -> MCPServer[Any]:
    mcp: MCPServer[Any] = MCPServer(
        "catalog-peer", version="1.0.0", instructions="Catalog compare test peer."
    )

    prefix = "notes__" if version == "gateway" else ""

    if version in ("v1", "gateway"):

        @mcp.tool(name=prefix + "search", title="Search the notes")
        def search(query: str, limit: int = 10) -> str:
            """Search the notes for a phrase."""
            return f"{limit} results for {query}"

    else:

        @mcp.tool(title="Search the notes")
        def search(query: str, limit: float = 10) -> str:  # type: ignore[misc]
            """Search the notes for a phrase."""
            return f"{limit} results for {query}"

        @mcp.tool()
        def translate(text: str, to: str) -> str:
            """Translate a text (it only tags it)."""
            return f"[{to}] {text}"

    @mcp.tool(name=prefix + "echo", title="Echo")
    def echo(text: str) -> str:
        """Echo the text back unchanged."""
        return text

    @mcp.resource("notes://readme", name="readme", mime_type="text/plain")
    def readme() -> str:
        """The notes' readme."""
        return "Read me."

    @mcp.resource("notes://note/{note_id}", name="note")
    def note(note_id: str) -> str:
        """One note by id."""
        return f"note {note_id}"

    @mcp.prompt(name="Review" if version == "gateway" else "review")
    def review(topic: str) -> str:
        """Ask for a review of a topic."""
        return f"Please review {topic}."

    return mcp


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "transport", nargs="?", default="stdio", choices=["stdio", "streamable-http"]
    )
    parser.add_argument("--build", default="v1", choices=["v1", "v2", "gateway"])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    mcp = build(args.build)
    if args.transport == "stdio":
        mcp.run("stdio")
    else:
        mcp.run("streamable-http", host=args.host, port=args.port)


if __name__ == "__main__":
    main(sys.argv[1:])
