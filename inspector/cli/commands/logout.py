"""`mcp-inspector-qt logout --url URL`: forget what the keyring holds for a server (its
tokens, its registered client). The messages go to stderr.

Exit codes: 0 done (also when nothing was stored), 2 not an http(s) URL.
"""

from __future__ import annotations

import argparse

from inspector.auth import AuthStore
from inspector.auth.urls import canonical_resource, is_http_url
from inspector.cli.errors import EXIT_USAGE, CommandFailed, diag, guarded

__all__ = ["run"]


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return guarded("mcp-inspector-qt logout", parser, lambda: _logout(ns.url))


def _logout(url: str) -> int:
    if not is_http_url(url):
        raise CommandFailed(f"logout: not an http(s) URL: {url!r}", EXIT_USAGE)
    store = AuthStore()
    forgotten = store.forget_server(canonical_resource(url))
    if forgotten:
        diag("logged out: forgot " + "; ".join(forgotten))
    else:
        diag(f"nothing was stored for {canonical_resource(url)}")
    if store.session_only:
        diag(store.status_message)
    return 0
