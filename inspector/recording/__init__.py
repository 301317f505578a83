"""Session files: the format, the recorder, the reader, replay and diff, HAR export."""
