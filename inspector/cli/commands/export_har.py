"""`mcp-inspector-qt export-har FILE [-o out.har]`: a session's HTTP exchanges as HAR 1.2.

Exit codes: 0 written, 2 usage or an unreadable session file (the message says why).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from inspector.cli.errors import EXIT_USAGE, CommandFailed, diag, guarded
from inspector.cli.session_input import read_session_file
from inspector.common.terminal_text import terminal_json
from inspector.recording.har import export_har

__all__ = ["run"]

EXIT_OK = 0


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return guarded("mcp-inspector-qt export-har", parser, lambda: _run(ns))


def _run(ns: argparse.Namespace) -> int:
    recorded = read_session_file(ns.file)
    har = export_har(recorded)
    entries = har["log"]["entries"]
    if not entries:
        transport = recorded.connection.get("transport", "?")
        diag(f"note: the session has no HTTP exchanges (transport: {transport}); the HAR is empty")
    text = json.dumps(har, indent=2, ensure_ascii=False) + "\n"
    if ns.output == "-":
        sys.stdout.write(terminal_json(text))  # the same JSON, safe on a terminal
        sys.stdout.flush()
        return EXIT_OK
    try:
        Path(ns.output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandFailed(
            f"error: cannot write {ns.output}: {exc.strerror or exc}", EXIT_USAGE
        ) from None
    diag(f"wrote {len(entries)} HTTP exchange(s) to {ns.output}")
    return EXIT_OK
