"""What a tap's session file says about itself: the header (the server command as the host
gave it; the host's own clientInfo arrives later, in the `initialize` frame and the `ready`
line) and the secrets to keep out of the file.

The tap cannot tell which environment variables the host set for the server, so every
variable whose name looks secret (`..._TOKEN`, `API_KEY`, `...PASSWORD`...) has its value
redacted wherever it would appear, frames included, as docs/session-format.md says.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Final

from inspector.recording.format import Redactor, connection_summary, header_line

__all__ = ["env_secrets", "tap_header", "tap_redactor"]

_SECRET_HINTS: Final = ("token", "secret", "password", "passwd", "key", "auth", "credential")
_MIN_SECRET: Final = 8  # shorter values ("true", "1") would redact ordinary JSON


def env_secrets(env: Mapping[str, str] | None = None) -> list[str]:
    env = os.environ if env is None else env
    return [
        value
        for name, value in env.items()
        if any(h in name.lower() for h in _SECRET_HINTS) and len(value) >= _MIN_SECRET
    ]


def tap_redactor(env: Mapping[str, str] | None = None) -> Redactor:
    return Redactor(env_secrets(env))


def tap_header(
    command: Sequence[str],
    name: str = "",
    *,
    transport: str = "stdio",
    url: str | None = None,
    tap_pid: int | None = None,
) -> dict[str, Any]:
    if url is not None:
        connection = connection_summary(transport="http", url=url, name=name or None)
    else:
        connection = connection_summary(
            transport=transport,
            command=command[0],
            args=list(command[1:]),
            env={},
            cwd=os.getcwd(),
            name=name or None,
        )
    header = header_line(connection, era="auto", client_info={}, client_capabilities={})
    # Optional fields (readers ignore what they do not know): whose session this is.
    header["tap"] = {"pid": tap_pid or os.getpid()}
    return header
