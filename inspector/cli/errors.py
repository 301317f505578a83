"""The usage error every subcommand raises: a command line that cannot run (exit 2), and
`diag`, the one line on stderr every command writes its messages with.

In a module of its own so that the helpers the parser is built from (the auth options,
the argument words, the ad-hoc profile) can raise it without importing the parser.
"""

from __future__ import annotations

import sys

__all__ = ["UsageError", "diag"]


class UsageError(Exception):
    """A command line that cannot run: the message says what to change (exit 2)."""


def diag(text: str) -> None:
    """One line on stderr (stdout carries the JSON result only)."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()
