"""The apps under test, each run from outside the checkout with nothing of it on the path:

- `wheel`: the wheel built from this checkout, installed with its dependencies into a fresh
  venv (pip's cache makes the second run quick; CI has PyPI);
- `frozen`: the PyInstaller one-folder app, `$MCP_INSPECTOR_FROZEN_APP` or
  dist/mcp-inspector-qt/mcp-inspector-qt (packaging/build.sh); skipped when not built.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers.peers import REPO

FROZEN_ENV = "MCP_INSPECTOR_FROZEN_APP"
FROZEN_DEFAULT = REPO / "dist" / "mcp-inspector-qt" / "mcp-inspector-qt"
_INSTALL_TIMEOUT = 480


@dataclass(frozen=True)
class App:
    """One way the app is shipped: how to run it, and where it lives."""

    kind: str
    executable: Path
    home: Path  # the venv or the bundle folder: what the app's files must live under
    python: Path | None = None  # the venv's interpreter (the wheel only)


def clean_env() -> dict[str, str]:
    """Our environment without what would put the checkout (or another venv) on the path:
    with PYTHONPATH set, pip would find the checkout's egg-info and skip the install."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}


def _pip(python: Path, *args: str) -> None:
    done = subprocess.run(
        [str(python), "-m", "pip", "--disable-pip-version-check", *args],
        capture_output=True,
        text=True,
        timeout=_INSTALL_TIMEOUT,
        env=clean_env(),
        cwd=python.parent,
    )
    assert done.returncode == 0, f"pip {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"


@pytest.fixture(scope="session")
def wheel_app() -> Iterator[App]:
    # Its own folder, not pytest's rotating basetemp (which a parallel pytest run of the
    # same user prunes): the venv must live as long as the session.
    root = Path(tempfile.mkdtemp(prefix="mcp-inspector-wheel-app-"))
    root.chmod(0o755)  # another user runs it too (the read-only home test)
    try:
        yield _install_wheel(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _install_wheel(root: Path) -> App:
    source = root / "source"
    # Only what the wheel is built from: a build cannot pick up tests/ or a stray file.
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    shutil.copytree(
        REPO / "inspector", source / "inspector", ignore=shutil.ignore_patterns("__pycache__")
    )
    wheels = root / "wheels"
    _pip(Path(sys.executable), "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(source))
    (wheel,) = wheels.glob("mcp_inspector_qt-*.whl")
    venv = root / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", str(venv)], check=True, timeout=120, env=clean_env()
    )
    python = venv / "bin" / "python"
    _pip(python, "install", "--quiet", str(wheel))
    return App("wheel", venv / "bin" / "mcp-inspector-qt", venv, python)


@pytest.fixture(scope="session")
def frozen_app() -> App:
    executable = Path(os.environ.get(FROZEN_ENV) or FROZEN_DEFAULT)
    if not executable.is_file():
        pytest.skip(f"no frozen app at {executable} (packaging/build.sh builds it)")
    return App("frozen", executable.resolve(), executable.resolve().parent)


# pytest-xdist (`--dist loadgroup`): the wheel's tests run on one worker, which installs the
# wheel once (a session fixture is built once per worker).
@pytest.fixture(
    params=[pytest.param("wheel", marks=pytest.mark.xdist_group("wheel_app")), "frozen"]
)
def app(request: pytest.FixtureRequest) -> App:
    return request.getfixturevalue(f"{request.param}_app")  # type: ignore[no-any-return]


@pytest.fixture
def outside(tmp_path: Path) -> Iterator[Path]:
    """A working directory outside the checkout."""
    work = tmp_path / "work"
    work.mkdir()
    assert REPO not in work.parents
    yield work
