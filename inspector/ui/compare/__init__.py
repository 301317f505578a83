"""The compare window: two connections' catalogs side by side, their structural diff, and
"Run on both" (one call to both servers, the two results and their semantic diff).

`open_compare(left, right, left_title, right_title, parent)` opens it over two
`ConnectionModel`s (what the tabs' `compare_requested` is connected to)."""

from inspector.ui.compare.compare_window import CompareWindow, open_compare

__all__ = ["CompareWindow", "open_compare"]
