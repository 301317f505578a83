#!/usr/bin/env bash
# Install the npm test peers (pinned in peers/package-lock.json) into .peers/npm.
# Idempotent. Needs node and npm (Debian's nodejs/npm are installed when missing and root).
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
    [ ! -d .peers/npm/node_modules/@modelcontextprotocol/server-basic-vanillajs ]; then
    echo "peers: installing npm peers into .peers/npm" >&2
    cp peers/package.json peers/package-lock.json .peers/npm/
    (cd .peers/npm && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
