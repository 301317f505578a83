"""The methods `mcp-inspector-qt cli --method` accepts (one list for the CLI and the
code that writes CLI commands: the detail pane's "copy as CLI", recordings)."""

from __future__ import annotations

from typing import Final

__all__ = ["CLI_METHODS"]

CLI_METHODS: Final = (
    "initialize",
    "server/discover",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
)
