"""The connection tabs: one `ConnectionTab` per server, its connection bar and actions, session
controls, layout, tab strip, names and memory across restarts, the New Tab dialog."""
