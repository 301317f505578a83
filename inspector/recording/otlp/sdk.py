"""Span records sent through the OpenTelemetry SDK: to an OTLP/HTTP endpoint, or into an
OTLP JSON file. The only module that imports the SDK (the optional `otel` extra); only
`export-otlp` imports it, when it runs.

The spans keep the recorded times (`start_time`/`end_time` given to the SDK) and their
parent links; every request without a parent is the root of its own trace. The JSON file is
the OTLP/JSON encoding of one ExportTraceServiceRequest: the SDK's protobuf encoder
(`encode_spans`, from opentelemetry-exporter-otlp-proto-common) rendered by protobuf's
`json_format`, with the two differences OTLP/JSON makes from protobuf's own JSON mapping:
trace and span ids in hex rather than base64, and enums as integers
(https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding).
"""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from google.protobuf import json_format  # type: ignore[import-untyped]
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult
from opentelemetry.trace import (
    NonRecordingSpan,
    SpanContext,
    SpanKind,
    Status,
    StatusCode,
    set_span_in_context,
)

from inspector.recording.otlp.spans import SpanRecord, session_resource, session_spans
from inspector.recording.reader import RecordedSession

__all__ = [
    "ExportFailed",
    "OtlpJsonFileExporter",
    "endpoint_exporter",
    "export_records",
    "export_session",
    "send_records",
    "write_records",
]

_BATCH = 512
_KINDS = {"client": SpanKind.CLIENT, "server": SpanKind.SERVER, "internal": SpanKind.INTERNAL}
_SCOPE = "mcp-inspector-qt.export-otlp"


class ExportFailed(Exception):
    """The exporter did not take the spans; the message says what it reported."""


