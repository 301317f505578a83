#!/usr/bin/env bash
# Set up and launch the app against the bundled demo server.
# Until the desktop window lands, this runs the headless CLI: it lists the demo's tools
# and calls one. Usage: scripts/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
demo=(.venv/bin/python -m inspector.demo)
echo "== tools/list on the bundled demo server" >&2
.venv/bin/mcp-inspector-qt cli --method tools/list -- "${demo[@]}"
echo "== tools/call add a=2 b=40" >&2
.venv/bin/mcp-inspector-qt cli --method tools/call --tool-name add --tool-arg a=2 --tool-arg b=40 -- "${demo[@]}"
