"""Is QtWebEngine here, and can Chromium keep its sandbox? Cheap checks, no WebEngine import.

Chromium refuses its own sandbox when running as root (CI, containers): then, and only
then, the app view turns it off (`--no-sandbox`) and says so. A normal user keeps it."""

from __future__ import annotations

import importlib.util
import os
from typing import Final

__all__ = ["INSTALL_HINT", "prepare_sandbox", "sandbox_note", "webengine_available"]

INSTALL_HINT: Final = (
    "Rendering MCP Apps needs QtWebEngine (PySide6-Addons), an optional extra: "
    "pip install 'mcp-inspector-qt[apps]' (scripts/setup.sh installs it)."
)

_available: bool | None = None


def webengine_available() -> bool:
    global _available
    if _available is None:
        try:
            _available = importlib.util.find_spec("PySide6.QtWebEngineWidgets") is not None
        except (ImportError, ValueError):
            _available = False
    return _available


def _root() -> bool:
    geteuid = getattr(os, "geteuid", None)
    return geteuid is not None and geteuid() == 0


def _flags() -> str:
    return os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS", "")


def prepare_sandbox() -> None:
    """Before the first WebEngine object: as root, without the sandbox (Chromium would not
    start otherwise). Never for a normal user."""
    if _root() and "--no-sandbox" not in _flags():
        os.environ["QTWEBENGINE_CHROMIUM_FLAGS"] = (_flags() + " --no-sandbox").strip()


def sandbox_note() -> str | None:
    """What the view says when Chromium's own sandbox is off, else None."""
    if "--no-sandbox" in _flags() or os.environ.get("QTWEBENGINE_DISABLE_SANDBOX") == "1":
        why = "running as root" if _root() else "QTWEBENGINE_CHROMIUM_FLAGS has --no-sandbox"
        return (
            f"⚠ Chromium's process sandbox is off ({why}). The app still runs in a "
            "sandboxed frame with no file access, no Qt bridge but its messages, and only "
            "the network its CSP declares."
        )
    return None
