"""Tap mode: the inspector on the wire between a real host (Claude Desktop, an IDE) and its
server. The relay copies bytes both ways untouched; the recording side frames them into a
live session file; taps announce themselves through owner-only files in the runtime
directory (no listening socket); host configs can be rewritten to launch a server through
the tap and restored exactly. Qt-free: the GUI follows a tap by reading its session file.
"""
