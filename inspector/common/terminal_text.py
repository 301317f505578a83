"""Text from a server, made safe to show on a terminal: the one primitive every command's
output goes through (stdout, the stderr diagnostics, logging, tap and watch messages).

A server's text is never trusted. Written raw, an ESC sequence in an error message or a
tool name can write the clipboard (OSC 52), retitle the window, clear the screen or move
the cursor to forge lines; a C1 control (\\x9b is a one-byte CSI) does the same on
terminals that honour 8-bit controls, and a bidi override reorders what a person reads.
Such characters are shown instead, as visible escapes:

- `terminal_text(text)`: for text: C0 controls (all but those the caller keeps; by default
  newline and tab), DEL, ESC, C1 controls, lone surrogates and the line separators become
  `\\x1b`, `\\x9b`, `\\ud800`, `\\u2028`; bidi controls become `\\u202e`. Nothing else
  changes (a backslash stays one: the text is for a person, not to be parsed back).
- `terminal_json(json_text)`: for JSON text already encoded with `ensure_ascii=False`
  (which leaves DEL, C1, bidi controls and separators raw): the same characters as JSON
  escapes (`\\u009b`), so the text is still the same JSON value for a program that reads
  it. Such characters can only be inside JSON strings, so this never breaks the JSON.
- `terminal_quoted(text)`: a server's name or value as a JSON string (quoted, `\\n`
  escaped), safe: one line that cannot forge a line of a report; `terminal_value(value,
  limit)` any JSON value so, cut at `limit` characters with `…`.
- `TerminalLogFormatter`: log lines on a terminal (a logged message may quote a server).

Our own and not a library's: `rich.markup.escape` only escapes Rich markup, `markupsafe` is
for HTML, and none of the maintained terminal libraries has a "make untrusted text inert"
function that keeps the rest of the text as it is (they strip sequences rather than show
them, which would hide what a debugger must show).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any, Final

__all__ = [
    "UNSAFE_ON_TERMINAL",
    "TerminalLogFormatter",
    "terminal_json",
    "terminal_quoted",
    "terminal_text",
    "terminal_value",
]

# Bidi controls (LRM, RLM, ALM, embeddings and overrides, isolates) and the line and
# paragraph separators some terminals break lines at.
_BIDI_AND_SEPARATORS: Final = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029"
_C0_KEPT_BY_DEFAULT: Final = "\n\t"
# What `terminal_text` shows escaped by default (all C0 but newline and tab, DEL, C1, ...).
UNSAFE_ON_TERMINAL: Final = re.compile(
    f"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff{_BIDI_AND_SEPARATORS}]"
)
_IN_JSON: Final = re.compile(f"[\x7f-\x9f\ud800-\udfff{_BIDI_AND_SEPARATORS}]")
_PATTERNS: dict[str, re.Pattern[str]] = {_C0_KEPT_BY_DEFAULT: UNSAFE_ON_TERMINAL}


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _pattern(keep: str) -> re.Pattern[str]:
    pattern = _PATTERNS.get(keep)
    if pattern is None:
        c0 = "".join(re.escape(chr(c)) for c in range(0x20) if chr(c) not in keep)
        pattern = re.compile(f"[{c0}\x7f-\x9f\ud800-\udfff{_BIDI_AND_SEPARATORS}]")
        _PATTERNS[keep] = pattern
    return pattern


def terminal_text(text: str, *, keep: str = _C0_KEPT_BY_DEFAULT) -> str:
    """`text` with every character a terminal would act on shown as a visible escape
    (`\\x1b`), but the C0 controls in `keep` (newline and tab by default; `keep=""`
    for one line, where a newline could forge the next)."""
    return _pattern(keep).sub(_shown, text)


def terminal_json(json_text: str) -> str:
    """JSON text (encoded with `ensure_ascii=False`) with what a terminal would act on
    written as JSON escapes (`\\u009b`): the same JSON value, safe to print."""
    return _IN_JSON.sub(lambda m: f"\\u{ord(m.group(0)):04x}", json_text)


def terminal_quoted(text: str) -> str:
    """`text` as a one-line JSON string, safe to print: `"a\\nb\\u001b"`."""
    return terminal_json(json.dumps(text, ensure_ascii=False))


def terminal_value(value: Any, limit: int | None = None) -> str:
    """`value` as one line of JSON, safe to print, cut to `limit` characters with `…`."""
    text = terminal_json(json.dumps(value, ensure_ascii=False, default=str))
    return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"


class TerminalLogFormatter(logging.Formatter):
    """A log line as `inner` formats it (traceback included), then `terminal_text`."""

    def __init__(self, inner: logging.Formatter | None = None) -> None:
        super().__init__()
        self.inner = inner or logging.Formatter()

    def format(self, record: logging.LogRecord) -> str:
        return terminal_text(self.inner.format(record))
