"""`mcp-inspector-qt FILE...`: a session file named without a command opens the desktop app
on it, as `mcp-inspector-qt gui FILE...` does (Wireshark's `wireshark capture.pcapng`).

The rule, for the first word that is neither an option nor an option's value:
- a command's name is that command, always (`./check` opens a file named `check`, and so
  does `gui check`);
- any other word opens the app on the files when it names an existing path, contains a
  path separator or ends in `.jsonl`: the words are given to `gui`;
- anything else is left to the parser, which says it is not a command (a typo stays one).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path

__all__ = ["files_open_the_app", "looks_like_a_file"]


_SUFFIXES = (".jsonl", ".jsonl.gz", ".jsonl.zst", ".jsonl.zstd")


def looks_like_a_file(word: str) -> bool:
    return word.endswith(_SUFFIXES) or os.sep in word or "/" in word or Path(word).exists()


def files_open_the_app(argv: Sequence[str], parser: argparse.ArgumentParser) -> list[str]:
    """`argv` with `gui` put first when its first positional word is a session file (see
    the module's doc); unchanged otherwise."""
    argv = list(argv)
    commands: set[str] = set()
    takes_value: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            commands.update(action.choices)
        elif action.nargs != 0:
            takes_value.update(action.option_strings)
    index = 0
    while index < len(argv):
        word = argv[index]
        if word == "--":
            return argv
        if word.startswith("-") and word != "-":
            if word in takes_value:  # `--theme dark`; `--theme=dark` is one word
                index += 1
            index += 1
            continue
        if word in commands or not looks_like_a_file(word):
            return argv
        return ["gui", *argv]
    return argv
