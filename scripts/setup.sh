#!/usr/bin/env bash
# Create .venv and install the app with its test extras, the apps extra (QtWebEngine,
# for MCP Apps) and the otel extra (OpenTelemetry, for export-otlp). Idempotent: re-runs
# only when pyproject.toml changed. Usage: scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/venv.sh
. scripts/venv.sh
ensure_venv .venv setup "Python packages" "inspector, PySide6, qasync, httpx, pydantic, mcp, openai, anthropic, opentelemetry.sdk" \
    -e ".[test,models,apps,otel]"
