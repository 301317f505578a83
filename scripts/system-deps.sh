#!/usr/bin/env bash
# Debian packages Qt needs to run offscreen and under Xvfb, and a Secret Service
# (gnome-keyring under dbus-run-session) for the real-keyring test; an emoji font (server
# text has emoji; without a font they show as code points); for packaging/, the freedesktop
# validators (desktop-file-utils, appstream) and binutils (PyInstaller's objdump); the
# libraries QtWebEngine (MCP Apps, the apps extra) links that a bare Debian lacks.
# Installs only what is missing, and only as root with apt-get; otherwise it lists what to install.
set -euo pipefail
packages=(libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3
    libglib2.0-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 xvfb
    gnome-keyring dbus dbus-daemon desktop-file-utils appstream binutils fonts-noto-color-emoji
    libnss3 libnspr4 libxcomposite1 libxdamage1 libxrandr2 libxkbfile1 libasound2 libxtst6
    libgbm1 libdrm2 libxcb-dri3-0 libxfixes3 libxrender1 libxext6 libx11-6 libwayland-server0)
command -v dpkg >/dev/null 2>&1 || exit 0
missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "system: installing ${missing[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
    echo "warning: missing Debian packages (install them for GUI tests): ${missing[*]}" >&2
fi
