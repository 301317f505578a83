"""Session files on screen: recording, offline view, replay, diff, timeline."""
