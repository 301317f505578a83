"""The desktop integration files in packaging/linux/ validate with the freedesktop tools
(Debian's desktop-file-utils and appstream; scripts/system-deps.sh installs them), agree with
each other, and the icons are rendered from the one source SVG in the sizes the icon theme
spec expects."""

from __future__ import annotations

import configparser
import json
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
MIME_XML = LINUX / f"{APP_ID}.mime.xml"
SESSION_TYPE = "application/x-mcp-inspector-session"
SMI = "{http://www.freedesktop.org/standards/shared-mime-info}"
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


def test_session_files_have_a_mime_type_the_entry_opens(tmp_path: Path) -> None:
    """A file manager opens session files with the app (issue 27): the entry declares the
    type and passes the files (%F); shared-mime-info knows the type by its glob and by the
    first line every recording starts with."""
    if shutil.which("xmllint"):
        done = subprocess.run(
            ["xmllint", "--noout", str(MIME_XML)], capture_output=True, text=True, timeout=30
        )
        assert done.returncode == 0, done.stderr
    root = ET.parse(MIME_XML).getroot()
    assert root.tag == f"{SMI}mime-info"
    (kind,) = root.findall(f"{SMI}mime-type")
    assert kind.get("type") == SESSION_TYPE and kind.findtext(f"{SMI}comment")
    assert [g.get("pattern") for g in kind.findall(f"{SMI}glob")] == ["*.jsonl"]
    match = kind.find(f"{SMI}magic/{SMI}match")
    assert match is not None and match.get("type") == "string"
    from inspector.recording.format import header_line

    header = header_line({}, era="legacy", client_info={}, client_capabilities={})
    first = json.dumps(header, ensure_ascii=False, separators=(",", ":"))  # as the writer does
    value, offsets = match.get("value", ""), match.get("offset", "0:0").split(":")
    assert value in first[: int(offsets[-1]) + len(value)], first[:80]

    entry = configparser.ConfigParser(interpolation=None)
    entry.read(DESKTOP, encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["MimeType"].split(";") == [SESSION_TYPE, ""]
    assert section["Exec"].split()[-1] == "%F"
    component = ET.parse(METAINFO).getroot()
    assert component.findtext("provides/mediatype") == SESSION_TYPE

    if shutil.which("update-mime-database"):  # the database builds from it, as installed
        (tmp_path / "mime" / "packages").mkdir(parents=True)
        shutil.copy(MIME_XML, tmp_path / "mime" / "packages" / f"{APP_ID}.xml")
        done = subprocess.run(
            ["update-mime-database", str(tmp_path / "mime")],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0 and "error" not in done.stderr.lower(), done.stderr
        assert f"40:{SESSION_TYPE}:*.jsonl" in (tmp_path / "mime" / "globs2").read_text()
        assert SESSION_TYPE.encode() in (tmp_path / "mime" / "magic").read_bytes()


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
    (app / "share" / "mime" / "packages").mkdir(parents=True)
    shutil.copy(MIME_XML, app / "share" / "mime" / "packages" / f"{APP_ID}.xml")
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
    assert (home / ".local/share/mime/packages" / f"{APP_ID}.xml").is_file()
    assert "gui %F" in installed.read_text(encoding="utf-8")
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
    assert not (home / ".local/share/mime/packages" / f"{APP_ID}.xml").exists()
