# Sourced (not run) by scripts/setup.sh and packaging/build.sh, from the checkout's root: the
# one way both make their venv. Defines pick_python and ensure_venv; runs nothing itself.

# The Python to make a venv with: $PYTHON if set, else the newest python3.1x >= 3.11 on PATH.
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

# ensure_venv VENV WHO WHAT IMPORTS PIP_ARGS...
# Makes VENV once; installs PIP_ARGS into it again only when pyproject.toml changed since the
# last install (a stamp file holds its hash), then checks that IMPORTS (a comma list) import.
# WHO prefixes the progress lines, WHAT names what is installed.
ensure_venv() {
    local venv=$1 who=$2 what=$3 imports=$4
    shift 4
    local stamp py
    stamp=$venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)
    if [ ! -x "$venv/bin/python" ]; then
        py=$(pick_python)
        echo "$who: creating $venv with $($py --version)" >&2
        "$py" -m venv "$venv"
    fi
    if [ ! -f "$stamp" ]; then
        echo "$who: installing $what into $venv" >&2
        "$venv/bin/python" -m pip install --quiet --upgrade pip 2>&1 | grep -v "is ignored" || true
        "$venv/bin/python" -m pip install --quiet "$@" 2>&1 | grep -v "is ignored" || true
        "$venv/bin/python" -c "import $imports" \
            || { echo "error: installing $what into $venv failed" >&2; exit 1; }
        rm -f "$venv"/.installed-*
        touch "$stamp"
    fi
}
