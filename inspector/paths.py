"""Where the app keeps its files: one config directory, overridable for tests.

`MCP_INSPECTOR_CONFIG_DIR` points everything (profiles, window state) at another
directory, so tests and portable setups never touch the user's real config.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

import platformdirs

__all__ = ["APP_NAME", "CONFIG_DIR_ENV", "config_dir", "profiles_path", "settings_path"]

APP_NAME: Final = "mcp-inspector-qt"
CONFIG_DIR_ENV: Final = "MCP_INSPECTOR_CONFIG_DIR"


def config_dir() -> Path:
    """The config directory (not created here)."""
    override = os.environ.get(CONFIG_DIR_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def profiles_path() -> Path:
    return config_dir() / "profiles.json"


def settings_path() -> Path:
    """Window state, splitters and recent profiles (QSettings, INI format)."""
    return config_dir() / "window.ini"
