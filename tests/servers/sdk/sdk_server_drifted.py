"""Test peer: the SDK peer (`sdk_server.py`, mcp 2.x) after a change, for replay drift tests.

Everything is the same as in `sdk_server.py` except two things a server author might do:

* `echo` answers differently: "echo: <text>" instead of "<text>";
* the `fail` tool is removed.

Usage: the same as `sdk_server.py` (`python tests/servers/sdk/sdk_server_drifted.py [stdio|...]`).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sdk_server as base

base.mcp.remove_tool("fail")
base.mcp.remove_tool("echo")


@base.mcp.tool()
def echo(text: str) -> str:
    """Echo the text back unchanged."""
    return f"echo: {text}"


if __name__ == "__main__":
    base.main()
