""" "Save session as…": a copy of the recording, or the in-memory traffic log as a file.

With recording on, the session is already on disk: `copy_recording` copies it (while it
may still be written, so a last line cut mid-write is left out). With recording off,
`write_traffic_log` writes the traffic log in the same format, through the same
recorder (same redaction, same HTTP exchange numbering).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from inspector.lint.finding import LintStore
from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.machine.events import SessionReady
from inspector.protocol.wire.versions import EraSetting
from inspector.recording.format import header_line
from inspector.recording.parts import SessionFileError, plain_file
from inspector.recording.redaction import RecordingSpec
from inspector.recording.writer import SessionRecorder
from inspector.storage.flushed_file import FlushedFile, compression_of
from inspector.traffic.log import TrafficEntry, TrafficLog
from inspector.traffic.record import TrafficRecord

__all__ = ["copy_recording", "entry_record", "traffic_header", "write_traffic_log"]

_HANDSHAKE = frozenset({"initialize", "server/discover"})


def copy_recording(source: Path, target: Path) -> int:
    """Copy `source` to `target`; returns the bytes written. Raises OSError. A compressed
    recording is copied as it is to a name with the same compression, else written as the
    target's name says (plain JSON Lines for `.jsonl`), whole lines only."""
    if source.resolve() == target.resolve():
        return source.stat().st_size
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".part")
    same = compression_of(source) == compression_of(target)
    if same and compression_of(source) is not None:
        # Readable up to its last flushed block, whatever is being written after it.
        with source.open("rb") as src, tmp.open("wb") as dst:
            shutil.copyfileobj(src, dst)
        tmp.replace(target)
        return target.stat().st_size
    if not same:
        return _convert(source, target, tmp)
    with source.open("rb") as src, tmp.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    data_end = tmp.stat().st_size
    with tmp.open("rb+") as f:
        # A line being written right now may be cut: keep whole lines only.
        if data_end:
            f.seek(max(0, data_end - 1))
            if f.read(1) != b"\n":
                f.seek(0)
                content = f.read()
                cut = content.rfind(b"\n") + 1
                f.truncate(cut)
                data_end = cut
    tmp.replace(target)
    return data_end


def traffic_header(spec: RecordingSpec, config: ClientConfig) -> dict[str, Any]:
    """The header line of a session written from the traffic log."""
    return header_line(
        spec.connection,
        era=str(config.era),
        client_info=config.client_info,
        client_capabilities=config.capabilities,
        protocol_version=config.legacy_version if config.era is EraSetting.LEGACY else None,
    )


def entry_record(entry: TrafficEntry, transport: str) -> TrafficRecord:
    """A row of the traffic log as the record the session reported (for the recorder's
    line making: `format.record_line`)."""
    extra = entry.extra or {}
    return TrafficRecord(
        direction=entry.direction,
        kind=entry.kind,
        raw=entry.raw,
        mono=entry.mono,
        wall=entry.wall,
        transport=transport,
        size=entry.size,
        truncated=entry.truncated,
        note=entry.note,
        http=entry.http,
        sse_event_id=extra.get("sse_event_id"),
    )


def _convert(source: Path, target: Path, tmp: Path) -> int:
    """`source` decompressed (as far as it reads: `parts.plain_file`) and written as
    `target`'s name says, whole lines only. Returns the bytes of JSON Lines written."""
    with tempfile.TemporaryDirectory(prefix="mcp-inspector-copy-") as temp:
        try:
            plain = plain_file(source, Path(temp))
        except SessionFileError as exc:
            raise OSError(str(exc)) from exc
        out = FlushedFile(tmp, compression_of(target))
        written = 0
        try:
            rest = b""
            with plain.open("rb") as src:
                while chunk := src.read(1 << 20):
                    data = rest + chunk
                    cut = data.rfind(b"\n") + 1
                    if cut:
                        out.write(data[:cut])
                        written += cut
                    rest = data[cut:]
        finally:
            out.close()
    tmp.replace(target)
    return written


def write_traffic_log(
    path: Path,
    traffic: TrafficLog,
    spec: RecordingSpec,
    config: ClientConfig,
    *,
    transport: str,
    ready: SessionReady | None = None,
    start: int = 0,
    lint: LintStore | None = None,
) -> int:
    """Write rows `start:` of `traffic` as a session file; returns the lines written.
    The `ready` line goes right after the handshake's answer. Raises OSError."""
    header = traffic_header(spec, config)
    entries = traffic.entries[start:]
    t0 = entries[0].mono if entries else 0.0
    recorder = SessionRecorder(path, header, redactor=spec.redactor(), t0=t0)
    recorder.start()
    ready_written = ready is None
    try:
        for entry in entries:
            recorder.observe(entry_record(entry, transport))
            if (
                not ready_written
                and ready is not None
                and entry.direction == "in"
                and entry.kind == "response"
                and entry.method in _HANDSHAKE
            ):
                recorder.ready(ready)
                ready_written = True
        if lint is not None:
            for finding in lint.findings:
                if finding.index >= start:
                    recorder.lint(finding.index - start, finding)
    finally:
        recorder.close()
    if recorder.error:
        raise OSError(recorder.error)
    return recorder.lines_written
