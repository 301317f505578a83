"""Test peer for watch mode: a small `mcp` 2.x server that tests copy into a temporary
folder and edit on disk (a tool added before the marker line below, a schema changed,
a syntax error and its fix), the way a server author edits theirs.

Usage: `python server.py` (stdio).
"""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

mcp = MCPServer("watched")


@mcp.tool()
def echo(text: str) -> str:
    """Echo the text back unchanged."""
    return text


# more tools

if __name__ == "__main__":
    mcp.run()
