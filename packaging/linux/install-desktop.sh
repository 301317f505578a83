#!/usr/bin/env bash
# Install this unpacked app for the current user: a launcher entry, the icons, the AppStream
# metainfo, the MIME type of session files (a file manager opens them with the app) and
# `mcp-inspector-qt` on PATH (a link in ~/.local/bin). Run it from the app folder.
# Usage: ./install-desktop.sh [--uninstall]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
data=${XDG_DATA_HOME:-$HOME/.local/share}
bin=$HOME/.local/bin
app_id=io.github.mcp_inspector_qt
if [ "${1:-}" = --uninstall ]; then
    rm -f "$bin/mcp-inspector-qt" "$data/applications/$app_id.desktop" \
        "$data/metainfo/$app_id.metainfo.xml" "$data/mime/packages/$app_id.xml"
    command -v update-mime-database >/dev/null 2>&1 && [ -d "$data/mime" ] && update-mime-database "$data/mime" || true
    find "$data/icons/hicolor" -name "$app_id.*" -delete 2>/dev/null || true
    echo "removed the launcher entry, icons and $bin/mcp-inspector-qt"
    exit 0
fi
mkdir -p "$bin" "$data/applications" "$data/metainfo" "$data/icons" "$data/mime/packages"
ln -sf "$here/mcp-inspector-qt" "$bin/mcp-inspector-qt"
# The entry runs the app by its full path, so it works before ~/.local/bin is on PATH.
sed -e "s|^Exec=mcp-inspector-qt|Exec=\"$here/mcp-inspector-qt\"|" \
    -e "s|^TryExec=mcp-inspector-qt|TryExec=$here/mcp-inspector-qt|" \
    "$here/share/applications/$app_id.desktop" >"$data/applications/$app_id.desktop"
cp "$here/share/metainfo/$app_id.metainfo.xml" "$data/metainfo/"
cp "$here/share/mime/packages/$app_id.xml" "$data/mime/packages/"
cp -r "$here/share/icons/hicolor" "$data/icons/"
command -v update-mime-database >/dev/null 2>&1 && update-mime-database "$data/mime" || true
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$data/applications" || true
command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t "$data/icons/hicolor" || true
echo "installed: $bin/mcp-inspector-qt and the MCP Inspector launcher entry"
