"""In a frozen app (PyInstaller) the bootloader points the library path at the bundle; a
server started with the full environment must get the user's own library path back."""

from __future__ import annotations

import sys

import pytest

from inspector.settings.profiles import demo_profile
from inspector.transports.stdio import full_environment


def test_not_frozen_the_full_environment_is_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(sys, "frozen", raising=False)
    monkeypatch.setenv("LD_LIBRARY_PATH", "/opt/mine")
    assert full_environment()["LD_LIBRARY_PATH"] == "/opt/mine"


def test_frozen_the_users_library_path_comes_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setenv("LD_LIBRARY_PATH", "/app/_internal:/opt/mine")
    monkeypatch.setenv("LD_LIBRARY_PATH_ORIG", "/opt/mine")
    env = full_environment()
    assert env["LD_LIBRARY_PATH"] == "/opt/mine"
    assert "LD_LIBRARY_PATH_ORIG" not in env


def test_frozen_with_no_library_path_of_the_users_none_is_passed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setenv("LD_LIBRARY_PATH", "/app/_internal")
    monkeypatch.delenv("LD_LIBRARY_PATH_ORIG", raising=False)
    assert "LD_LIBRARY_PATH" not in full_environment()


def test_the_frozen_demo_profile_runs_the_app_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    stdio = demo_profile().stdio
    assert (stdio.command, stdio.args, stdio.env) == (sys.executable, ["demo-server"], [])
    monkeypatch.delattr(sys, "frozen")
    stdio = demo_profile().stdio
    assert stdio.args == ["-m", "inspector.demo"]
