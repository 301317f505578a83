"""lists.stable's evidence: where two starts' definitions part, quoted at that place."""

from __future__ import annotations

from inspector.check.session_checks import _differs


def test_a_nested_difference_is_named_by_its_path_and_quoted_where_it_parts() -> None:
    """As mcp-time-go shuffles a list inside a long description (Go map order): the quote
    starts a little before the first character that differs, so a cut quote still shows it."""
    intro = "The output time format, which can be one of the predefined Formats: " * 3
    first = {"name": "t", "inputSchema": {"properties": {"f": {"description": intro + "`A`, `B`"}}}}
    second = {
        "name": "t",
        "inputSchema": {"properties": {"f": {"description": intro + "`B`, `A`"}}},
    }
    text = _differs("t", "tool", first, second)
    assert text.startswith("tool 't': inputSchema/properties/f/description differs:\n")
    assert "one start:   '…redefined Formats: `A`, `B`'" in text
    assert "other start: '…redefined Formats: `B`, `A`'" in text


def test_control_characters_from_the_server_are_escaped() -> None:
    text = _differs("e\x1b]52;c;x\x07", "tool", {"description": "a\x1b[2J"}, {"description": "b"})
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b[2J" in text
