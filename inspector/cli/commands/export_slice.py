"""`mcp-inspector-qt export-slice FILE -o OUT.jsonl [--from T] [--to T] [--method M ...]`:
part of a recorded session (a time range, some methods) as a new session file that opens,
replays and exports like any other (inspector/recording/slicing/session_slice.py says
what is kept).

FILE may be compressed or any part of a rotated recording; OUT is compressed when its name
ends in `.gz` or `.zst`. Exit codes: 0 written, 2 usage, an unreadable session file or an
unwritable OUT.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from inspector.cli.errors import EXIT_USAGE, CommandFailed, UsageError, diag, guarded
from inspector.cli.session_input import read_session_file
from inspector.recording.slicing.session_slice import SliceSpec, write_slice
from inspector.recording.slicing.when import parse_when

__all__ = ["run"]

EXIT_OK = 0


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return guarded("mcp-inspector-qt export-slice", parser, lambda: _run(ns))


def _run(ns: argparse.Namespace) -> int:
    recorded = read_session_file(ns.file)
    try:
        start = parse_when(ns.start, recorded) if ns.start is not None else None
        end = parse_when(ns.end, recorded) if ns.end is not None else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if start is not None and end is not None and end < start:
        raise UsageError(f"--to ({end:g} s) is before --from ({start:g} s)")
    methods = tuple(m.strip() for m in ns.method if m.strip())
    spec = SliceSpec(start=start, end=end, methods=methods)
    target = Path(ns.output)
    try:
        result = write_slice(recorded, spec, target)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise CommandFailed(
            f"error: cannot write {target}: {exc.strerror or exc}", EXIT_USAGE
        ) from None
    if result.rows == 0:
        diag("note: no traffic matched: the slice holds only the header and the ready line")
    diag(f"wrote {target}: {result.summary()}")
    return EXIT_OK
