"""How a list of profiles reads apart: each profile's name, and for names that several
profiles share, what tells them apart (issue 31, item 19).

Two servers started as `python3 /a/server.py` and `python3 /b/server.py` are both named
"stdio: python3 server.py"; in a list they read "stdio: python3 server.py — /a" and
"… — /b". The folder is the profile's working directory when it has one, else the folder
of the first path on its command line; when even that is shared, the whole command line or
URL.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from inspector.settings.profiles import Profile

__all__ = ["distinct_labels", "folder_of", "target_line"]


def _home(path: str) -> str:
    home = str(Path.home())
    if home != os.sep and (path == home or path.startswith(home + os.sep)):
        return "~" + path[len(home) :]
    return path


def folder_of(profile: Profile) -> str | None:
    """The folder a stdio profile's server runs in or is found in (~ for the home folder);
    None for an HTTP profile or a bare command."""
    if profile.transport != "stdio":
        return None
    stdio = profile.stdio
    if stdio.cwd:
        return _home(stdio.cwd)
    for word in [stdio.command, *stdio.args]:
        if os.sep in word and not word.startswith("-"):
            parent = os.path.dirname(word)
            if parent:
                return _home(parent)
    return None


def distinct_labels(profiles: Sequence[Profile], labels: Sequence[str] | None = None) -> list[str]:
    """`labels` (the profiles' names by default), each one that several profiles share
    followed by what tells them apart: the folder, else the command line or URL."""
    shown = list(labels) if labels is not None else [p.name for p in profiles]
    counts = Counter(shown)
    out: list[str] = []
    for profile, label in zip(profiles, shown, strict=True):
        if counts[label] < 2:
            out.append(label)
            continue
        out.append(f"{label} — {folder_of(profile) or profile.target}")
    counts = Counter(out)
    return [
        f"{label} ({profile.target})"
        if counts[label] > 1 and profile.target not in label
        else label
        for profile, label in zip(profiles, out, strict=True)
    ]


def target_line(profile: Profile) -> str:
    """What the profile connects to, with the folder it runs in when it has one: two
    profiles running `python3 server.py` in two folders read apart."""
    if profile.transport == "stdio" and profile.stdio.cwd:
        return f"{profile.target}  (in {_home(profile.stdio.cwd)})"
    return profile.target
