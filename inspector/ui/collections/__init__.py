"""Collections of saved calls in the window: "Save call…" (from the workspace views and
the traffic log's rows), the Collections panel (run one call or all over the current
connection, pass/fail, the failed assertions and a snapshot's diff, update snapshots),
and File ▸ Save Session as Test Collection. The file model, the assertions and the runner
are the Qt-free `inspector.collections`; this package only shows them."""
