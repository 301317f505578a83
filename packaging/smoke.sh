#!/usr/bin/env bash
# Smoke-test a built or installed app from outside the checkout: --version, the CLI against
# the bundled demo server, and a screenshot of the connected window (offscreen).
# Usage: packaging/smoke.sh [APP]   (default: dist/mcp-inspector-qt/mcp-inspector-qt)
# The full checks (bad input too) are tests/packaging/, run with MCP_INSPECTOR_APP=APP.
set -euo pipefail
app=${1:-dist/mcp-inspector-qt/mcp-inspector-qt}
case "$app" in /*) ;; *) app="$PWD/$app" ;; esac
[ -x "$app" ] || { echo "smoke: $app is not an executable" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export MCP_INSPECTOR_CONFIG_DIR=$work/config MCP_INSPECTOR_DATA_DIR=$work/data
unset PYTHONPATH

"$app" --version
start=$(date +%s.%N)
"$app" cli --method tools/list --compact -- "$app" demo-server >tools.json
grep -q '"name":"add"' tools.json || { echo "smoke: no 'add' tool in tools/list" >&2; exit 1; }
echo "smoke: cli tools/list against the demo server: $(grep -o '"name":"[^"]*"' tools.json | wc -l) names"
QT_QPA_PLATFORM=offscreen "$app" gui --profile demo --screenshot "$work/shot.png"
end=$(date +%s.%N)
head -c 8 shot.png | od -An -c | grep -q "P   N   G" || { echo "smoke: no PNG written" >&2; exit 1; }
[ -z "${SMOKE_KEEP:-}" ] || cp shot.png "$SMOKE_KEEP"
echo "smoke: ok ($(awk "BEGIN{printf \"%.1f\", $end-$start}") s for the cli call and the screenshot)"
