"""Where each member of a JSON (or JSONC: comments, trailing commas) text starts: the line
of every object key, by its path of keys (array items by their index as text), so an
inventory can say `~/.claude.json:412`. One pass with a regex over the tokens that matter
(strings, brackets, commas, comments, newlines), never recursing: a hostile file nested
100,000 deep costs a list, not the stack. Qt-free, no IO."""

from __future__ import annotations

import json
import re
from typing import Final

__all__ = ["key_lines"]

_TOKEN: Final = re.compile(r'"(?:[^"\\\n]|\\.)*"?|//[^\n]*|/\*|[{}\[\],\n]')


def key_lines(text: str, depth: int = 4) -> dict[tuple[str, ...], int]:
    """path of keys -> the 1-based line of that key (the first, for a repeated key), for
    keys at most `depth` levels deep."""
    found: dict[tuple[str, ...], int] = {}
    stack: list[list[str | bool]] = []  # [is_object, current key or index]
    expect_key = False
    line = 1
    pos = 0
    n = len(text)
    while pos < n:
        match = _TOKEN.search(text, pos)
        if match is None:
            break
        token = match.group()
        pos = match.end()
        first = token[0]
        if first == "\n":
            line += 1
        elif first == '"':
            if stack and stack[-1][0] and expect_key:
                try:
                    key = json.loads(token)
                except ValueError:
                    key = token.strip('"')
                stack[-1][1] = str(key)
                if len(stack) <= depth:
                    found.setdefault(tuple(str(e[1]) for e in stack), line)
                expect_key = False
        elif token == "/*":
            end = text.find("*/", pos)
            end = n if end < 0 else end + 2
            line += text.count("\n", pos, end)
            pos = end
        elif first == "/":
            continue  # a // comment (its newline is the next token)
        elif first == "{":
            stack.append([True, ""])
            expect_key = True
        elif first == "[":
            stack.append([False, "0"])
            expect_key = False
        elif first in "}]":
            if stack:
                stack.pop()
            expect_key = False
        elif first == ",":
            if stack and stack[-1][0]:
                expect_key = True
            elif stack:
                stack[-1][1] = str(int(str(stack[-1][1])) + 1)
    return found
