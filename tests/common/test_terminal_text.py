"""The one primitive for a server's text on a terminal: what a terminal acts on is shown
escaped, nothing else changes, and JSON stays the same JSON."""

from __future__ import annotations

import json

import pytest

from inspector.common.terminal_text import (
    UNSAFE_ON_TERMINAL,
    terminal_json,
    terminal_quoted,
    terminal_text,
    terminal_value,
)

HOSTILE = "a\x1b]52;c;aGk=\x07b\x1b[2J\x9b31m\x90x\x9c\x7f\x08\r\u202eevil\u202c\u2028\ud800"


def test_every_control_is_shown_escaped() -> None:
    shown = terminal_text(HOSTILE)
    assert not UNSAFE_ON_TERMINAL.search(shown)
    assert shown == (
        "a\\x1b]52;c;aGk=\\x07b\\x1b[2J\\x9b31m\\x90x\\x9c\\x7f\\x08\\x0d"
        "\\u202eevil\\u202c\\u2028\\ud800"
    )


def test_newline_and_tab_are_kept_unless_the_caller_says_otherwise() -> None:
    assert terminal_text("a\n\tb") == "a\n\tb"
    assert terminal_text("a\n\tb", keep="") == "a\\x0a\\x09b"
    assert terminal_text("a\n\tb", keep="\n") == "a\n\\x09b"


@pytest.mark.parametrize("text", ["plain", "é ü 中文 🙂", "back\\slash", "emoji ‍ joiner"])
def test_ordinary_text_is_unchanged(text: str) -> None:
    assert terminal_text(text) == text
    assert terminal_text(terminal_text(HOSTILE)) == terminal_text(HOSTILE)  # idempotent


def test_json_stays_the_same_json() -> None:
    value = {"name": HOSTILE.replace("\ud800", ""), "n": [1, "\x85"]}
    text = terminal_json(json.dumps(value, ensure_ascii=False))
    assert not UNSAFE_ON_TERMINAL.search(text)
    assert json.loads(text) == value


def test_a_quoted_name_is_one_safe_line() -> None:
    quoted = terminal_quoted("x\nPASS\x1b[2J\u202e")
    assert quoted == '"x\\nPASS\\u001b[2J\\u202e"'
    assert terminal_value({"a": "\x9b"}, 8) == '{"a": "…'
