"""Where the app keeps its files: a config directory and a data directory, each
overridable for tests.

`MCP_INSPECTOR_CONFIG_DIR` points the config (profiles, window state) at another
directory, and `MCP_INSPECTOR_DATA_DIR` the data (recorded sessions), so tests and
portable setups never touch the user's real files.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

import platformdirs

__all__ = [
    "APP_NAME",
    "CONFIG_DIR_ENV",
    "DATA_DIR_ENV",
    "config_dir",
    "data_dir",
    "profiles_path",
    "sessions_dir",
    "settings_path",
]

APP_NAME: Final = "mcp-inspector-qt"
CONFIG_DIR_ENV: Final = "MCP_INSPECTOR_CONFIG_DIR"
DATA_DIR_ENV: Final = "MCP_INSPECTOR_DATA_DIR"


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


def data_dir() -> Path:
    """The data directory (not created here): where recorded sessions are kept."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def sessions_dir() -> Path:
    """Where every GUI connection is recorded by default (docs/session-format.md)."""
    return data_dir() / "sessions"
