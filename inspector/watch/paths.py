"""What watch mode watches: the server's cwd by default, or the paths and globs the user
sets, minus the usual noise (VCS folders, caches, virtualenvs, editor swap files) and the
files the inspector itself writes (session recordings, the collection being updated).

`WatchSpec.resolve` turns the user's words into the roots handed to the watcher and a
filter deciding, per changed path, whether it counts.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final

__all__ = [
    "IGNORED_DIRS",
    "IGNORED_NAMES",
    "ResolvedWatch",
    "WatchSpec",
    "WatchSpecError",
    "glob_regex",
]

# Folders whose changes never restart a server (a path under any of them is ignored).
IGNORED_DIRS: Final = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".jj",
        "__pycache__",
        "node_modules",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".hypothesis",
        ".idea",
        ".vscode",
        ".cache",
        ".peers",
    }
)
# File names that are editor or tool noise: swap and backup files, compiled Python,
# atomic-save temporaries, Emacs locks, macOS metadata. An editor's save then counts as a
# change to the saved file only (tests/watch/test_editor_saves.py).
IGNORED_NAMES: Final = re.compile(
    r"""(
        \.py[cod]$ | \.sw[a-p]$ | \.swx$ | ~$ | ^\.\#.* | ^\#.*\#$ | ^\.DS_Store$
        | ^flycheck_ | ^4913$ | \.crswap$ | \.bak$
        | ___jb_(old|tmp)___$          # JetBrains "safe write" (x.py___jb_tmp___)
        | \.vsctmp$                    # VS Code's atomic save
        | \.tmp(\.[\w-]+)?$ | \.temp$  # x.tmp, .x.py.tmp.4f2a (atomic-save helpers)
        | \.\d{6,}$                     # write-file-atomic (npm): x.py.3141592653
        | ^\.goutputstream-             # GIO (gedit, GNOME apps)
        | \.kate-swp$ | ^sed[A-Za-z0-9]{6}$ | ^\._ | ^\.~lock\.
    )""",
    re.VERBOSE,
)
_GLOB_CHARS: Final = re.compile(r"[*?\[]")


class WatchSpecError(ValueError):
    """A path or glob the user set cannot be watched (the message says which and why)."""


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A glob over '/'-separated relative paths as a regex: `*` and `?` stay inside one
    segment, `**` spans any number of them (`src/**/*.py` matches `src/a.py` too)."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            end = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("!", "]") else i + 1)
            if end < 0:
                out.append(re.escape(c))
                i += 1
                continue
            body = pattern[i + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append(f"[{body.replace(chr(92), chr(92) * 2)}]")
            i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile("".join(out) + r"\Z")


def _glob_root(pattern: str) -> str:
    """The folder a glob lives in: its segments before the first with a wildcard."""
    parts = pattern.split("/")
    fixed: list[str] = []
    for part in parts[:-1]:
        if _GLOB_CHARS.search(part):
            break
        fixed.append(part)
    return "/".join(fixed)


@dataclass(frozen=True)
class ResolvedWatch:
    """The roots to watch and what counts inside them."""

    roots: tuple[Path, ...]
    globs: tuple[tuple[Path, re.Pattern[str]], ...]  # (base, regex over paths below it)
    plain: tuple[Path, ...]  # files and folders named without a wildcard
    ignored: tuple[Path, ...]  # our own files and folders (recordings, the collection)
    # Files this process holds open for writing (its stdout redirected into the folder), by
    # (st_dev, st_ino), whatever path a change names them by. (Never the ignored paths':
    # a file replaced by a save frees its inode for the next new file.)
    ignored_ids: frozenset[tuple[int, int]] = frozenset()

    def counts(self, path: str | os.PathLike[str]) -> bool:
        """Whether a change to `path` (absolute) should restart the server."""
        p = Path(path)
        if IGNORED_NAMES.search(p.name):
            return False
        for own in self.ignored:
            if p == own or own in p.parents:
                return False
        return self._watched(p) and not self._ours(p)

    def _watched(self, p: Path) -> bool:
        for plain in self.plain:
            if p == plain or plain in p.parents:
                return not self._noisy(p, plain)
        for base, regex in self.globs:
            if (
                base in p.parents
                and not self._noisy(p, base)
                and regex.match(p.relative_to(base).as_posix())
            ):
                return True
        return False

    def _ours(self, p: Path) -> bool:
        if not self.ignored_ids:
            return False
        try:
            info = p.stat()
        except OSError:  # gone: a path check already ran
            return False
        return (info.st_dev, info.st_ino) in self.ignored_ids

    def ignoring(self, path: Path) -> ResolvedWatch:
        """This watch, with `path` (a file the inspector writes) never counted."""
        return replace(self, ignored=(*self.ignored, path.expanduser().resolve()))

    @staticmethod
    def _noisy(path: Path, base: Path) -> bool:
        try:
            parts = path.relative_to(base).parts[:-1]
        except ValueError:
            return False
        return any(part in IGNORED_DIRS for part in parts)

    def describe(self) -> str:
        words = [str(p) for p in self.plain] + [
            f"{base}/{regex.pattern}" for base, regex in self.globs
        ]
        return ", ".join(words)


@dataclass
class WatchSpec:
    """The user's words: paths (files, folders or globs, relative to `base`) to watch; none
    means the whole of `base` (the server's cwd). `ignore` names our own files (the
    recordings folder, the collection) whose writes must not restart anything;
    `ignore_ids` more of them by (st_dev, st_ino) (the files this process writes)."""

    base: Path
    paths: Sequence[str] = ()
    ignore: Iterable[Path] = field(default_factory=tuple)
    ignore_ids: Iterable[tuple[int, int]] = field(default_factory=tuple)

    def resolve(self) -> ResolvedWatch:
        """Raises WatchSpecError for a path that does not exist or a glob whose folder
        does not."""
        base = self.base.expanduser().resolve()
        if not base.is_dir():
            raise WatchSpecError(f"{base}: the folder to watch does not exist")
        plain: list[Path] = []
        globs: list[tuple[Path, re.Pattern[str]]] = []
        for word in self.paths or ["."]:
            text = word.strip()
            if not text:
                raise WatchSpecError("an empty watch path")
            text = os.path.expanduser(text).replace(os.sep, "/")
            if _GLOB_CHARS.search(text):
                root_text = _glob_root(text)
                root = (base / root_text).resolve() if root_text else base
                rest = text[len(root_text) :].lstrip("/") if root_text else text
                if Path(text).is_absolute() and not root_text:
                    raise WatchSpecError(f"{word}: a glob needs a folder before its wildcard")
                if not root.is_dir():
                    raise WatchSpecError(f"{word}: the folder {root} does not exist")
                globs.append((root, glob_regex(rest)))
                continue
            target = (base / text).resolve()
            if not target.exists():
                raise WatchSpecError(f"{word}: no such file or folder ({target})")
            plain.append(target)
        roots = _outermost([*plain, *(root for root, _ in globs)])
        ignored = tuple(Path(p).expanduser().resolve() for p in self.ignore)
        ids = frozenset(self.ignore_ids)
        return ResolvedWatch(tuple(roots), tuple(globs), tuple(plain), ignored, ids)


def _outermost(paths: list[Path]) -> list[Path]:
    """The paths that are not inside another one (watching both would double events)."""
    out: list[Path] = []
    for p in sorted(set(paths), key=lambda x: len(x.parts)):
        if not any(q == p or q in p.parents for q in out):
            out.append(p)
    return out
