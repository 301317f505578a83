"""What `gui` checks before Qt starts: a display to open the window on, and a home the app
can write (Qt-free checks; the installed and frozen app are run against them in
tests/packaging/)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.ui.shell.startup_checks import display_problem, unwritable_folders
from tests.helpers.peers import REPO

LINUX = "linux"


def test_no_display_at_all_is_reported() -> None:
    problem = display_problem({}, LINUX)
    assert problem == "no display: neither DISPLAY nor WAYLAND_DISPLAY is set"


def test_a_local_x_display_without_its_socket_is_reported(tmp_path: Path) -> None:
    problem = display_problem({"DISPLAY": ":4242"}, LINUX)
    assert problem is not None
    assert "DISPLAY=:4242" in problem and "/tmp/.X11-unix/X4242" in problem


@pytest.mark.parametrize(
    "env",
    [
        {"QT_QPA_PLATFORM": "offscreen"},
        {"QT_QPA_PLATFORM": "minimal"},
        {"WAYLAND_DISPLAY": "wayland-0"},
        {"DISPLAY": "remote.example:10.0"},  # ssh -X and the like: Qt decides
    ],
)
def test_what_may_work_is_left_to_qt(env: dict[str, str]) -> None:
    assert display_problem(env, LINUX) is None


def test_xcb_asked_for_without_a_display_is_reported() -> None:
    problem = display_problem({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "w"}, LINUX)
    assert problem is not None and "xcb" in problem


@pytest.mark.parametrize("platform", ["darwin", "win32"])
def test_macos_and_windows_always_have_a_window_system(platform: str) -> None:
    assert display_problem({}, platform) is None


def test_a_running_x_display_passes_when_its_socket_exists() -> None:
    sockets = sorted(Path("/tmp/.X11-unix").glob("X*")) if Path("/tmp/.X11-unix").is_dir() else []
    if not sockets:
        pytest.skip("no X server running here")
    assert display_problem({"DISPLAY": f":{sockets[0].name[1:]}"}, LINUX) is None


def test_unwritable_folders_say_what_is_lost(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    problems = unwritable_folders(
        {"settings are not saved": blocker / "config", "fine": tmp_path / "data"}
    )
    assert len(problems) == 1
    assert str(blocker / "config") in problems[0]
    assert problems[0].endswith(": settings are not saved")
    assert (tmp_path / "data").is_dir()
    assert list((tmp_path / "data").iterdir()) == []  # the probe file is gone


def test_gui_without_a_display_says_so_instead_of_aborting(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(
        QT_QPA_PLATFORM="",
        PYTHONPATH=str(REPO),
        MCP_INSPECTOR_CONFIG_DIR=str(tmp_path / "config"),
        MCP_INSPECTOR_DATA_DIR=str(tmp_path / "data"),
    )
    done = subprocess.run(
        [sys.executable, "-m", "inspector", "gui"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 6, done.stderr
    assert "error: no display: neither DISPLAY nor WAYLAND_DISPLAY is set" in done.stderr
    assert "--screenshot" in done.stderr
    assert "Traceback" not in done.stderr


def test_tab_goes_with_screenshot_mode(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "MCP_INSPECTOR_CONFIG_DIR": str(tmp_path / "config"),
        "MCP_INSPECTOR_DATA_DIR": str(tmp_path / "data"),
    }
    done = subprocess.run(
        [sys.executable, "-m", "inspector", "gui", "--tab", "traffic"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert "--tab go with --screenshot" in done.stderr
