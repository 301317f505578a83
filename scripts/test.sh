#!/usr/bin/env bash
# Set up everything and run the whole test suite: ruff, mypy, pytest.
# Usage: scripts/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/system-deps.sh
scripts/setup.sh
scripts/install-peers.sh
export QT_QPA_PLATFORM=offscreen
echo "== ruff" >&2
.venv/bin/ruff check inspector tests bench
.venv/bin/ruff format --check --quiet inspector tests bench
echo "== mypy" >&2
.venv/bin/mypy
echo "== pytest" >&2
exec .venv/bin/python -m pytest -q -p no:cacheprovider "$@"
