#!/usr/bin/env bash
# Create .venv and install the app with its test extras and the apps extra (QtWebEngine,
# for MCP Apps). Idempotent: re-runs only when pyproject.toml changed. Usage: scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

pick_python() {
    for candidate in "${PYTHON:-}" python3.13 python3.12 python3.11 python3; do
        [ -n "$candidate" ] || continue
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    echo "error: Python 3.11 or newer is required" >&2
    return 1
}

stamp=.venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)
if [ ! -x .venv/bin/python ]; then
    py=$(pick_python)
    echo "setup: creating .venv with $($py --version)" >&2
    "$py" -m venv .venv
fi
if [ ! -f "$stamp" ]; then
    echo "setup: installing Python packages into .venv" >&2
    .venv/bin/python -m pip install --quiet --upgrade pip 2>&1 | grep -v "is ignored" || true
    .venv/bin/python -m pip install --quiet -e ".[test,models,apps]" 2>&1 | grep -v "is ignored" || true
    .venv/bin/python -c "import inspector, PySide6, qasync, httpx, pydantic, mcp, openai, anthropic" \
        || { echo "error: the Python install failed" >&2; exit 1; }
    rm -f .venv/.installed-*
    touch "$stamp"
fi
