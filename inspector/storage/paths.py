"""Where the app keeps its files: a config directory and a data directory, each
overridable for tests.

`MCP_INSPECTOR_CONFIG_DIR` points the config (profiles, window state) at another
directory, and `MCP_INSPECTOR_DATA_DIR` the data (recorded sessions), so tests and
portable setups never touch the user's real files.
"""

from __future__ import annotations

import os
from collections.abc import Callable
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
    return _overridable(CONFIG_DIR_ENV, platformdirs.user_config_dir)


def profiles_path() -> Path:
    return config_dir() / "profiles.json"


def settings_path() -> Path:
    """Window state, splitters and recent profiles (QSettings, INI format)."""
    return config_dir() / "window.ini"


def data_dir() -> Path:
    """The data directory (not created here): where recorded sessions are kept."""
    return _overridable(DATA_DIR_ENV, platformdirs.user_data_dir)


def _overridable(env: str, platform_dir: Callable[..., str]) -> Path:
    """The directory the environment variable `env` names, else the platform's own."""
    override = os.environ.get(env)
    if override:
        return Path(override).expanduser()
    return Path(platform_dir(APP_NAME, appauthor=False))


def sessions_dir() -> Path:
    """Where every GUI connection is recorded by default (docs/session-format.md)."""
    return data_dir() / "sessions"
