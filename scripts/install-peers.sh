#!/usr/bin/env bash
# Install the test peers: the npm ones (pinned in peers/package-lock.json) into .peers/npm, and
# the corpus's Python servers (pinned in peers/python-*.txt) into one venv each under .peers/
# (docs/corpus.md). Idempotent: each part is reinstalled only when its pins changed.
# Needs node and npm (Debian's nodejs/npm are installed when missing and root).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v npm >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
    else
        echo "warning: npm not found; tests that need npm peers will be skipped" >&2
        exit 0
    fi
fi
mkdir -p .peers/npm
if ! cmp -s peers/package-lock.json .peers/npm/package-lock.json ||
    [ ! -d .peers/npm/node_modules/@modelcontextprotocol/server-everything ] ||
    [ ! -d .peers/npm/node_modules/@modelcontextprotocol/server-basic-vanillajs ] ||
    [ ! -d .peers/npm/node_modules/@temporal-cortex/cortex-mcp-linux-x64 ]; then
    echo "peers: installing npm peers into .peers/npm" >&2
    cp peers/package.json peers/package-lock.json .peers/npm/
    (cd .peers/npm && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
# The Go and Rust servers ship as bare binaries in npm packages; npm may drop their mode.
for binary in .peers/npm/node_modules/mcp-time-linux-x64/bin/mcp-time \
    .peers/npm/node_modules/mcp-cron-linux-amd64/bin/mcp-cron \
    .peers/npm/node_modules/@temporal-cortex/cortex-mcp-linux-x64/bin/cortex-mcp; do
    [ -f "$binary" ] && [ ! -x "$binary" ] && chmod +x "$binary"
done

# The Python servers of the corpus: one venv per pin file (their mcp SDK lines clash), never
# the project's .venv, installed side by side. The venv keeps a copy of its pin file as the
# stamp of what it holds.
# shellcheck source=scripts/venv.sh
. scripts/venv.sh
install_pins() {
    local pins=$1 venv=$2
    echo "peers: installing $pins into $venv" >&2
    rm -rf "$venv"
    "$(pick_python)" -m venv "$venv"
    "$venv/bin/python" -m pip install -qq --no-deps --disable-pip-version-check -r "$pins" >/dev/null
    cp "$pins" "$venv/pins.txt"
}
pids=()
for pins in peers/python-*.txt; do
    venv=".peers/py-$(basename "$pins" .txt | sed 's/^python-//')"
    if ! cmp -s "$pins" "$venv/pins.txt" || [ ! -x "$venv/bin/python" ]; then
        install_pins "$pins" "$venv" &
        pids+=("$!")
    fi
done
for pid in "${pids[@]}"; do
    wait "$pid"
done
