"""`mcp-inspector-qt export-otlp FILE [--endpoint URL | --output OUT.json]`: a recorded
session as OpenTelemetry traces, a span per request (inspector/recording/otlp/spans.py
says which span and which attributes), sent to an OTLP/HTTP endpoint (`URL/v1/traces`) or
written as an OTLP JSON file.

Needs the optional `otel` extra (the OpenTelemetry SDK and its OTLP/HTTP exporter),
imported only here, when the command runs.

Exit codes: 0 sent or written, 2 usage, an unreadable session file or a missing extra,
3 the endpoint did not take the spans (unreachable, or an HTTP error).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from inspector.cli.errors import EXIT_USAGE, CommandFailed, UsageError, diag, guarded
from inspector.cli.session_input import read_session_file
from inspector.recording.otlp.spans import session_resource, session_spans

if TYPE_CHECKING:
    from types import ModuleType

__all__ = ["run"]

EXIT_OK = 0
EXIT_EXPORT_FAILED = 3
INSTALL_HINT = (
    "error: export-otlp needs the OpenTelemetry SDK, the optional 'otel' extra: "
    "pip install 'mcp-inspector-qt[otel]' (or, in a checkout, pip install -e '.[otel]')"
)


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return guarded("mcp-inspector-qt export-otlp", parser, lambda: _run(ns))


def _run(ns: argparse.Namespace) -> int:
    if not ns.endpoint and not ns.output:
        raise UsageError("give --endpoint URL or --output OUT.json")
    if ns.endpoint and not ns.endpoint.startswith(("http://", "https://")):
        raise UsageError(f"--endpoint must be an http:// or https:// URL, not {ns.endpoint!r}")
    sdk = _sdk()
    recorded = read_session_file(ns.file)
    records = session_spans(recorded)
    resource = session_resource(recorded)
    if ns.output:
        try:
            count = sdk.write_records(records, resource, Path(ns.output))
        except OSError as exc:
            raise CommandFailed(
                f"error: cannot write {ns.output}: {exc.strerror or exc}", EXIT_USAGE
            ) from None
        diag(f"wrote {count} span(s) to {ns.output}")
        return EXIT_OK
    try:
        count = sdk.send_records(records, resource, ns.endpoint, ns.timeout)
    except sdk.ExportFailed as exc:
        raise CommandFailed(
            f"error: the OTLP endpoint {ns.endpoint.rstrip('/')}/v1/traces did not take "
            f"the spans: {exc}",
            EXIT_EXPORT_FAILED,
        ) from None
    diag(f"sent {count} span(s) to {ns.endpoint.rstrip('/')}/v1/traces")
    return EXIT_OK


def _sdk() -> ModuleType:
    try:
        from inspector.recording.otlp import sdk as otlp_sdk
    except ImportError:
        raise CommandFailed(INSTALL_HINT, EXIT_USAGE) from None
    return otlp_sdk
