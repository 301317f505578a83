"""The usage error every subcommand raises: a command line that cannot run (exit 2).

In a module of its own so that the helpers the parser is built from (the auth options,
the argument words, the ad-hoc profile) can raise it without importing the parser.
"""

from __future__ import annotations

__all__ = ["UsageError"]


class UsageError(Exception):
    """A command line that cannot run: the message says what to change (exit 2)."""
