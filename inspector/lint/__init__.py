"""Lint: every message a server sends, checked against the official schema of the protocol
version in use and against the spec's rules the schema cannot say (tool name format,
unique names, cursor loops, valid JSON Schemas, declared capabilities, ...).

The official `schema.json` of every supported version ships here as package data
(`schemas/<version>/schema.json`, loaded with importlib.resources); validators are compiled
once per version and definition. `LiveLinter` follows a traffic log off the hot path, in
small batches on the event loop; findings go to a `LintStore`, which the log, the detail
pane, the Lint tab, the CLI and session files read.
"""

from inspector.lint.finding import Finding, LintStore
from inspector.lint.live import LiveLinter
from inspector.lint.messages import MessageLinter

__all__ = ["Finding", "LintStore", "LiveLinter", "MessageLinter"]
