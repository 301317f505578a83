"""visible_text: every character a person cannot see, shown as an escape; the rest kept."""

from __future__ import annotations

from inspector.common.visible_text import is_hidden, visible_text


def test_hidden_characters_become_escapes() -> None:
    text = "a\u200bb\U000e0041c\u202ed\x1be\x9bf\ufeffg\U000e0101h\u2028i"
    assert visible_text(text) == (
        "a\\u200bb\\U000e0041c\\u202ed\\x1be\\x9bf\\ufeffg\\U000e0101h\\u2028i"
    )


def test_visible_text_is_kept_newline_and_tab_unless_asked() -> None:
    text = "Hello, мир 👋 שלום\n\tx"
    assert visible_text(text) == text
    assert visible_text("a\nb", keep="") == "a\\x0ab"


def test_is_hidden() -> None:
    assert is_hidden("\u200d") and is_hidden("\U000e007f") and is_hidden("\x00")
    assert not is_hidden("a") and not is_hidden("é") and not is_hidden("👋")
