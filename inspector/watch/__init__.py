"""Watch mode: restart a stdio server when its files change, then re-list its catalog,
show what changed against the last run and re-run the collection pinned for watch.

Qt-free (the GUI adapts it; the `watch` command prints it). Its floor sits above
`app | tap | check | compare | collections` and below `ui | cli | conformance`.
"""
