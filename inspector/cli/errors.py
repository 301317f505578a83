"""The one error path of the commands: how a command turns what went wrong into a message on
stderr and an exit code.

- `UsageError`: a command line that cannot run. The command's usage and
  `PROG: error: MESSAGE` are printed, exit 2 (as argparse does for what it checks itself).
- `CommandFailed`: the command cannot go on for another reason (an unreadable file, a server
  that cannot be reached): its line is printed as it is, exit with its code.
- Ctrl+C that nothing else handled: `interrupted`, exit 130.

Every `inspector.cli.commands` module runs its body through `guarded`. `diag` is the one
line on stderr every command writes its messages with.

In a module of its own, light, so that the helpers the parser is built from (the auth
options, the argument words, the ad-hoc profile) can raise `UsageError` without importing
the parser, and `cli` can check its usage before anything heavy is loaded.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Final

from inspector.common.terminal_text import terminal_text

__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_USAGE",
    "CommandFailed",
    "UsageError",
    "diag",
    "guarded",
]

EXIT_USAGE: Final = 2
EXIT_INTERRUPTED: Final = 130  # 128 + SIGINT, as a shell reports Ctrl+C


class UsageError(Exception):
    """A command line that cannot run: the message says what to change (exit 2)."""


class CommandFailed(Exception):
    """The command stops: `line` goes to stderr as it is, the exit code is `code`."""

    def __init__(self, line: str, code: int) -> None:
        super().__init__(line)
        self.line = line
        self.code = code


def diag(text: str) -> None:
    """One line on stderr (stdout carries the command's output only), safe on a terminal:
    what a server wrote in it is shown escaped (inspector/common/terminal_text.py), its
    newlines too: a server's error message never starts a line of its own."""
    sys.stderr.write(terminal_text(text, keep="\t") + "\n")
    sys.stderr.flush()


def guarded(prog: str, parser: argparse.ArgumentParser, body: Callable[[], int]) -> int:
    """`body()`'s exit code, or the exit code of what it raised (see the module's doc).
    `prog` starts a usage error's line: "mcp-inspector-qt check"."""
    try:
        return body()
    except UsageError as exc:
        parser.print_usage(sys.stderr)
        diag(f"{prog}: error: {exc}")
        return EXIT_USAGE
    except CommandFailed as exc:
        diag(exc.line)
        return exc.code
    except KeyboardInterrupt:
        diag("interrupted")
        return EXIT_INTERRUPTED
