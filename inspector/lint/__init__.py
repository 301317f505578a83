"""Lint: every message a server sends, checked against the official schema of the protocol
version in use and against the spec's rules the schema cannot say (tool name format,
unique names, cursor loops, valid JSON Schemas, declared capabilities, ...).

The official `schema.json` of every supported version ships here as package data
(`schemas/<version>/schema.json`, loaded with importlib.resources); validators are compiled
once per version and definition. `LiveLinter` follows a traffic log off the hot path, in
small batches on the event loop; findings go to a `LintStore`, which the log, the detail
pane, the Lint tab, the CLI and session files read.

The names below load on first use (PEP 562): a module that needs only `lint.finding` (the
session writer, hence the tap's recorder) does not pay for jsonschema and the schemas.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from inspector.lint.finding import Finding, LintStore
    from inspector.lint.live import LiveLinter
    from inspector.lint.messages import MessageLinter

__all__ = ["Finding", "LintStore", "LiveLinter", "MessageLinter"]

_HOMES: Final = {
    "Finding": "inspector.lint.finding",
    "LintStore": "inspector.lint.finding",
    "LiveLinter": "inspector.lint.live",
    "MessageLinter": "inspector.lint.messages",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
