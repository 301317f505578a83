"""The corpus: real third-party MCP servers, pinned in peers/ and installed by
scripts/install-peers.sh into .peers/ (docs/corpus.md). Each entry says its SDK, language,
version, how to launch it and what it breaks (from scripts/probe_corpus.py's verified probe).
Used by tests/corpus/ and the probe script; `require` skips a test when a peer is missing."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from tests.helpers.peers import REPO

PEERS = REPO / ".peers"
NPM = PEERS / "npm" / "node_modules"
PY_MCP1 = PEERS / "py-mcp1" / "bin"
PY_MCP2 = PEERS / "py-mcp2" / "bin"
# Marks the argument that must be a fresh, empty folder for this run (a server's data or
# allowed folder): the caller substitutes it (`Server.argv(folder)`).
FOLDER = "{folder}"


@dataclass(frozen=True)
class Server:
    """One corpus server: how to launch it and what it is."""

    name: str
    sdk: str
    language: str
    package: str
    version: str
    registry: str
    program: Path
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    node: bool = False
    breaks: str = ""

    def installed(self) -> str | None:
        """None when it can run here, else why not."""
        if not self.program.exists():
            return f"{self.name} is not installed (scripts/install-peers.sh installs it)"
        if self.node and shutil.which("node") is None:
            return f"{self.name} needs node"
        return None

    def argv(self, folder: Path) -> list[str]:
        """The command line; `folder` is a fresh folder the server may write in."""
        args = [substituted(a, folder) for a in self.args]
        if self.node:
            return [shutil.which("node") or "node", str(self.program), *args]
        return [str(self.program), *args]

    def environ(self, folder: Path) -> dict[str, str]:
        """Its environment beyond PATH: HOME in `folder` (some write their state there)."""
        return {"HOME": str(folder), **{k: substituted(v, folder) for k, v in self.env.items()}}


def substituted(text: str, folder: Path) -> str:
    """`text` with the fresh folder in place of FOLDER."""
    return text.replace(FOLDER, str(folder))


def _npm_js(package: str, script: str) -> Path:
    return NPM / package / script


SERVERS: tuple[Server, ...] = (
    Server(
        "server-everything",
        "TypeScript SDK",
        "TypeScript",
        "@modelcontextprotocol/server-everything",
        "2026.8.31",
        "npm",
        _npm_js("@modelcontextprotocol/server-everything", "dist/index.js"),
        ("stdio",),
        node=True,
    ),
    Server(
        "server-memory",
        "TypeScript SDK",
        "TypeScript",
        "@modelcontextprotocol/server-memory",
        "2026.8.31",
        "npm",
        _npm_js("@modelcontextprotocol/server-memory", "dist/index.js"),
        env={"MEMORY_FILE_PATH": FOLDER + "/memory.jsonl"},
        node=True,
    ),
    Server(
        "server-filesystem",
        "TypeScript SDK",
        "TypeScript",
        "@modelcontextprotocol/server-filesystem",
        "2026.8.31",
        "npm",
        _npm_js("@modelcontextprotocol/server-filesystem", "dist/index.js"),
        (FOLDER,),
        node=True,
    ),
    Server(
        "server-sequential-thinking",
        "TypeScript SDK",
        "TypeScript",
        "@modelcontextprotocol/server-sequential-thinking",
        "2026.8.31",
        "npm",
        _npm_js("@modelcontextprotocol/server-sequential-thinking", "dist/index.js"),
        node=True,
    ),
    Server(
        "mcp-server-time",
        "Python SDK (low-level Server)",
        "Python",
        "mcp-server-time",
        "2026.10.19",
        "PyPI",
        PY_MCP2 / "mcp-server-time",
        ("--local-timezone", "UTC"),
    ),
    Server(
        "mcp-server-git",
        "Python SDK (low-level Server)",
        "Python",
        "mcp-server-git",
        "2026.10.19",
        "PyPI",
        PY_MCP2 / "mcp-server-git",
    ),
    Server(
        "excel-mcp-server",
        "Python SDK 2.x (FastMCP)",
        "Python",
        "excel-mcp-server",
        "2.2.2",
        "PyPI",
        PY_MCP2 / "excel-mcp-server",
        ("stdio",),
    ),
    Server(
        "mcp-server-calculator",
        "Python SDK 1.x (FastMCP)",
        "Python",
        "mcp-server-calculator",
        "0.2.1",
        "PyPI",
        PY_MCP1 / "mcp-server-calculator",
    ),
    Server(
        "mcp-agents",
        "FastMCP 4 (standalone fastmcp)",
        "Python",
        "amajakai14-mcp-agents",
        "0.1.4",
        "PyPI",
        PY_MCP2 / "mcp-agents",
        # Unbuffered, as in many containers: its print() banner then comes out before the
        # first message instead of when it exits.
        env={"PYTHONUNBUFFERED": "1"},
    ),
    Server(
        "bachai-calculator",
        "none (hand-rolled JSON-RPC loop)",
        "Python",
        "bachai-calculator-mcp",
        "1.0.0",
        "PyPI",
        PY_MCP2 / "bachai-calculator-mcp",
    ),
    Server(
        "mcp-time-go",
        "mark3labs/mcp-go",
        "Go",
        "mcp-time-linux-x64",
        "0.4.0",
        "npm",
        NPM / "mcp-time-linux-x64" / "bin" / "mcp-time",
    ),
    Server(
        "mcp-cron",
        "official Go SDK (modelcontextprotocol/go-sdk)",
        "Go",
        "mcp-cron-linux-amd64",
        "0.9.1",
        "npm",
        NPM / "mcp-cron-linux-amd64" / "bin" / "mcp-cron",
        ("--transport", "stdio", "--db-path", FOLDER + "/results.db"),
    ),
    Server(
        "cortex-mcp",
        "rmcp 1.1.1 (official Rust SDK)",
        "Rust",
        "@temporal-cortex/cortex-mcp-linux-x64",
        "0.9.1",
        "npm",
        NPM / "@temporal-cortex" / "cortex-mcp-linux-x64" / "bin" / "cortex-mcp",
    ),
)

BY_NAME = {server.name: server for server in SERVERS}


def require(server: Server) -> None:
    """Skip the calling test, saying why, when `server` cannot run here."""
    import pytest

    reason = server.installed()
    if reason is not None:
        pytest.skip(reason)
