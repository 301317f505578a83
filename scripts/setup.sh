#!/usr/bin/env bash
# Create .venv and install the app with its test extras and the apps extra (QtWebEngine,
# for MCP Apps). Idempotent: re-runs only when pyproject.toml changed. Usage: scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/venv.sh
. scripts/venv.sh
ensure_venv .venv setup "Python packages" "inspector, PySide6, qasync, httpx, pydantic, mcp, openai, anthropic" \
    -e ".[test,models,apps]"
