"""The scan: every rule over the definitions of one or more servers, and the rules' ids."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from inspector.security.annotations import annotation_findings
from inspector.security.changes import changes
from inspector.security.cross_server import cross_server
from inspector.security.definitions import ServerDefinitions
from inspector.security.finding import SecurityFinding
from inspector.security.hidden_text import hidden_text
from inspector.security.injection import injection
from inspector.security.roots import outside_roots

__all__ = ["RULES", "ServerDefinitions", "scan"]

# every rule id, with its severity (the highest it gives) and what it looks for
RULES: Final[dict[str, tuple[str, str]]] = {
    "hidden.tag-characters": ("high", "Unicode tag characters (U+E0000-E007F)"),
    "hidden.variation-selectors": ("high", "runs of supplementary variation selectors"),
    "hidden.bidi-override": ("high", "bidi embeddings and overrides"),
    "hidden.bidi-isolate": ("medium", "bidi isolates outside right-to-left text"),
    "hidden.bidi-mark": ("low", "bidi marks outside right-to-left text"),
    "hidden.zero-width": ("high", "zero-width and invisible characters"),
    "hidden.format-character": ("medium", "other format characters"),
    "hidden.terminal-escape": ("high", "ANSI / OSC escape sequences"),
    "hidden.control-character": ("medium", "control characters"),
    "hidden.html-comment": ("medium", "HTML and Markdown comments"),
    "hidden.markup": ("medium", "markup that hides its content"),
    "hidden.long-description": ("low", "very long descriptions"),
    "injection.override": ("high", "'ignore previous instructions'"),
    "injection.conceal": ("high", "'do not tell the user'"),
    "injection.important-block": ("high", "<IMPORTANT> blocks"),
    "injection.credential-path": ("high", "paths to credentials"),
    "injection.send-url": ("medium", "URLs to send data to"),
    "injection.context-parameter": ("high", "inputs asking for the conversation or secrets"),
    "annotations.read-only-writes": ("low", "read-only hints on tools that say they write"),
    "shadow.name-collision": ("medium", "a tool name two servers share"),
    "shadow.confusable-name": ("high", "tool names that look alike"),
    "shadow.mentions-other-tool": ("high", "a description naming another server's tool"),
    "changes.definition-changed": ("high", "a tool changed since it was pinned or first seen"),
    "resource.file-outside-roots": ("medium", "a file:// resource outside the declared roots"),
}


def scan(servers: Sequence[ServerDefinitions]) -> list[SecurityFinding]:
    """Every finding over `servers`, most severe first, then in the servers' order."""
    found: list[SecurityFinding] = []
    for server in servers:
        for text in server.texts():
            found.extend(hidden_text(server.name, text))
            found.extend(injection(server.name, text))
        for kind, raw in server.items():
            if kind == "tool":
                found.extend(annotation_findings(server.name, raw))
        found.extend(changes(server))
        found.extend(outside_roots(server))
    found.extend(cross_server(servers))
    order = {server.name: i for i, server in enumerate(servers)}
    found.sort(key=lambda f: (-f.severity, order.get(f.server, 0)))
    return found
