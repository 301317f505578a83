"""Test peer for catalog compare: a small `mcp` 2.x (MCPServer) server in two builds.

Usage::

    python tests/servers/sdk/catalog_server.py [--build v1|v2] [stdio|streamable-http]
                                               [--host H] [--port P]
                                               [--require-header 'Name: value']...

`v2` differs from `v1` by exactly one tool and one schema field, as a release might:

* the tool `translate` is new in v2;
* `search`'s `limit` argument is a number in v2 (an integer in v1).

Resources, prompts, server info and instructions are the same in both builds.

`--require-header` (HTTP only): every request without that header and value is answered
401 with a plain message, as a gateway's API key check would (for `diff --left-header`).

`gateway` is v1 as a gateway would show it: its tools namespaced (`notes__search`,
`notes__echo`) and its prompt renamed by case (`Review`), for the look-alike hints.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from mcp.server.mcpserver import MCPServer

Asgi = Callable[
    [dict[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]],
    Awaitable[None],
]


def require_headers(app: Asgi, required: dict[str, str]) -> Asgi:
    """`app` behind a check of `required` headers (names case-insensitive, values exact)."""

    async def guarded(
        scope: dict[str, Any],
        receive: Callable[[], Awaitable[Any]],
        send: Callable[[Any], Awaitable[None]],
    ) -> None:
        if scope["type"] == "http":
            got = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
            missing = [n for n, v in required.items() if got.get(n.lower()) != v]
            if missing:
                body = f"missing or wrong header: {', '.join(missing)}".encode()
                length = str(len(body)).encode()
                headers = [(b"content-type", b"text/plain"), (b"content-length", length)]
                await send({"type": "http.response.start", "status": 401, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        await app(scope, receive, send)

    return guarded


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
    parser.add_argument("--require-header", action="append", default=[])
    args = parser.parse_args(argv)
    mcp = build(args.build)
    if args.transport == "stdio":
        mcp.run("stdio")
    elif not args.require_header:
        mcp.run("streamable-http", host=args.host, port=args.port)
    else:
        import uvicorn

        required = {}
        for word in args.require_header:
            name, _sep, value = word.partition(":")
            required[name.strip()] = value.strip()
        app = require_headers(mcp.streamable_http_app(host=args.host), required)
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main(sys.argv[1:])
