"""The palette's fuzzy matching (no Qt): letters in order, best first; typing narrows the
previous matches and Backspace finds them again; a hostile title is one plain line."""

from __future__ import annotations

from inspector.ui.palette.entries import MAX_TITLE, plain_title
from inspector.ui.palette.fuzzy import FuzzyIndex

TITLES = [
    "File: Connect",
    "Log: Copy as JSON",
    "Log: Copy as CLI command",
    "get_weather",
    "weather_get",
    "Tab: demo (current)",
]


def _search(index: FuzzyIndex, query: str) -> list[str]:
    found, _total = index.search(query)
    return [TITLES[i] for i in found]


def test_letters_in_order_best_first() -> None:
    index = FuzzyIndex(TITLES)
    assert _search(index, "cpjs") == ["Log: Copy as JSON"]
    assert _search(index, "gw")[0] == "get_weather"  # the initials
    assert _search(index, "weather")[0] == "weather_get"  # the start of the title
    assert _search(index, "copy")[:2] == ["Log: Copy as JSON", "Log: Copy as CLI command"]
    assert _search(index, "xyz") == []
    assert index.search("", limit=2) == ([0, 1], len(TITLES))


def test_typing_narrows_and_backspace_goes_back() -> None:
    index = FuzzyIndex(TITLES)
    assert len(_search(index, "c")) == 4
    assert _search(index, "co") and _search(index, "cop")[0] == "Log: Copy as JSON"
    assert [q for q, _hits in index._chain] == ["c", "co", "cop"]
    assert _search(index, "co")  # Backspace: the kept matches
    assert [q for q, _hits in index._chain] == ["c", "co"]
    assert _search(index, "tab")[0] == "Tab: demo (current)"  # another query: from all


def test_a_server_title_is_one_plain_line() -> None:
    assert plain_title("evil\nname\x1b[31m\tx") == "evil name [31m x"
    assert len(plain_title("x" * 10_000)) == MAX_TITLE
