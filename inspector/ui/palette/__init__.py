"""The command palette (Ctrl+Shift+P): one search box over plain entries (the window's
actions, the current tab's catalog, the open tabs, recent sessions), fuzzy matched."""
