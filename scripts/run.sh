#!/usr/bin/env bash
# Set up and launch the desktop app, connected to the bundled demo server.
# With no display (a headless Linux), it saves a screenshot of the connected window
# to out/demo.png instead, and says so. Usage: scripts/run.sh [gui options]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/system-deps.sh
scripts/setup.sh
if [ "$(uname)" = Linux ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] &&
    [ -z "${QT_QPA_PLATFORM:-}" ]; then
    echo "run: no display here; saving a screenshot of the connected window to out/demo.png" >&2
    exec env QT_QPA_PLATFORM=offscreen \
        .venv/bin/mcp-inspector-qt gui --profile demo --screenshot out/demo.png "$@"
fi
exec .venv/bin/mcp-inspector-qt gui --profile demo "$@"
