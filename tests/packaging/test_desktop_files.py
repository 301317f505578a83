"""The desktop integration files in packaging/linux/ validate with the freedesktop tools
(Debian's desktop-file-utils and appstream; scripts/system-deps.sh installs them), agree with
each other, and the icons are rendered from the one source SVG in the sizes the icon theme
spec expects."""

from __future__ import annotations

import configparser
import os
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.helpers.peers import REPO

LINUX = REPO / "packaging" / "linux"
APP_ID = "io.github.mcp_inspector_qt"
DESKTOP = LINUX / f"{APP_ID}.desktop"
METAINFO = LINUX / f"{APP_ID}.metainfo.xml"
SOURCE_ICON = REPO / "inspector" / "ui" / "resources" / "mcp-inspector-qt.svg"


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (scripts/system-deps.sh installs it as root)")
    return found


def test_the_desktop_entry_validates() -> None:
    done = subprocess.run(
        [tool("desktop-file-validate"), str(DESKTOP)], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0 and done.stdout.strip() == "", done.stdout + done.stderr


def test_the_metainfo_validates() -> None:
    done = subprocess.run(
        [tool("appstreamcli"), "validate", "--no-net", str(METAINFO)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "E:" not in done.stdout and "W:" not in done.stdout, done.stdout


def test_the_entry_the_metainfo_and_the_icons_name_the_same_app() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(DESKTOP, encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["Icon"] == APP_ID
    assert section["Exec"].split()[0] == "mcp-inspector-qt"  # the console script's name
    component = ET.parse(METAINFO).getroot()
    assert component.findtext("id") == APP_ID
    assert component.findtext("launchable") == DESKTOP.name
    assert component.findtext("provides/binary") == "mcp-inspector-qt"
    from inspector import __version__

    assert component.find("releases/release").get("version") == __version__  # type: ignore[union-attr]


def test_icons_are_rendered_from_the_one_source(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, str(REPO / "packaging" / "make_icons.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    hicolor = tmp_path / "hicolor"
    for size in (16, 22, 24, 32, 48, 64, 128, 256, 512):
        png = (hicolor / f"{size}x{size}" / "apps" / f"{APP_ID}.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", png[16:24]) == (size, size)
    scalable = hicolor / "scalable" / "apps" / f"{APP_ID}.svg"
    assert scalable.read_bytes() == SOURCE_ICON.read_bytes()
    assert (tmp_path / "mcp-inspector-qt.ico").stat().st_size > 0  # the Windows recipe's icon


def test_install_desktop_puts_a_valid_entry_in_a_users_home(tmp_path: Path) -> None:
    """packaging/linux/install-desktop.sh, run from an unpacked app folder."""
    app = tmp_path / "app with space"
    (app / "share" / "applications").mkdir(parents=True)
    (app / "share" / "metainfo").mkdir(parents=True)
    (app / "share" / "icons" / "hicolor" / "48x48" / "apps").mkdir(parents=True)
    shutil.copy(DESKTOP, app / "share" / "applications")
    shutil.copy(METAINFO, app / "share" / "metainfo")
    (app / "share/icons/hicolor/48x48/apps" / f"{APP_ID}.png").write_bytes(b"png")
    (app / "mcp-inspector-qt").write_text("#!/bin/sh\n", encoding="utf-8")
    (app / "mcp-inspector-qt").chmod(0o755)
    shutil.copy(LINUX / "install-desktop.sh", app)
    home = tmp_path / "home"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home)}
    done = subprocess.run(
        ["bash", str(app / "install-desktop.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    installed = home / ".local/share/applications" / DESKTOP.name
    assert f'Exec="{app}/mcp-inspector-qt" gui' in installed.read_text(encoding="utf-8")
    assert (home / ".local/bin/mcp-inspector-qt").resolve() == app / "mcp-inspector-qt"
    assert (home / ".local/share/icons/hicolor/48x48/apps" / f"{APP_ID}.png").is_file()
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(
            ["desktop-file-validate", str(installed)], capture_output=True, text=True, timeout=30
        )
        assert check.returncode == 0, check.stdout
    done = subprocess.run(
        ["bash", str(app / "install-desktop.sh"), "--uninstall"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert not installed.exists() and not (home / ".local/bin/mcp-inspector-qt").exists()
