#!/usr/bin/env bash
# Build the one-folder Linux app into dist/mcp-inspector-qt/ (plus a tarball), then smoke-test it.
# Idempotent: the build venv (build/freeze-venv) is made once and refreshed when pyproject.toml
# changes; the app itself is reinstalled from this checkout on every run.
#
# Usage: packaging/build.sh [--no-smoke]
# Env:   PYTHON   the Python to build with (default: the newest python3.1x >= 3.11 on PATH)
set -euo pipefail
cd "$(dirname "$0")/.."

smoke=1
for arg in "$@"; do
    case "$arg" in
        --no-smoke) smoke=0 ;;
        -h | --help) sed -n '2,8p' "$0"; exit 0 ;;
        *) echo "usage: packaging/build.sh [--no-smoke]" >&2; exit 2 ;;
    esac
done

# PyInstaller reads shared-library dependencies with ldd and objdump (binutils); Qt needs its
# Debian libraries to run the smoke test offscreen.
scripts/system-deps.sh
if ! command -v objdump >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq binutils >/dev/null
    else
        echo "error: PyInstaller needs objdump (Debian: apt-get install binutils)" >&2
        exit 1
    fi
fi

# What the wheel is made of, copied: building from the copy leaves no egg-info or build/lib in
# the checkout, and nothing from tests/ can reach the bundle.
rm -rf build/src && mkdir -p build/src
cp -r pyproject.toml README.md inspector build/src/
find build/src -name __pycache__ -prune -exec rm -rf {} +

VENV=build/freeze-venv
# shellcheck source=scripts/venv.sh
. scripts/venv.sh
ensure_venv "$VENV" build "the app's dependencies and PyInstaller" "inspector, PySide6, PyInstaller" \
    "./build/src[freeze]"
# The app itself on every run (not an editable link): the bundle holds what a wheel ships.
"$VENV/bin/python" -m pip install --quiet --no-deps --force-reinstall ./build/src 2>&1 | grep -v "is ignored" || true
version=$("$VENV/bin/python" -c "import inspector; print(inspector.__version__)")

echo "build: icons" >&2
rm -rf build/icons
"$VENV/bin/python" packaging/make_icons.py build/icons >/dev/null

echo "build: PyInstaller (one folder)" >&2
"$VENV/bin/pyinstaller" --noconfirm --log-level WARN \
    --distpath dist --workpath build/pyinstaller packaging/pyinstaller/mcp-inspector-qt.spec

app=dist/mcp-inspector-qt
app_id=io.github.mcp_inspector_qt
mkdir -p "$app/share/applications" "$app/share/metainfo" "$app/share/icons" "$app/share/mime/packages"
cp packaging/linux/$app_id.desktop "$app/share/applications/"
cp packaging/linux/$app_id.mime.xml "$app/share/mime/packages/$app_id.xml"
cp packaging/linux/$app_id.metainfo.xml "$app/share/metainfo/"
cp -r build/icons/hicolor "$app/share/icons/"
cp packaging/linux/install-desktop.sh "$app/"

tarball=dist/mcp-inspector-qt-$version-linux-$(uname -m).tar.gz
tar -C dist -czf "$tarball" mcp-inspector-qt
echo "build: $app/mcp-inspector-qt ($(du -sh "$app" | cut -f1)), $tarball ($(du -sh "$tarball" | cut -f1))" >&2

if [ "$smoke" = 1 ]; then
    packaging/smoke.sh "$app/mcp-inspector-qt"
fi
