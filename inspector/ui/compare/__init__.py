"""The compare window: two connections' catalogs side by side, their structural diff, and
"Run on both" (one call to both servers, the two results and their semantic diff)."""
