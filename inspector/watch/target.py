"""What a profile's watch mode watches by default, and the spec for it: one answer for
the window and the `watch` command.

The server's cwd when the profile sets one; else the folder of the first argument that is
an existing file (`python /src/server.py` watches /src), else the folder of the module that
`python -m pkg.server` runs, found without importing anything (in the current folder, and,
when the command is this very interpreter, on its own sys.path: the demo server's profile
watches inspector/demo/), else of the command itself when
it is a path outside a `bin` folder (an interpreter's folder is not the server's), else
the current folder. A desktop app started from a menu has the home
folder as its cwd: watching all of it would be both slow and wrong. The files this
process holds open for writing (`watch ... > watch.out` in the server's folder) never
count.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from inspector.settings.profiles import Profile
from inspector.watch.own_files import open_for_writing
from inspector.watch.paths import WatchSpec

__all__ = ["spec_for", "watch_base"]

# Folders of installed programs, never a server's sources: `/usr/bin/python3 -m server`, a
# virtualenv's interpreter (`.venv/bin/python -m inspector.demo`, the demo server's own
# profile) run the module of the current folder.
_PROGRAM_FOLDERS = frozenset({"bin", "sbin", "Scripts"})


def watch_base(profile: Profile) -> Path:
    stdio = profile.stdio
    if stdio.cwd:
        return Path(stdio.cwd).expanduser()
    for word in stdio.args:
        if word and not word.startswith("-") and Path(word).expanduser().is_file():
            return Path(word).expanduser().resolve().parent
    module = _module_folder(stdio.command, stdio.args)
    if module is not None:
        return module
    command = Path(stdio.command).expanduser()
    if os.sep in stdio.command and command.is_file():
        folder = command.resolve().parent
        if folder.name not in _PROGRAM_FOLDERS:
            return folder
    return Path.cwd()


def _module_folder(command: str, args: Sequence[str]) -> Path | None:
    """The folder of the module a `-m NAME` runs: searched as files, never imported (an
    import would run the server's code in the inspector)."""
    words = list(args)
    if "-m" not in words or words.index("-m") + 1 >= len(words):
        return None
    parts = words[words.index("-m") + 1].split(".")
    if not all(part.isidentifier() for part in parts):
        return None
    roots = [Path.cwd()]
    if _same_file(command, sys.executable):
        roots += [Path(entry or ".") for entry in sys.path]
    for root in roots:
        place = root.joinpath(*parts)
        if (place / "__init__.py").is_file() or (place / "__main__.py").is_file():
            return place.resolve()
        if place.with_suffix(".py").is_file():
            return place.resolve().parent
    return None


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def spec_for(profile: Profile, paths: Sequence[str] = (), ignore: Iterable[Path] = ()) -> WatchSpec:
    """The spec of `profile`'s watch mode: `paths` (files, folders, globs) relative to the
    base folder, none meaning all of it; `ignore` (our own files) and the files this
    process writes never count."""
    own = open_for_writing()
    mine = [f.path for f in own if f.path is not None]
    return WatchSpec(watch_base(profile), paths, (*ignore, *mine), [f.ident for f in own])