class OtlpJsonFileExporter(SpanExporter):
    """Collects the spans it is given; `write` puts them in the file as one OTLP/JSON
    ExportTraceServiceRequest, on one line."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._request = ExportTraceServiceRequest()

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        self._request.resource_spans.extend(encode_spans(spans).resource_spans)
        return SpanExportResult.SUCCESS

    def write(self) -> None:
        """Write the file (OSError when it cannot be written)."""
        document = json_format.MessageToDict(self._request, use_integers_for_enums=True)
        _hex_ids(document)
        # one line: the file is JSON, and JSON Lines as the Collector's otlpjsonfile reads
        text = json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"
        self._path.write_text(text, encoding="utf-8")

    def shutdown(self) -> None:
        return None


def endpoint_exporter(url: str, timeout: float) -> OTLPSpanExporter:
    """An OTLP/HTTP (protobuf) exporter to `url` + `/v1/traces`, as OTLP exporters make
    the signal's URL from a base endpoint (OTEL_EXPORTER_OTLP_ENDPOINT's rule)."""
    endpoint = url.rstrip("/") + "/v1/traces"
    return OTLPSpanExporter(endpoint=endpoint, timeout=timeout)


def export_records(
    records: Iterable[SpanRecord],
    exporter: SpanExporter,
    resource: dict[str, str],
) -> int:
    """Send the records through the SDK to `exporter`, `_BATCH` spans at a time; the number
    sent. ExportFailed when the exporter reports a failure (the SDK's own logged reason in
    the message)."""
    collected: list[ReadableSpan] = []
    provider = TracerProvider(resource=Resource.create(resource))
    provider.add_span_processor(_Collect(collected.append))
    tracer = provider.get_tracer(_SCOPE)
    contexts: dict[int, SpanContext] = {}
    sent = 0
    with _SdkErrors() as errors:
        for record in records:
            parent = contexts.get(record.parent) if record.parent is not None else None
            context = set_span_in_context(NonRecordingSpan(parent)) if parent else None
            span = tracer.start_span(
                record.name,
                context=context,
                kind=_KINDS.get(record.kind, SpanKind.INTERNAL),
                attributes=record.attributes,
                start_time=record.start,
            )
            if record.error is not None:
                span.set_status(Status(StatusCode.ERROR, record.error))
            span.end(end_time=record.end)
            contexts[record.index] = span.get_span_context()
            if len(collected) >= _BATCH:
                sent += _send(exporter, collected, errors)
        sent += _send(exporter, collected, errors)
    provider.shutdown()
    return sent


def send_records(
    records: Iterable[SpanRecord], resource: dict[str, str], url: str, timeout: float
) -> int:
    """Send to the OTLP/HTTP endpoint below `url` (`endpoint_exporter`); the spans sent.
    ExportFailed when it does not take them."""
    exporter = endpoint_exporter(url, timeout)
    try:
        return export_records(records, exporter, resource)
    finally:
        exporter.shutdown()  # type: ignore[no-untyped-call]


def write_records(records: Iterable[SpanRecord], resource: dict[str, str], path: Path) -> int:
    """Write an OTLP JSON file; the spans written. OSError when it cannot be written."""
    exporter = OtlpJsonFileExporter(path)
    count = export_records(records, exporter, resource)
    exporter.write()
    return count


def export_session(
    recorded: RecordedSession,
    *,
    url: str | None = None,
    path: Path | None = None,
    timeout: float = 10.0,
) -> str:
    """A session (a file's, or a live tab's through `otlp.live`) sent to the endpoint below
    `url`, or written to `path`; a sentence saying what was done. ExportFailed or OSError
    when it could not be (blocking: run it off the GUI thread)."""
    records = session_spans(recorded)
    resource = session_resource(recorded)
    if url is not None:
        count = send_records(records, resource, url, timeout)
        return f"Sent {count} span(s) to {url.rstrip('/')}/v1/traces"
    if path is None:
        raise ValueError("give an endpoint URL or a file")
    count = write_records(records, resource, path)
    return f"Wrote {count} span(s) to {path}"


def _send(exporter: SpanExporter, spans: list[ReadableSpan], errors: list[str]) -> int:
    if not spans:
        return 0
    result = exporter.export(spans)
    if result is not SpanExportResult.SUCCESS:
        raise ExportFailed(_reason(errors))
    count = len(spans)
    spans.clear()
    return count


def _reason(errors: list[str]) -> str:
    """The SDK's last word on the failure, with the cause of its retries when it retried
    (a refused connection, a timeout)."""
    if not errors:
        return "the exporter reported a failure"
    transient = [message for message in errors[:-1] if message.startswith("Transient error")]
    if transient:
        cause = transient[-1].removeprefix("Transient error ").split(" encountered while")[0]
        return f"{errors[-1]} ({cause[:300]})"
    return errors[-1]


class _Collect(SpanProcessor):
    def __init__(self, sink: Callable[[ReadableSpan], None]) -> None:
        self._sink = sink

    def on_end(self, span: ReadableSpan) -> None:
        self._sink(span)


class _SdkErrors(logging.Handler):
    """While in use, keeps what the SDK logs at WARNING or above (its exporter logs why an
    export failed) instead of letting it reach the terminal."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []
        self._logger = logging.getLogger("opentelemetry")
        self._propagate = True

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())

    def __enter__(self) -> list[str]:
        self._propagate = self._logger.propagate
        self._logger.addHandler(self)
        self._logger.propagate = False
        return self.messages

    def __exit__(self, *exc: object) -> None:
        self._logger.removeHandler(self)
        self._logger.propagate = self._propagate


def _hex_ids(value: Any) -> None:
    """protobuf's JSON renders bytes in base64; OTLP/JSON wants trace and span ids in hex."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("traceId", "spanId", "parentSpanId") and isinstance(item, str):
                value[key] = _b64_to_hex(item)
            else:
                _hex_ids(item)
    elif isinstance(value, list):
        for item in value:
            _hex_ids(item)


def _b64_to_hex(text: str) -> str:
    return base64.b64decode(text).hex()
