"""Where a value lies in JSON-with-comments text, so one entry of a config file can be
replaced without touching a byte of the rest (comments, formatting, other entries).

`parse_spans(text)` parses JSONC (VS Code allows `//` and `/* */` comments and trailing
commas) and returns the value with, for every object member, the (start, end) offsets of
its value text, keyed by the member's path.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["JsoncError", "Spans", "parse_spans"]

Spans = dict[tuple[str, ...], tuple[int, int]]


class JsoncError(ValueError):
    pass


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.spans: Spans = {}
        self._decoder = json.JSONDecoder()

    def fail(self, what: str) -> JsoncError:
        line = self.text.count("\n", 0, self.i) + 1
        return JsoncError(f"{what} at line {line}")

    def skip(self) -> None:
        text, n = self.text, len(self.text)
        while self.i < n:
            c = text[self.i]
            if c in " \t\r\n\ufeff":
                self.i += 1
            elif text.startswith("//", self.i):
                end = text.find("\n", self.i)
                self.i = n if end < 0 else end + 1
            elif text.startswith("/*", self.i):
                end = text.find("*/", self.i + 2)
                if end < 0:
                    raise self.fail("an unclosed /* comment")
                self.i = end + 2
            else:
                return

    def value(self, path: tuple[str, ...]) -> Any:
        self.skip()
        if self.i >= len(self.text):
            raise self.fail("unexpected end")
        c = self.text[self.i]
        if c == "{":
            return self.obj(path)
        if c == "[":
            return self.arr(path)
        try:
            value, end = self._decoder.raw_decode(self.text, self.i)
        except ValueError as exc:
            raise self.fail(f"not valid JSON ({exc.args[0].split(':')[0]})") from None
        self.i = end
        return value

    def obj(self, path: tuple[str, ...]) -> dict[str, Any]:
        self.i += 1
        out: dict[str, Any] = {}
        while True:
            self.skip()
            if self.text.startswith("}", self.i):
                self.i += 1
                return out
            if not self.text.startswith('"', self.i):
                raise self.fail("expected a member name")
            key, self.i = self._decoder.raw_decode(self.text, self.i)
            self.skip()
            if not self.text.startswith(":", self.i):
                raise self.fail("expected ':'")
            self.i += 1
            self.skip()
            start = self.i
            out[key] = self.value((*path, key))
            self.spans[(*path, key)] = (start, self.i)
            self.skip()
            if self.text.startswith(",", self.i):
                self.i += 1
            elif not self.text.startswith("}", self.i):
                raise self.fail("expected ',' or '}'")

    def arr(self, path: tuple[str, ...]) -> list[Any]:
        self.i += 1
        out: list[Any] = []
        while True:
            self.skip()
            if self.text.startswith("]", self.i):
                self.i += 1
                return out
            out.append(self.value((*path, str(len(out)))))
            self.skip()
            if self.text.startswith(",", self.i):
                self.i += 1
            elif not self.text.startswith("]", self.i):
                raise self.fail("expected ',' or ']'")


def parse_spans(text: str) -> tuple[Any, Spans]:
    parser = _Parser(text)
    value = parser.value(())
    parser.skip()
    if parser.i != len(text):
        raise parser.fail("unexpected text after the end")
    return value, parser.spans
