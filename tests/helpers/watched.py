"""Watch-mode tests: a server folder copied from tests/servers/sdk/watch_server.py that a
test edits on disk, and profiles that run it (polling without a Qt loop:
tests/helpers/waiting.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

from inspector.settings.profiles import EnvVar, Profile, StdioSettings
from tests.helpers.peers import PY, REPO, SERVERS

WATCH_SERVER = SERVERS / "sdk" / "watch_server.py"
MARKER = "\n# more tools"

ADD_TOOL = '''
@mcp.tool()
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b

'''

CRASHING = """import sys
sys.stderr.write("boom: cannot start (config missing)\\n")
sys.exit(3)
"""


def server_folder(tmp_path: Path) -> Path:
    """A folder holding `server.py` (the watch test server), ready to be edited."""
    folder = tmp_path / "srv"
    folder.mkdir()
    shutil.copy(WATCH_SERVER, folder / "server.py")
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def stdio_profile(folder: Path, *args: str) -> Profile:
    return Profile(
        name="watched",
        stdio=StdioSettings(
            command=PY,
            args=list(args or ["server.py"]),
            cwd=str(folder),
            env=[EnvVar(name="PYTHONPATH", value=str(REPO))],
        ),
    )
