#!/usr/bin/env bash
# Set up everything and run the whole test suite: ruff, mypy, the import contracts, the
# conformance suite, the frozen app build, pytest.
# Usage: scripts/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/system-deps.sh
scripts/setup.sh
if [ $# -eq 0 ]; then
    # The frozen app (PyInstaller, about 1.5 min from scratch) builds from its own copy of the
    # checkout into its own venv (build/), so it runs beside the peers' installs, the linters
    # and the conformance suite: on 2 cores that overlap saves about a minute of the budget.
    # tests/packaging/ needs it, so pytest starts only once it is done.
    mkdir -p test-results
    packaging/build.sh --no-smoke >test-results/frozen-build.log 2>&1 &
    build_pid=$!
    trap 'kill "$build_pid" 2>/dev/null || true' EXIT
fi
scripts/install-peers.sh
scripts/conformance.sh --install-only
export QT_QPA_PLATFORM=offscreen
echo "== ruff" >&2
.venv/bin/ruff check inspector tests bench packaging
.venv/bin/ruff format --check --quiet inspector tests bench packaging
echo "== mypy" >&2
.venv/bin/mypy
echo "== import contracts" >&2
.venv/bin/lint-imports --no-cache
if [ $# -eq 0 ]; then
    # The official conformance suite (client scenarios, 2025-11-25 and 2026-07-28) as its
    # own step; scripts/conformance.sh runs it alone. Results: test-results/conformance/.
    echo "== conformance" >&2
    .venv/bin/python -m pytest -q -p no:cacheprovider -m conformance tests/conformance/test_conformance.py
fi
if [ $# -eq 0 ]; then
    # tests/packaging/ runs the frozen app like the wheel it installs into a fresh venv.
    # packaging/build.sh alone also smoke-tests it.
    echo "== frozen app (packaging/build.sh, started after setup)" >&2
    if ! wait "$build_pid"; then
        cat test-results/frozen-build.log >&2
        echo "error: the frozen app did not build (log above: test-results/frozen-build.log)" >&2
        exit 1
    fi
    trap - EXIT
    cat test-results/frozen-build.log >&2
fi
echo "== pytest" >&2
# In parallel (pytest-xdist): PYTEST_WORKERS processes, 3 by default (measured on 2 cores:
# many tests wait on a server or a subprocess; README.md "Tests"). `--dist loadgroup` keeps
# on one worker the tests that share a server or an install (tests/conftest.py). Pass `-n 0`
# to run in this one process. -X faulthandler: a native crash prints every thread's Python
# stack in the CI log (the workers' own faulthandler, pytest's, prints theirs).
# --durations: the 25 slowest tests, to keep the whole command under its 15 minutes.
exec .venv/bin/python -X faulthandler -m pytest -q -p no:cacheprovider \
    -n "${PYTEST_WORKERS:-3}" --dist loadgroup --durations=25 "$@"
