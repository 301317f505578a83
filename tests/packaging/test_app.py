"""The shipped app (wheel in a fresh venv, and the frozen one) works like the checkout:
--version, the CLI against the bundled demo server, a session file recorded and replayed,
a screenshot of the connected window offscreen; and bad surroundings (no display, no
keyring, a home it cannot write, a config from a newer version) get a clear message and
never a traceback. Every run is from outside the checkout with nothing of it on the path."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

import pytest

from inspector import __version__
from inspector.settings.profiles import FILE_VERSION
from tests.helpers.peers import REPO
from tests.packaging.conftest import App

# The first test of each app waits for its install (the fresh venv: about half a minute).
pytestmark = pytest.mark.timeout(600)

_DROP = ("PYTHON", "VIRTUAL_ENV", "MCP_INSPECTOR_", "QT_", "XDG_", "DISPLAY", "WAYLAND_")


def app_env(work: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(_DROP)}
    env.update(
        HOME=str(work / "home"),
        QT_QPA_PLATFORM="offscreen",
        MCP_INSPECTOR_CONFIG_DIR=str(work / "config"),
        MCP_INSPECTOR_DATA_DIR=str(work / "data"),
    )
    env.update(extra)
    return {k: v for k, v in env.items() if v != ""}  # "" unsets


def run(
    app: App, work: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 90
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(app.executable), *args],
        cwd=work,
        env=env if env is not None else app_env(work),
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def screenshot(
    app: App, work: Path, env: dict[str, str] | None = None, *extra: str
) -> tuple[Path, str]:
    shot = work / "shot.png"
    done = run(app, work, "gui", "--profile", "demo", "--screenshot", str(shot), *extra, env=env)
    assert done.returncode == 0, done.stderr
    assert png_size(shot) == (1280, 860)
    return shot, done.stderr


def test_version(app: App, outside: Path) -> None:
    done = run(app, outside, "--version")
    assert done.returncode == 0
    assert done.stdout.strip().endswith(__version__)


def test_the_app_runs_from_its_install_not_the_checkout(app: App, outside: Path) -> None:
    if app.python is not None:
        code = (
            "import inspector; from inspector.ui.widgets.app_resources import ICON_NAME, resource;"
            "icon = resource(ICON_NAME); print(inspector.__file__); print(icon); "
            "assert icon.is_file()"
        )
        done = subprocess.run(
            [str(app.python), "-c", code],
            cwd=outside,
            env=app_env(outside),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        for line in done.stdout.splitlines():
            assert Path(line).is_relative_to(app.home) and not Path(line).is_relative_to(REPO)
    else:
        bundle = app.home / "_internal"
        assert (bundle / "inspector" / "ui" / "resources" / "mcp-inspector-qt.svg").is_file()
        assert not (bundle / "tests").exists()
        platforms = {p.name for p in (bundle / "PySide6/Qt/plugins/platforms").iterdir()}
        assert {"libqxcb.so", "libqoffscreen.so", "libqwayland.so"} <= platforms
        assert (bundle / "PySide6/Qt/plugins/imageformats/libqsvg.so").is_file()
        assert (bundle / "PySide6/Qt/plugins/iconengines/libqsvgicon.so").is_file()


def test_cli_lists_the_demo_servers_tools(app: App, outside: Path) -> None:
    done = run(
        app, outside, "cli", "--method", "tools/list", "--", str(app.executable), "demo-server"
    )
    assert done.returncode == 0, done.stderr
    names = {tool["name"] for tool in json.loads(done.stdout)["tools"]}
    assert {"add", "echo"} <= names


def test_a_session_file_is_recorded_and_replayed(app: App, outside: Path) -> None:
    server = ["--", str(app.executable), "demo-server"]
    call = ["--method", "tools/call", "--tool-name", "add"]
    call += ["--tool-arg", "a=1", "--tool-arg", "b=2"]
    done = run(app, outside, "cli", *call, "--record", "s.jsonl", *server)
    assert done.returncode == 0, done.stderr
    assert json.loads(json.loads(done.stdout)["content"][0]["text"])["sum"] == 3
    replayed = run(app, outside, "replay", "s.jsonl", *server)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


def test_gui_screenshot_offscreen_of_the_connected_demo(app: App, outside: Path) -> None:
    _, stderr = screenshot(app, outside)
    assert "warning" not in stderr.lower()
    assert list((outside / "data" / "sessions").glob("*")), "the GUI session was not recorded"


def test_no_display_is_a_sentence_and_screenshot_mode_needs_none(app: App, outside: Path) -> None:
    env = app_env(outside, QT_QPA_PLATFORM="")
    done = run(app, outside, "gui", env=env)
    assert done.returncode == 6
    assert "error: no display: neither DISPLAY nor WAYLAND_DISPLAY is set" in done.stderr
    done = run(app, outside, env=app_env(outside, QT_QPA_PLATFORM="", DISPLAY=":4321"))
    assert done.returncode == 6
    assert "no X server is running on DISPLAY=:4321" in done.stderr
    screenshot(app, outside, env)  # goes offscreen by itself


def test_no_keyring_is_a_sentence(app: App, outside: Path) -> None:
    env = app_env(outside, DBUS_SESSION_BUS_ADDRESS="")
    done = run(app, outside, "logout", "--url", "http://127.0.0.1:9/mcp", env=env)
    assert done.returncode == 0
    assert "No system keyring is available" in done.stderr
    assert "Nothing is written to a file" in done.stderr


def test_a_running_secret_service_is_found(app: App, outside: Path) -> None:
    """The bundle keeps keyring's backends (found through package metadata)."""
    if not shutil.which("dbus-run-session") or not shutil.which("gnome-keyring-daemon"):
        pytest.skip("no Secret Service here (scripts/system-deps.sh installs gnome-keyring)")
    runtime = outside / "run"
    runtime.mkdir(mode=0o700)
    env = app_env(outside, XDG_RUNTIME_DIR=str(runtime), DBUS_SESSION_BUS_ADDRESS="")
    script = (
        "eval $(printf pw | gnome-keyring-daemon --unlock --components=secrets) && "
        f"'{app.executable}' logout --url http://127.0.0.1:9/mcp"
    )
    done = subprocess.run(
        ["dbus-run-session", "--", "sh", "-c", script],
        cwd=outside,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if "nothing was stored" not in done.stdout + done.stderr:
        pytest.skip(f"the Secret Service could not be started here: {done.stderr[-400:]}")
    assert done.returncode == 0
    assert "No system keyring" not in done.stderr


def test_a_home_it_cannot_write_is_said_once_and_the_window_still_works(
    app: App, outside: Path
) -> None:
    # Even root cannot create a folder under a file: a home that cannot be written.
    blocker = outside / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    env = app_env(outside, HOME=str(blocker / "home"))
    for name in ("MCP_INSPECTOR_CONFIG_DIR", "MCP_INSPECTOR_DATA_DIR"):
        env.pop(name)
    _, stderr = screenshot(app, outside, env)
    assert "warning: cannot write" in stderr
    assert "sessions are not recorded" in stderr
    assert "profiles, window state and pins are not saved this session" in stderr


def test_a_config_from_a_newer_version_is_read_and_kept(app: App, outside: Path) -> None:
    config = outside / "config"
    config.mkdir()
    newer = {
        "version": FILE_VERSION + 1,
        "profiles": [{"id": "n1", "name": "from the future", "transport": "telepathy"}],
    }
    (config / "profiles.json").write_text(json.dumps(newer), encoding="utf-8")
    (config / "window.ini").write_text("[General]\ngeometry=@ByteArray(junk)\n", "utf-8")
    _, stderr = screenshot(app, outside, None, "--tab", "traffic")
    assert "was written by a newer version of MCP Inspector" in stderr
    assert json.loads((config / "profiles.json").read_text(encoding="utf-8")) == newer


def test_a_read_only_home_of_another_user(app: App, outside: Path) -> None:
    """As root, the permission bits do not stop us: run the app as `nobody`, whose home
    (/nonexistent on Debian) it may not create, to get a real "Permission denied"."""
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        pytest.skip("needs root and setpriv (util-linux) to run the app as another user")
    needed = [app.executable.resolve()] + ([app.python.resolve()] if app.python else [])
    folders = {folder for path in needed for folder in path.parents}
    if not all(folder.stat().st_mode & 0o005 == 0o005 for folder in folders):
        pytest.skip("the app (or its interpreter) is not readable by other users here")
    work = Path(tempfile.mkdtemp(prefix="mcp-inspector-nobody-"))
    try:
        work.chmod(0o777)
        shot = work / "shot.png"
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": "/nonexistent/home",
            "LANG": "C.UTF-8",
            "QT_QPA_PLATFORM": "offscreen",
        }
        argv = ["gui", "--profile", "demo", "--screenshot", str(shot)]
        done = subprocess.run(
            [
                setpriv,
                "--reuid=nobody",
                "--regid=nogroup",
                "--clear-groups",
                str(app.executable),
                *argv,
            ],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=90,
        )
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        assert "(Permission denied): sessions are not recorded" in done.stderr
        assert png_size(shot) == (1280, 860)
    finally:
        shutil.rmtree(work, ignore_errors=True)
