"""Moving bytes between pipes without copying them through Python (Linux: `tee(2)` and
`splice(2)`).

`tee` duplicates what waits in one pipe into another without consuming it (the pages are
shared, not copied); `splice` then moves it on. `tee` needs pipes on both ends (the source
and the recorder's pipe); `splice` needs a pipe on one end, so it also moves a pipe's bytes
into a socket (Node hosts, such as Claude Desktop, VS Code and Cursor, give their servers
socket pairs as stdin and stdout). `can_splice` says whether a pair of descriptors allows
it here. Everything else (a file, a tty, another system) takes the ordinary read/write copy.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import stat
import sys
from collections.abc import Callable
from typing import Final

__all__ = [
    "MOVE_LEN",
    "SPLICE_F_MOVE",
    "SPLICE_F_NONBLOCK",
    "can_splice",
    "grow_pipe",
    "is_pipe",
    "is_socket",
    "is_stream",
    "tee",
]

SPLICE_F_MOVE: Final = 1
SPLICE_F_NONBLOCK: Final = 2
MOVE_LEN: Final = 1 << 20  # as much as the pipe holds: one call per wake-up


def _load_tee() -> Callable[[int, int, int, int], int] | None:
    if not sys.platform.startswith("linux") or not hasattr(os, "splice"):
        return None
    try:
        fn = ctypes.CDLL(None, use_errno=True).tee  # ctypes releases the GIL during the call
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_size_t, ctypes.c_uint]
    fn.restype = ctypes.c_ssize_t
    return fn


_TEE: Final = _load_tee()


def tee(src: int, dst: int, length: int, flags: int) -> int:
    """Duplicate up to `length` bytes waiting in pipe `src` into pipe `dst`, leaving them
    in `src`. Raises OSError (EAGAIN: `dst` is full, or `src` empty, with
    SPLICE_F_NONBLOCK; EINVAL: not pipes). 0 means `src` ended."""
    if _TEE is None:
        raise OSError(95, "tee is not available here")
    n = _TEE(src, dst, length, flags)
    if n < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return n


def is_pipe(fd: int) -> bool:
    try:
        return stat.S_ISFIFO(os.fstat(fd).st_mode)
    except OSError:
        return False


def is_socket(fd: int) -> bool:
    try:
        return stat.S_ISSOCK(os.fstat(fd).st_mode)
    except OSError:
        return False


def is_stream(fd: int) -> bool:
    """A pipe or a socket: what a host hands its server as stdin and stdout."""
    return is_pipe(fd) or is_socket(fd)


def can_splice(src: int, dst: int) -> bool:
    """`src` is a pipe (to tee from), `dst` a pipe or a socket (to splice into), and the
    system has tee and splice."""
    return _TEE is not None and is_pipe(src) and is_stream(dst)


def grow_pipe(fd: int, size: int) -> int:
    """Ask for a pipe of `size` bytes (Linux); returns the size it has (0 if unknown)."""
    with contextlib.suppress(OSError, AttributeError):
        return int(fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, size))
    with contextlib.suppress(OSError, AttributeError):
        return int(fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ))
    return 0
