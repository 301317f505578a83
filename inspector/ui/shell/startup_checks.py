"""What `gui` checks before Qt starts, so a bad environment gets a clear sentence instead of
Qt's abort or a traceback: is there a display to open a window on, and can the app write its
config and data folders (a read-only or missing home)?"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Final

__all__ = ["OFFSCREEN_HINT", "display_problem", "unwritable_folders"]

# Qt platforms that need no display server.
_HEADLESS: Final = ("offscreen", "minimal", "vnc", "linuxfb", "eglfs", "vkkhrdisplay")
OFFSCREEN_HINT: Final = (
    "run it in a desktop session, or save a screenshot without one "
    "(mcp-inspector-qt gui --profile demo --screenshot out.png); the headless commands "
    "(mcp-inspector-qt cli ...) need no display"
)


def _x_socket(display: str) -> Path | None:
    """The local socket of an X display like ":99" or ":0.0"; None for a remote one."""
    host, _, rest = display.rpartition(":")
    number = rest.split(".", 1)[0]
    if host not in ("", "unix") or not number.isdigit():
        return None
    return Path(f"/tmp/.X11-unix/X{number}")


def display_problem(
    env: Mapping[str, str] | None = None, platform: str = sys.platform
) -> str | None:
    """Why Qt could not open a window here, or None when it can (or when we cannot tell:
    only a clear absence is reported, Qt decides the rest)."""
    env = os.environ if env is None else env
    if not platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return None  # macOS and Windows always have their own window system
    requested = env.get("QT_QPA_PLATFORM", "")
    if requested.startswith(_HEADLESS):
        return None
    wayland = env.get("WAYLAND_DISPLAY", "")
    display = env.get("DISPLAY", "")
    if wayland and not requested.startswith("xcb"):
        return None
    if display:
        socket = _x_socket(display)
        if socket is None or socket.exists():
            return None
        return f"no X server is running on DISPLAY={display} ({socket} does not exist)"
    if requested.startswith("xcb"):
        return "no display: QT_QPA_PLATFORM asks for X11 (xcb) and DISPLAY is not set"
    return "no display: neither DISPLAY nor WAYLAND_DISPLAY is set"


def unwritable_folders(folders: Mapping[str, Path]) -> list[str]:
    """One sentence per folder the app cannot create or write (by what it keeps there)."""
    problems = []
    for what, folder in folders.items():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            probe = folder / f".write-test-{os.getpid()}"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            reason = exc.strerror or str(exc)
            problems.append(f"cannot write {folder} ({reason}): {what}")
    return problems
