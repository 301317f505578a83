#!/usr/bin/env bash
# Run the official MCP conformance suite's client scenarios against
# `python -m inspector.conformance`, for each spec revision, and judge the results
# against tests/conformance/expected-failures.txt.
#
# Usage: scripts/conformance.sh [--install-only] [VERSION...]   (default: 2025-11-25 2026-07-28)
# Env:   PYTHON        the Python that runs the client (default .venv/bin/python)
#        CONFORMANCE_TIMEOUT_MS   per-scenario client timeout (default 30000)
#        CONFORMANCE_STRICT=1     unexpected passes fail the run too
#
# Idempotent: installs Node 22 (npm `node@22`, into .peers/node22) and the pinned suite
# (peers/conformance/package-lock.json, into .peers/conformance) when missing.
# Results: test-results/conformance/<version>/ holds one folder per scenario with
# checks.json, stdout.txt and stderr.txt, plus suite.log and summary.json.
# Exit 0 only if every scenario not listed as an expected failure passes.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_DIR=.peers/node22
NODE=$NODE_DIR/node_modules/.bin/node
SUITE_DIR=.peers/conformance
SUITE_JS=$SUITE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js
EXPECTED=tests/conformance/expected-failures.txt

install_only=0
versions=()
for arg in "$@"; do
    case "$arg" in
        --install-only) install_only=1 ;;
        -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
        *) versions+=("$arg") ;;
    esac
done
[ ${#versions[@]} -gt 0 ] || versions=(2025-11-25 2026-07-28)

need_npm() {
    command -v npm >/dev/null 2>&1 && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
    else
        echo "error: npm is needed to install Node 22 and the conformance suite" >&2
        exit 1
    fi
}

node22_ok() {
    [ -x "$NODE" ] && "$NODE" -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 22 ? 0 : 1)' 2>/dev/null
}

if ! node22_ok; then
    need_npm
    echo "conformance: installing Node 22 into $NODE_DIR" >&2
    npm install --prefix "$NODE_DIR" node@22 --no-audit --no-fund --loglevel=error >/dev/null
    node22_ok || { echo "error: could not install Node 22 into $NODE_DIR" >&2; exit 1; }
fi

mkdir -p "$SUITE_DIR"
if ! cmp -s peers/conformance/package-lock.json "$SUITE_DIR/package-lock.json" || [ ! -f "$SUITE_JS" ]; then
    need_npm
    echo "conformance: installing the pinned suite into $SUITE_DIR" >&2
    cp peers/conformance/package.json peers/conformance/package-lock.json "$SUITE_DIR/"
    # npm itself runs on the `node` first in PATH: make that Node 22.
    (cd "$SUITE_DIR" && PATH="$PWD/../node22/node_modules/.bin:$PATH" \
        npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
[ "$install_only" = 1 ] && exit 0

PY=${PYTHON:-.venv/bin/python}
if [ ! -x "$PY" ]; then
    echo "error: $PY not found (run scripts/setup.sh, or set PYTHON)" >&2
    exit 1
fi
case "$PY" in /*) ;; *) PY="$PWD/$PY" ;; esac
case "$PY" in *" "*) echo "error: the suite cannot run a Python path with spaces: $PY" >&2; exit 1 ;; esac

status=0
for version in "${versions[@]}"; do
    out=test-results/conformance/$version
    rm -rf "$out"
    mkdir -p "$out"
    "$NODE" "$SUITE_JS" list --requirements "$version" >"$out/scenarios.txt"
    echo "== conformance $version (log: $out/suite.log)"
    suite_rc=0
    "$NODE" "$SUITE_JS" client \
        --command "$PY -m inspector.conformance" \
        --requirements "$version" \
        --timeout "${CONFORMANCE_TIMEOUT_MS:-30000}" \
        -o "$out" >"$out/suite.log" 2>&1 || suite_rc=$?
    echo "   the suite's own verdict (scored scenarios, no baseline): exit $suite_rc"
    strict=()
    [ "${CONFORMANCE_STRICT:-0}" = 1 ] && strict=(--strict)
    "$PY" tests/conformance/evaluate.py --version "$version" --results "$out" \
        --scenarios "$out/scenarios.txt" --expected "$EXPECTED" "${strict[@]}" || status=1
done
exit $status
