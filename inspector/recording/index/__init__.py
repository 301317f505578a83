"""The lazy, indexed opening of session files: an index of each line's place and small
fields (no parse of a frame's text), a raw-text column that reads the file on demand, and
a find over the file's bytes."""
