"""Where the repository, the interpreter and the real peers are, for tests and their servers."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PY = sys.executable
EVERYTHING_JS = (
    REPO / ".peers/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
)
# An official MCP Apps example (ext-apps): one tool, get-time, with a ui:// app.
BASIC_APP_JS = (
    REPO / ".peers/npm/node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js"
)
SPEC_DIR = REPO.parent / "shared" / "spec"
SERVERS = REPO / "tests" / "servers"
FIXTURES = REPO / "tests" / "fixtures"


def demo_command() -> list[str]:
    return [PY, "-m", "inspector.demo"]


def subprocess_env() -> dict[str, str]:
    """Env for child servers: make `inspector` importable without an install."""
    return {"PYTHONPATH": str(REPO)}
